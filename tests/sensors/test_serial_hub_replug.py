"""Unplug and replug: the socat pair (the cable) killed and restarted 20 times → the
adapter is streaming again within 2 s each time, and the hub's replay causes no
duplicate observations."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Health, Observation, PiecesSeen
from companion.sensors.serial_hub import SerialHub


def test_replug_20_times(tmp_path: Path) -> None:
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2, hub_id=3)
    peer.present = {(0, "04AABBCCDDEEFF")}
    obs: list[Observation] = []
    hub = SerialHub(pair.a, obs.append, {0: "farm:green", 1: "bag"}, {"04AABBCCDDEEFF": "green-1a"}.get)
    hub.start()
    times = []
    try:
        assert wait_for(lambda: hub.state == "streaming", 5)
        assert wait_for(lambda: hub.observations == 1, 5)
        for i in range(20):
            pair.kill()
            peer.close()
            assert wait_for(lambda: hub.state != "streaming", 5), f"round {i}: unplug not noticed"
            assert hub.health().state in ("down", "connecting")
            if i == 10:  # a piece leaves while unplugged: the replay says so
                peer_present: set[tuple[int, str]] = set()
            else:
                peer_present = {(0, "04AABBCCDDEEFF")}
            connects = hub.connects
            pair.start()
            t0 = time.monotonic()
            peer = PeerHub(pair.b, readers=2, hub_id=3)
            peer.present = peer_present
            assert wait_for(lambda c=connects: hub.state == "streaming" and hub.connects > c, 2), (
                f"round {i}: not reconnected within 2 s")
            times.append(time.monotonic() - t0)
            # the replay is complete when the presence matches again
            want = {u for _, u in peer_present}
            assert wait_for(lambda w=want: hub.present()[0] == w, 2)
        kinds = [type(o).__name__ for o in obs if not isinstance(o, Health)]
        # seen at first, gone in round 10, seen again in round 11: nothing else
        assert kinds == ["PiecesSeen", "PiecesGone", "PiecesSeen"], kinds
        assert all(isinstance(o, PiecesSeen) and o.pieces == {"green-1a"} and o.zone == "farm:green"
                   and o.source == "hub:3/reader:0" for o in obs if type(o) is PiecesSeen)
        assert any(isinstance(o, Health) and o.state == "down" for o in obs)
        assert max(times) < 2.0
    finally:
        hub.close()
        peer.close()
        pair.close()


def test_closing_the_adapter_is_not_a_lost_hub(tmp_path: Path, caplog: Any) -> None:
    """``close()`` while streaming ends the link as ``disconnected (closed)`` at INFO: no
    'lost' warning in the log for a hub nobody unplugged."""
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=1, hub_id=4)
    obs: list[Observation] = []
    hub = SerialHub(pair.a, obs.append, {0: "bag"}, {}.get)
    hub.start()
    try:
        assert wait_for(lambda: hub.state == "streaming", 5)
        with caplog.at_level(logging.INFO, logger="companion.sensors.serial_hub"):
            hub.close()
        assert hub.state == "disconnected"
        said = [(r.levelno, r.getMessage()) for r in caplog.records]
        assert not [m for lvl, m in said if lvl >= logging.WARNING], said
        assert any("-> disconnected (closed)" in m for _, m in said), said
    finally:
        hub.close()
        peer.close()
        pair.close()
