"""The hub adapter's link: a HubLink state changed in one place (logged, health told) and
reconnection with back-off, on a real pty pair (socat) with a peer speaking the protocol."""

from __future__ import annotations

import itertools
import logging
import time
from pathlib import Path

import pytest
from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Health, Observation
from companion.sensors.serial_hub import HubLink, SerialHub


def test_a_port_that_is_not_there_is_tried_less_and_less_often(
        caplog: pytest.LogCaptureFixture) -> None:
    """0.05, 0.1, 0.2, 0.4, 0.4 … s between scans (each cut by at most 20 %), not one every
    0.05 s; each wait is logged at DEBUG."""
    scans: list[float] = []

    def candidates() -> list[str]:
        scans.append(time.monotonic())
        return []

    caplog.set_level(logging.DEBUG, logger="companion.sensors.serial_hub")
    hub = SerialHub(None, lambda o: None, candidates=candidates, retry_s=0.05, retry_cap_s=0.4)
    hub.start()
    try:
        assert wait_for(lambda: len(scans) >= 7, 10)
    finally:
        hub.close()
    gaps = [b - a for a, b in itertools.pairwise(scans)]
    for gap, full in zip(gaps, [0.05, 0.1, 0.2, 0.4, 0.4, 0.4], strict=False):
        assert gap >= 0.8 * full - 0.005, gaps  # a wait never ends early (late: the load)
    assert sum(gaps[:6]) >= 0.8 * 1.55
    assert hub.state is HubLink.DISCONNECTED
    assert "no hub answers; next try in" in caplog.text


def test_states_are_logged_and_the_back_off_starts_again_after_a_hello(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="companion.sensors.serial_hub")
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2, hub_id=3)
    obs: list[Observation] = []
    hub = SerialHub(pair.a, obs.append, {0: "bag"}, retry_s=0.05, retry_cap_s=0.4)
    hub.start()
    try:
        assert wait_for(lambda: hub.state == HubLink.STREAMING, 5)
        assert hub.retry.failures == 0
        pair.kill()
        peer.close()
        assert wait_for(lambda: hub.retry.failures >= 4, 5)  # the port stays away
        pair.start()
        peer = PeerHub(pair.b, readers=2, hub_id=3)
        assert wait_for(lambda: hub.state == HubLink.STREAMING, 3)
        assert hub.retry.failures == 0
        states = [o.state for o in obs if isinstance(o, Health)]
    finally:
        hub.close()
        peer.close()
        pair.close()
    said = [r.getMessage() for r in caplog.records if r.name == "companion.sensors.serial_hub"]
    assert f"serial:{pair.a}: disconnected -> opening" in said
    assert "hub:3: hello -> streaming" in said
    assert any(m.startswith("hub:3: streaming -> lost (") for m in said), said
    assert "hub:3: lost -> disconnected" in said
    assert states[:2] == ["connecting", "up"] and "down" in states and states[-1] == "up"


def test_a_hub_that_falls_silent_is_lost_after_the_link_timeout(tmp_path: Path) -> None:
    """A hub that said hello and then sends nothing (a firmware hung, a cable half out) is
    declared lost once ``link_timeout`` passes without a line — not before — and its
    health goes down."""
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2, hub_id=4)
    obs: list[Observation] = []
    hub = SerialHub(pair.a, obs.append, {0: "bag"}, link_timeout=1.0, retry_s=5.0, retry_cap_s=5.0)
    hub.start()
    try:
        assert wait_for(lambda: hub.state == HubLink.STREAMING, 5)
        t0 = time.monotonic()
        assert wait_for(lambda: hub.state != HubLink.STREAMING, 5)
        quiet = time.monotonic() - t0
        assert hub.last_error == "silence"
    finally:
        hub.close()
        peer.close()
        pair.close()
    assert quiet >= 0.8, quiet  # the hello's last line was before t0: at most 0.2 s early
    assert "down" in [o.state for o in obs if isinstance(o, Health)]
