"""Finding hubs by their hello among other serial devices, and several hubs at once."""

from __future__ import annotations

import os
import threading
from pathlib import Path

from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Observation, PiecesSeen
from companion.sensors.ports import discover_hubs
from companion.sensors.serial_hub import SerialHub
from companion.sensors.zone_map import ZoneMap


class Chatter:
    """Another serial device on the far end: it writes lines that are no hello."""

    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_RDWR | os.O_NOCTTY)
        self.stop = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        while not self.stop.wait(0.05):
            try:
                os.write(self.fd, b"$GPGGA,123519,4807.038,N*47\r\n")
            except OSError:
                return

    def close(self) -> None:
        self.stop.set()
        os.close(self.fd)


def test_scan_finds_the_hub_by_its_hello(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "y").mkdir()
    other, hub_pair = SocatPair(tmp_path / "x"), SocatPair(tmp_path / "y")
    chatter = Chatter(other.b)
    peer = PeerHub(hub_pair.b, readers=2, hub_id=5)
    peer.present = {(1, "A1B2C3D4")}
    try:
        ports = [str(tmp_path / "missing"), other.a, hub_pair.a]
        found = discover_hubs(ports, timeout=1.0)
        assert [(p, h["id"]) for p, h in found] == [(hub_pair.a, "5")]
        obs: list[Observation] = []
        hub = SerialHub(None, obs.append, {1: "bag"}, candidates=lambda: ports, hello_timeout=1.0)
        hub.start()
        try:
            assert wait_for(lambda: hub.state == "streaming", 8)
            assert hub.port == hub_pair.a and hub.hub_id == 5
            assert wait_for(lambda: any(isinstance(o, PiecesSeen) for o in obs), 3)
            assert [o.source for o in obs if isinstance(o, PiecesSeen)] == ["hub:5/reader:1"]
        finally:
            hub.close()
    finally:
        chatter.close()
        peer.close()
        other.close()
        hub_pair.close()


def test_two_hubs_at_once_each_with_its_zones(tmp_path: Path) -> None:
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    pairs = [SocatPair(tmp_path / "1"), SocatPair(tmp_path / "2")]
    peers = [PeerHub(pairs[0].b, readers=2, hub_id=1), PeerHub(pairs[1].b, readers=2, hub_id=2)]
    zones = ZoneMap({1: {0: "farm:red"}, 2: {0: "farm:blue"}}, {})
    obs: list[Observation] = []
    lock = threading.Lock()

    def emit(o: Observation) -> None:
        with lock:
            obs.append(o)

    hubs = [SerialHub(p.a, emit, zones) for p in pairs]
    for h in hubs:
        h.start()
    try:
        assert wait_for(lambda: all(h.state == "streaming" for h in hubs), 5)
        peers[0].line("SEEN 0 A1B2C3D4")
        peers[1].line("SEEN 0 A1B2C3D4")
        assert wait_for(lambda: sum(isinstance(o, PiecesSeen) for o in obs) == 2, 5)
        got = {(o.source, o.zone) for o in obs if isinstance(o, PiecesSeen)}
        assert got == {("hub:1/reader:0", "farm:red"), ("hub:2/reader:0", "farm:blue")}
    finally:
        for h in hubs:
            h.close()
        for p in peers:
            p.close()
        for q in pairs:
            q.close()


def test_two_scanning_adapters_take_one_hub_each_and_rescan_after_unplug(tmp_path: Path) -> None:
    (tmp_path / "1").mkdir()
    (tmp_path / "2").mkdir()
    pairs = [SocatPair(tmp_path / "1"), SocatPair(tmp_path / "2")]
    peers = [PeerHub(pairs[0].b, readers=1, hub_id=1), PeerHub(pairs[1].b, readers=1, hub_id=2)]
    ports = [p.a for p in pairs]
    hubs = [SerialHub(None, lambda o: None, candidates=lambda: ports, hello_timeout=1.0)
            for _ in range(2)]
    for h in hubs:
        h.start()
    try:
        assert wait_for(lambda: all(h.state == "streaming" for h in hubs), 8)
        assert sorted(h.hub_id or 0 for h in hubs) == [1, 2]
        assert sorted(h.port or "" for h in hubs) == sorted(ports)
        # hub 1 unplugged, back under another name: its adapter finds it there
        first = next(h for h in hubs if h.hub_id == 1)
        pairs[0].kill()
        peers[0].close()
        assert wait_for(lambda: first.state != "streaming", 5)
        (tmp_path / "3").mkdir()
        moved = SocatPair(tmp_path / "3")
        ports.append(moved.a)
        peers[0] = PeerHub(moved.b, readers=1, hub_id=1)
        pairs.append(moved)
        assert wait_for(lambda: first.state == "streaming" and first.port == moved.a, 8)
        assert first.hub_id == 1
    finally:
        for h in hubs:
            h.close()
        for p in peers:
            p.close()
        for q in pairs:
            q.close()
