"""End to end: the real firmware image in simavr → pty → `SerialHub` built by the
`Runtime` → reconciler → an action on the live feed; and a runtime with no device."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from hub_support import SimHub, build_firmware, wait_for

from companion.runtime import Runtime
from companion.settings import Settings
from companion.table.feed import Notice
from web import create_app

RED = {"red-1a": "04A1B2C3D4E5F6", "red-1b": "11223344", "red-1c": "04C1C2C3C4C5C6",
       "red-1d": "55667788", "red-2a": "04D1D2D3D4D5D6"}


def _game_with_family_take(rt: Runtime) -> dict[str, Any]:
    """A new game (red first) whose first legal moves include a take on the family space
    (the cubes are drawn at random); returns that take."""
    for _ in range(40):
        rt.service.new_game(["red", "blue"], first_player="red")
        while "virtual_draw" in json.dumps(rt.service.legal()):
            rt.service.submit({"type": "virtual_draw"})
        takes = [a for a in rt.service.legal() if a.get("space") == "family"]
        if takes:
            return takes[0]
    raise AssertionError("no family take in 40 games")


@pytest.fixture(scope="module")
def uno_elf() -> Any:
    return build_firmware("uno")


def test_hub_in_simavr_to_an_action_on_the_live_feed(uno_elf: Any, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    # the default zone map beside the database: reader 0 sits under red's farm
    db.with_suffix(".zones.json").write_text(json.dumps({"default": {"0": "farm:red"}}))
    with SimHub(uno_elf) as sim:
        for piece in ("red-1a", "red-1b", "red-1c", "red-1d"):
            sim.cmd(f"add 0 {RED[piece]}")
        rt = Runtime(Settings(db_path=db, serial=(sim.pty,)))
        try:
            for piece, uid in RED.items():
                rt.registry.enrol(uid, piece)
            take = _game_with_family_take(rt)
            notices: list[Notice] = []
            rt.service.add_listener(notices.append)
            rt.start()
            hub = rt.adapters[0]
            assert wait_for(lambda: hub.health().state in ("up", "degraded"), 15)
            # the farm as the hub sees it matches the game: nothing proposed, no discrepancy
            assert wait_for(lambda: rt.reconciler.table.ids("farm:red")
                            == {"red-1a", "red-1b", "red-1c", "red-1d"}, 15)
            seq = rt.service.submit(take, "tablet")
            assert [a["type"] for a in rt.service.legal()] == ["birth", "skip"]
            time.sleep(1.0)
            assert rt.service.seq() == seq and rt.reconciler.discrepancy is None

            # a child is born: red-2a is put on the farm, the reader under it sees the tag
            sim.cmd(f"add 0 {RED['red-2a']}")
            assert wait_for(lambda: rt.service.seq() == seq + 1, 15), rt.sensing.recent
            game = rt.service.current_game_id
            assert game is not None
            last = rt.store.events(game)[-1]
            assert last.seq == seq + 1 and last.source == "tag_reader", last
            assert wait_for(lambda: any(n.seq == seq + 1 for n in notices), 5)
            feed = [json.loads(n.data) for n in notices if n.seq == seq + 1]
            assert "birth" in json.dumps(feed), feed
            # (the proposal is published just after the action is stored)
            proposals = wait_for(lambda: [d for name, d in rt.sensing.recent
                                          if name == "proposal"], 5)
            assert proposals
            proposals = [d for name, d in rt.sensing.recent if name == "proposal"]
            assert proposals[-1]["actions"] == [{"type": "birth", "player": "red"}]
            evidence = rt.evidence(game)[-1]
            assert evidence["seq"] == seq + 1
            assert [(o["source"], o["zone"], o["pieces"]) for o in evidence["observations"]
                    if o["kind"] == "seen"][-1] == ("hub:1/reader:0", "farm:red", ["red-2a"])

            # the health panel of the web app is the runtime's: the hub and its readers
            client = create_app(rt).test_client()
            body = client.get("/api/sensors").get_json()
            [entry] = [e for e in body["adapters"] if e["name"] == hub.name]
            assert entry["health"]["state"] in ("up", "degraded")
            assert entry["readers"][0]["zone"] == "farm:red"
            assert entry["readers"][0]["state"] == "tag"
        finally:
            rt.close()
        assert hub.state != "streaming"


def test_no_device_the_service_runs_and_the_panel_says_so(tmp_path: Path) -> None:
    missing = str(tmp_path / "no-such-tty")
    rt = Runtime(Settings(db_path=tmp_path / "g.sqlite3", serial=(missing,), camera=str(
        tmp_path / "no-such-video.mp4")))
    with rt:
        rt.service.new_game(["red", "blue"])
        client = create_app(rt).test_client()
        body = client.get("/api/sensors").get_json()
        states = {e["name"]: e["health"]["state"] for e in body["adapters"]}
        assert set(states) == {f"serial:{missing}", f"camera:{tmp_path / 'no-such-video.mp4'}"}
        assert set(states.values()) <= {"down", "connecting"}, states
        assert client.get("/api/state").status_code == 200
    assert all(not t.is_alive() for t in rt.threads)


def test_a_zone_map_that_is_not_one_is_refused(tmp_path: Path) -> None:
    from companion.sensors.zone_map import ZoneMapError

    zones = tmp_path / "z.json"
    zones.write_text('{"default": {"x": "farm:red"}}')
    with pytest.raises(ZoneMapError, match="default"):
        Runtime(Settings(db_path=tmp_path / "g.sqlite3", serial=("auto",), zones=zones))
