"""Board values cannot brick the table: each key's schema, the box check refusing bad
answers with what is expected (fuzzed), a broken answers file or stored game never a 5xx."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, make_app, read_stream
from flask.testing import FlaskClient

from companion import boxcheck
from companion.store import EventStore
from companion.table import TableService
from companion.village.box_values import check_value
from companion.village.data import BoardDataError, schemas, shipped_items
from web import runtime_of

TOKEN = "board-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PAGES = ["/", "/new", "/boxcheck", "/play", "/scoreboard"]


def _app_client(tmp_path: Path) -> FlaskClient:
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "box.json")
    return app.test_client()


def test_every_key_has_a_schema_plain_title_and_what_to_look_at() -> None:
    items = shipped_items()
    assert set(schemas()) == set(items)
    for key, item in items.items():
        check_value(key, item.value)  # the shipped values fit their own schema
        assert item.title and item.look, key
        assert key not in item.title and "_" not in item.title and "null" not in item.look


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("time_track.length", 10**30, "a whole number from 4 to 40"),
        ("time_track.length", True, "a whole number"),
        ("time_track.length", 12.0, "a whole number"),
        ("scoring.travel", ["a", "b"], "a list of 7 items"),
        ("travel.map", {"cities": 1}, "'start' is missing"),
        ("customers.tiles", [{"id": "c1", "wants": {"gold": 1}, "prestige": 1}], "unknown 'gold'"),
        ("market.stalls", [None, None], "a list of 5 items"),
        ("setup.2.bag", {"brown": -1, "pink": 4, "orange": 4, "green": 4}, "from 0 to 30"),
    ],
)
def test_a_bad_answer_says_what_is_expected(
    tmp_path: Path, key: str, value: Any, expected: str
) -> None:
    with pytest.raises(BoardDataError, match=re.escape(expected)):
        check_value(key, value)
    client = _app_client(tmp_path)
    r = client.post("/api/boxcheck", json={"key": key, "value": value}, headers=AUTH)
    assert r.status_code == 422, r.get_json()
    assert expected in r.get_json()["message"]
    assert not (tmp_path / "box.json").exists()  # nothing saved


def _mutations(value: Any, rng: random.Random, depth: int = 0) -> list[Any]:
    """Values of the wrong type and size, and the shipped value with one part mutated."""
    out: list[Any] = [
        None, True, False, 0, -1, 1.5, 10**30, -(10**30), "", "x" * 5000, [], {},
        [None] * 1000, {"a": 1}, [[[[[]]]]], [1, "two", None], 3, 41,
    ]
    if depth > 1:
        return out
    if isinstance(value, dict) and value:
        for k in rng.sample(list(value), min(3, len(value))):
            for m in rng.sample(_mutations(value[k], rng, depth + 1), 4):
                out.append({**value, k: m})
        out.append({k: v for k, v in list(value.items())[1:]})  # one field missing
        out.append({**value, "extra": 1})
    if isinstance(value, list) and value:
        for m in rng.sample(_mutations(value[0], rng, depth + 1), 5):
            out.append([m, *value[1:]])
        out.append(value[:-1])
        out.append(value + value)
        out.append(value * 50)
    return out


def test_box_check_fuzz_only_2xx_4xx_and_a_new_game_still_starts(tmp_path: Path) -> None:
    client = _app_client(tmp_path)
    assert client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH).status_code == 201
    rng = random.Random(5)
    statuses: dict[int, int] = {}
    for key, item in shipped_items().items():
        for value in _mutations(item.value, rng):
            r = client.post("/api/boxcheck", json={"key": key, "value": value}, headers=AUTH)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            assert r.status_code < 500, (key, value, r.get_json())
            if r.status_code == 200:  # an accepted answer: games must still start with it
                g = client.post("/api/games", json={"players": ["red", "blue", "white"]}, headers=AUTH)
                assert g.status_code == 201, (key, value, g.get_json())
    assert statuses.get(422, 0) > 300  # the mutations were mostly refused
    for path in ["/api/state", "/api/legal", "/api/games", "/api/boxcheck", *PAGES]:
        assert client.get(path).status_code < 500, path
    r = client.post("/api/games", json={"players": ["red", "blue", "white", "yellow"]}, headers=AUTH)
    assert r.status_code == 201
    assert client.get("/api/legal").get_json()["actions"]


def test_an_answers_file_that_cannot_be_used_falls_back_and_says_why(tmp_path: Path) -> None:
    good = {"time_track.length": 12}
    bad = {"customers.tiles": [{"id": 1}], "travel.map": {"cities": 1}, "nope": 3}
    (tmp_path / "box.json").write_text(json.dumps({**good, **bad}))
    client = _app_client(tmp_path)
    body = client.get("/api/boxcheck").get_json()
    assert len(body["problems"]) == 3
    assert any("customers.tiles" in p for p in body["problems"])
    rows = {r["key"]: r for r in body["values"]}
    assert rows["time_track.length"]["value"] == 12 and rows["time_track.length"]["verified"]
    for path in PAGES:
        assert client.get(path).status_code < 500, path
    assert client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH).status_code == 201
    (tmp_path / "box.json").write_text("{not json")
    assert boxcheck.load_overlay_lenient(tmp_path / "box.json")[0] == {}
    assert _app_client(tmp_path).get("/api/boxcheck").get_json()["problems"]


def test_a_stored_game_that_cannot_be_loaded_is_named_and_the_table_goes_on(
    tmp_path: Path,
) -> None:
    db = tmp_path / "g.sqlite3"
    with EventStore(db) as store:
        service = TableService(store, TOKEN)
        first = service.new_game(["red", "blue"])
        broken = service.new_game(["red", "blue", "white"])
    con = sqlite3.connect(db)
    header = json.loads(con.execute("SELECT header FROM games WHERE id=?", (broken,)).fetchone()[0])
    header["data"]["time_track.length"] = 10**30
    con.execute("UPDATE games SET header=? WHERE id=?", (json.dumps(header), broken))
    con.commit()
    con.close()

    app = make_app(db_path=db, table_token=TOKEN, boxcheck_path=tmp_path / "b.json")
    client = app.test_client()
    state = client.get("/api/state")
    assert state.status_code == 404
    message = state.get_json()["message"]
    assert f"game {broken} cannot be loaded" in message and "time_track.length" in message
    games = {g["id"]: g for g in client.get("/api/games").get_json()["games"]}
    assert "time_track.length" in games[broken]["broken"] and games[first]["broken"] is None
    for path in ["/api/legal", "/api/draws", *PAGES]:
        assert client.get(path).status_code < 500, path
    served = Served(app)
    try:
        assert read_stream(served.url, "/api/events?after=0", 1)[0] == 200
    finally:
        served.close()
    refused = client.post(f"/api/games/{broken}/select", headers=AUTH)
    assert refused.status_code == 422 and "time_track.length" in refused.get_json()["message"]
    assert client.post(f"/api/games/{first}/select", headers=AUTH).status_code == 200
    assert client.get("/api/state").get_json()["game_id"] == first
    assert client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH).status_code == 201
    runtime_of(app).close()
