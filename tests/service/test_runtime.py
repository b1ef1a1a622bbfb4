"""The runtime: start/close leaves nothing behind, a slow listener never blocks a write,
and the sensing endpoints show and answer what the reconciler makes of the table."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, read_stream

from companion.reconcile.observations import CubeCounts, Observation, ZoneSnapshot
from companion.runtime import Runtime
from companion.settings import Settings
from companion.store import EventStore
from companion.store.record import parse_record
from companion.table import TableService
from companion.village.picture import picture
from web import create_app

TOKEN = "test-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = check()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("timed out")


def frame(rt: Runtime) -> list[Observation]:
    st = rt.service.state()
    p, t = picture(st), time.monotonic()
    out: list[Observation] = [CubeCounts("camera:0", t, region=r, counts=dict(c))
                              for r, c in p.cubes.items() if r.startswith(("space:", "supply:"))]
    out += [ZoneSnapshot("camera:0", t, zone=z, pieces=m) for z, m in p.pieces.items()
            if z.startswith("farm:")]
    return out


@pytest.fixture
def rt(tmp_path: Path) -> Any:
    runtime = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN))
    runtime.start()
    runtime.service.new_game(["red", "blue"])
    while runtime.service.legal() == [] or "virtual_draw" in json.dumps(runtime.service.legal()):
        runtime.service.submit({"type": "virtual_draw"})
    yield runtime
    runtime.close()


def test_start_and_close_leave_no_thread_behind(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    rt = Runtime(Settings(db_path=tmp_path / "g.sqlite3", demo=True, sensors="sim"))
    rt.start()
    wait_for(lambda: rt.service.current_game_id is not None)
    time.sleep(1.0)
    assert {t.name for t in set(threading.enumerate()) - before} >= {
        "runtime-reconciler", "demo-sim-table"}
    started = time.monotonic()
    rt.close()
    rt.close()  # idempotent
    assert time.monotonic() - started < 8
    assert set(threading.enumerate()) - before == set()


def test_a_proposal_then_a_discrepancy_answered_through_the_api(rt: Runtime) -> None:
    app = create_app(rt)
    client = app.test_client()
    for o in frame(rt):
        rt.emit(o)
    time.sleep(1.0)
    seq0 = rt.service.seq()
    take = next(a for a in rt.service.legal() if a["type"] == "take")
    import companion.village as v

    after = v.apply(rt.service.state(), take)
    p, t = picture(after), time.monotonic()
    for r in (f"space:{take['space']}", f"supply:{take['player']}"):
        rt.emit(CubeCounts("camera:0", t, region=r, counts=dict(p.cubes[r])))
    wait_for(lambda: rt.service.seq() > seq0)
    assert rt.store.events(rt.service.current_game_id)[-1].source == "camera"
    # the proposal is published just after the action is stored (reconciler thread)
    assert wait_for(lambda: "proposal" in [n for n, _ in rt.sensing.recent])
    evidence = client.get("/api/sensing/evidence").get_json()["evidence"]
    assert evidence and evidence[-1]["observations"][0]["kind"] == "cubes"
    assert evidence[-1]["seq"] == rt.service.seq() and evidence[-1]["source"] == "camera"
    # exported with the game, on request; the record still replays (annotations ignored)
    plain = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    full = client.get("/api/export?evidence=1", headers=AUTH).get_data(as_text=True)
    assert "_observed" not in plain
    last = json.loads(full.splitlines()[-1])
    assert last["_observed"] == evidence[-1]["observations"]
    assert {k: x for k, x in last.items() if k != "_observed"} == json.loads(plain.splitlines()[-1])
    header, actions = parse_record(full)
    assert v.summary(v.replay(header, actions)) == v.summary(rt.service.state())
    # kept beside the event: a service opened afresh on the same database still has it
    again = TableService(EventStore(rt.store.path), TOKEN)
    assert again.evidence(rt.service.current_game_id) == evidence

    # a cube knocked off a space: a discrepancy, open for a page that connects
    st = rt.service.state()
    region = next(r for r, c in picture(st).cubes.items()
                  if r.startswith("space:") and any(c.values()))
    rt.emit(CubeCounts("camera:0", time.monotonic(), region=region, counts={}))
    msgs = wait_for(lambda: client.get("/api/sensing/open").get_json()["messages"])
    d = msgs[0]
    assert d["event"] == "discrepancy" and d["data"]["items"][0]["region"] == region
    r = client.post(f"/api/sensing/discrepancies/{d['data']['id']}", json={"fix": True})
    assert r.status_code == 401
    r = client.post(f"/api/sensing/discrepancies/{d['data']['id']}", json={"fix": True},
                    headers=AUTH)
    assert r.status_code == 200 and r.get_json()["outcomes"][0]["kind"] == "closed"
    assert client.get("/api/sensing/open").get_json()["messages"] == []
    r = client.post(f"/api/sensing/discrepancies/{d['data']['id']}", json={"fix": True},
                    headers=AUTH)
    assert r.status_code == 404
    r = client.post("/api/sensing/prompts/999", json={"choice": 0}, headers=AUTH)
    assert r.status_code == 404


def test_the_stream_sends_open_messages_with_event_names(rt: Runtime) -> None:
    rt.sensing.publish("discrepancy", {"kind": "discrepancy", "id": 7, "items": []})
    rt.sensing.publish("health", {"device": "hub:1", "state": "up"})
    served = Served(create_app(rt))
    try:
        _, _, text = read_stream(served.url, "/api/events", 3)
    finally:
        served.close()
    assert "event: discrepancy\ndata: " in text and "event: health\n" in text
    assert "id:" not in text


def test_a_prompt_is_declined_through_the_api_none_of_these(rt: Runtime) -> None:
    """A tap while the player is to do the crafts action: the trainings it may be are
    asked, with "none of these" and "nothing happened"; "none of these" closes it."""
    from companion.reconcile.observations import TagTapped

    take = next((a for a in rt.service.legal() if a.get("type") == "take"
                 and a.get("space") == "crafts"), None)
    assert take is not None
    rt.service.submit(take)
    colour = take["player"]
    member = sorted(picture(rt.service.state()).pieces[f"farm:{colour}"])[0]
    rt.emit(TagTapped("pad:0", time.monotonic(), reader="0", uid="04AA", piece=member))
    client = create_app(rt).test_client()
    msgs = wait_for(lambda: client.get("/api/sensing/open").get_json()["messages"])
    p = msgs[0]["data"]
    assert msgs[0]["event"] == "prompt" and p["none_of_these"] and p["nothing_happened"]
    r = client.post(f"/api/sensing/prompts/{p['id']}", json={"choice": "none"}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["outcomes"][0]["kind"] == "closed"
    assert client.get("/api/sensing/open").get_json()["messages"] == []
    r = client.post(f"/api/sensing/prompts/{p['id']}", json={"choice": "nothing"}, headers=AUTH)
    assert r.status_code == 404


def test_a_zone_map_changed_after_start_is_followed_by_the_covered_zone_rule(
        tmp_path: Path) -> None:
    """The readers page gives a running hub a new zone map: the reconciler's covered zones
    (a path needing an unread arrival there is asked) follow it, not the map at start."""
    from companion.sensors.serial_hub import SerialHub, ZoneMap

    hub = SerialHub(str(tmp_path / "no-such-port"), lambda obs: None,
                    zones={0: "farm:red"}, candidates=lambda: [])
    runtime = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN),
                      adapters=[hub])
    try:
        runtime.start()
        runtime.service.new_game(["red", "blue"])
        assert runtime.reconciler.covered == frozenset({"farm:red"})
        hub.set_zones(ZoneMap({}, {0: "farm:red", 1: "council:1"}))
        wait_for(lambda: runtime.reconciler.covered == frozenset({"farm:red", "council:1"}),
                 timeout=5.0)
    finally:
        runtime.close()
