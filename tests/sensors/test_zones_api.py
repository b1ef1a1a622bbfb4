"""The zone map API on a real app and SQLite file, with a real `SerialHub` adapter on a socat
pty pair talking to a scripted hub: GET is public, POST needs the table token, a bad map is
refused naming the entry (nothing saved or applied), a good one is saved beside the
database and applied to the running hub (a tag on reader 0 moves to the new zone)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient
from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Observation, PiecesGone, PiecesSeen
from companion.sensors.serial_hub import SerialHub
from companion.sensors.zone_map import ZoneMap
from web import runtime_of

TOKEN = "zones-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
UID, UID2 = "04A1B2C3D4E5F6", "0BADCAFE"


class Rig:
    """The app, its running hub adapter on a pty pair, the scripted hub at the far end and
    every observation the adapter emitted."""

    def __init__(self, tmp_path: Path) -> None:
        self.db = tmp_path / "games.sqlite3"
        self.app = make_app(db_path=self.db, table_token=TOKEN, boxcheck_path=str(tmp_path / "boxcheck.json"))
        self.client = self.app.test_client()
        registry = runtime_of(self.app).registry
        registry.enrol(UID, "red-1a")
        running = runtime_of(self.app).running
        self.seen: list[Observation] = []
        self._lock = threading.Lock()
        running.subscribe(self._record)
        self.pair = SocatPair(tmp_path)
        self.peer = PeerHub(self.pair.b, readers=3, hub_id=1)
        self.hub = SerialHub(self.pair.a, running.observe, ZoneMap({1: {0: "farm:red"}}, {}),
                             registry.lookup, name="hub-test")
        running.add(self.hub)
        self.hub.start()
        assert wait_for(lambda: self.hub.state == "streaming", 5)
        self.stop = threading.Event()
        self.beat = threading.Thread(target=self._heartbeat, daemon=True)
        self.beat.start()

    def _heartbeat(self) -> None:
        """The hub's HB line every second, as the firmware sends (a silent link is lost)."""
        ms = 0
        while not self.stop.wait(1.0):
            ms += 1000
            try:
                self.peer.line(f"HB {ms} 20,20,20")
            except OSError:
                return

    def _record(self, obs: Observation) -> None:
        if isinstance(obs, PiecesSeen | PiecesGone):
            with self._lock:
                self.seen.append(obs)

    def moves(self) -> list[tuple[str, str, str]]:
        with self._lock:
            return [(o.kind, o.zone, next(iter(o.pieces | o.unknown_uids)))
                    for o in self.seen if isinstance(o, PiecesSeen | PiecesGone)]

    def close(self) -> None:
        self.stop.set()
        self.beat.join(timeout=2)
        self.hub.close()
        self.peer.close()
        self.pair.close()
        runtime_of(self.app).close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.close()


def _post(client: FlaskClient, body: Any, auth: bool = True) -> Any:
    return client.post("/api/zones", json=body, headers=AUTH if auth else {})


def test_get_is_public_and_lists_the_running_hub(rig: Rig) -> None:
    got = rig.client.get("/api/zones").get_json()
    assert got["map"] == {"hubs": {"1": {"0": "farm:red"}}, "default": {}}  # the hub's map
    assert got["problem"] is None and got["file"] == rig.db.with_suffix(".zones.json").name
    assert {"zone": "council:2", "group": "Council", "label": "Council level 2"} in got["choices"]
    (hub,) = got["hubs"]
    assert (hub["name"], hub["hub_id"], hub["health"]["state"]) == ("hub-test", 1, "up")
    assert [(r["index"], r["zone"], r["label"]) for r in hub["readers"]] == [
        (0, "farm:red", "Red farm"), (1, "unmapped", "unmapped"), (2, "unmapped", "unmapped")]


def test_the_page_renders_and_the_reader_panel_links_to_it(rig: Rig) -> None:
    html = rig.client.get("/readers").get_data(as_text=True)
    assert 'id="zones-hubs"' in html and "zones.js" in html and 'id="zones-save"' in html
    assert 'href="/readers"' in rig.client.get("/tags").get_data(as_text=True)


def test_post_needs_the_token_and_refuses_bad_maps(rig: Rig) -> None:
    path = rig.db.with_suffix(".zones.json")
    r = _post(rig.client, {"hubs": {"1": {"0": "bag"}}}, auth=False)
    assert r.status_code == 401 and r.get_json()["code"] == "unauthorized"
    assert not path.exists()
    for body, words in [
        ({"hubs": {"1": {"0": "bag", "2": "space:market"}}}, "hub 1, reader 2: 'space:market'"),
        ({"hubs": {"1": {"x": "bag"}}}, "hub 1: 'x'"),
        ({"hubs": {"1": {"0": "bag"}}, "default": {"0": "farm:purple"}},
         "default, reader 0: 'farm:purple'"),
        ({"readers": {}}, "a zone map is"),
        ([1, 2], "expected a JSON object"),
    ]:
        r = _post(rig.client, body)
        assert r.status_code == 400, body
        assert words in r.get_json()["message"], r.get_json()
    assert "farm:<colour>" in _post(rig.client, {"hubs": {"1": {"0": "nowhere"}}}
                                    ).get_json()["message"]  # says what is allowed
    assert not path.exists()
    assert rig.hub.zones == ZoneMap({1: {0: "farm:red"}}, {})  # nothing applied


def test_a_new_map_is_saved_and_moves_the_tag_on_reader_0(rig: Rig, tmp_path: Path) -> None:
    rig.peer.present.add((0, UID))
    rig.peer.line(f"SEEN 0 {UID}")
    assert wait_for(lambda: rig.moves() == [("seen", "farm:red", "red-1a")], 3), rig.moves()

    new = {"hubs": {"1": {"0": "council:2", "1": "bag"}}, "default": {"0": "farm:blue"}}
    r = _post(rig.client, new)
    assert r.status_code == 200, r.get_json()
    assert r.get_json() == {"map": new, "file": rig.db.with_suffix(".zones.json").name,
                            "applied": ["hub-test"]}
    assert json.loads(rig.db.with_suffix(".zones.json").read_text()) == new
    # the piece already on reader 0 leaves the old zone and is seen in the new one
    assert wait_for(lambda: len(rig.moves()) == 3, 3)
    assert rig.moves()[1:] == [("gone", "farm:red", "red-1a"), ("seen", "council:2", "red-1a")]

    # what the hub reports from now on carries the new zones
    rig.peer.present.add((1, UID2))
    rig.peer.line(f"SEEN 1 {UID2}")
    rig.peer.present.discard((0, UID))
    rig.peer.line(f"GONE 0 {UID}")
    assert wait_for(lambda: len(rig.moves()) == 5, 3), rig.moves()
    assert rig.moves()[3:] == [("seen", "bag", UID2), ("gone", "council:2", "red-1a")]
    assert rig.client.get("/api/zones").get_json()["hubs"][0]["readers"][1]["uid"] is None
    rows = rig.client.get("/api/zones", headers=AUTH).get_json()["hubs"][0]["readers"]
    assert [(r["zone"], r["label"]) for r in rows] == [
        ("council:2", "Council level 2"), ("bag", "Black bag's mouth"), ("unmapped", "unmapped")]
    assert rows[1]["uid"] == UID2 and rows[1]["last_seen"] is not None

    # the same map again changes no zone: nothing is re-announced
    assert _post(rig.client, new).status_code == 200
    assert rig.hub.set_zones(ZoneMap({1: {0: "council:2", 1: "bag"}}, {0: "farm:blue"})) == 0
    assert len(rig.moves()) == 5

    # another app on the same database reads the saved map
    other = make_app(db_path=rig.db, table_token=TOKEN, boxcheck_path=str(tmp_path / "boxcheck.json"))
    try:
        assert other.test_client().get("/api/zones").get_json()["map"] == new
    finally:
        runtime_of(other).close()


def test_an_unusable_file_is_said_and_a_save_replaces_it(rig: Rig) -> None:
    path = rig.db.with_suffix(".zones.json")
    path.write_text('{"hubs": {"1": {"0": "stock"}}}')
    got = rig.client.get("/api/zones").get_json()
    assert got["map"] == {"hubs": {}, "default": {}}
    assert "'stock' is not a zone a reader can have" in got["problem"]
    assert _post(rig.client, {"hubs": {"1": {"0": "bag"}}}).status_code == 200
    assert rig.client.get("/api/zones").get_json()["problem"] is None


def test_an_unwritable_file_is_a_503_and_the_hub_keeps_its_map(rig: Rig) -> None:
    rig.db.with_suffix(".zones.json").mkdir()  # a folder where the file should be
    r = _post(rig.client, {"hubs": {"1": {"0": "bag"}}})
    assert r.status_code == 503 and r.get_json()["code"] == "not_saved"
    assert rig.hub.zones == ZoneMap({1: {0: "farm:red"}}, {})


def test_the_zones_file_can_be_configured(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    app: Flask = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, zones=str(target), boxcheck_path=str(tmp_path / "boxcheck.json"))
    try:
        c = app.test_client()
        assert c.get("/api/zones").get_json()["hubs"] == []
        assert _post(c, {"hubs": {}, "default": {"3": "church:4"}}).get_json()["applied"] == []
        assert json.loads(target.read_text()) == {"hubs": {}, "default": {"3": "church:4"}}
        assert not (tmp_path / "g.zones.json").exists()
    finally:
        runtime_of(app).close()
