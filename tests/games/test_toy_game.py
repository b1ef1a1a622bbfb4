"""A second game beside Village, through the real API: the toy of `toy_game` is registered
with `companion.games` and the table service creates, plays, narrates, undoes, exports and
replays it as it does Village (Flask's test client on the real app and a real SQLite file;
the live feed's notices read from the service's subscription)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient
from toy_game import CountToTen

from companion import games
from web import runtime_of, table_service

TOKEN = "toy-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
TOY = CountToTen()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    games.register(TOY)
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def new_toy(client: FlaskClient) -> Any:
    r = client.post("/api/games", json={"game": TOY.name, "players": ["red", "blue"]},
                    headers=AUTH)
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play(client: FlaskClient, n: int) -> Any:
    r = client.post("/api/actions", json={"type": "add", "n": n}, headers=AUTH)  # partial
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_game_unknown_to_the_table_is_refused(client: FlaskClient) -> None:
    r = client.post("/api/games", json={"game": "chess", "players": ["red", "blue"]},
                    headers=AUTH)
    assert r.status_code == 400 and "chess" in r.get_json()["message"]
    assert client.get("/api/games").get_json()["games"] == []


def test_the_toy_is_created_played_narrated_undone_and_replayed(
    app: Flask, client: FlaskClient
) -> None:
    created = new_toy(client)
    assert set(created["players"]) == {"red", "blue"}  # a token for each player, as Village
    header = table_service(app).header()
    assert header["game"] == "count-to-ten"
    feed = table_service(app).subscribe()

    legal = client.get("/api/legal").get_json()
    assert legal["pending"] == {"kind": "turn", "player": "red"}
    assert legal["actions"] == [{"type": "add", "player": "red", "n": 1},
                                {"type": "add", "player": "red", "n": 2}]
    for n in (2, 2, 2, 1):
        play(client, n)
    state = client.get("/api/state").get_json()
    assert (state["total"], state["pending"]["player"]) == (7, "red")

    refused = client.post("/api/actions", json={"type": "add", "player": "blue", "n": 1},
                          headers=AUTH)
    assert refused.status_code == 422 and refused.get_json()["code"] == "not_legal"
    malformed = client.post("/api/actions", json={"type": "castle"}, headers=AUTH)
    assert malformed.status_code == 400 and malformed.get_json()["error"] == "MalformedAction"

    log = client.get("/api/log").get_json()
    assert log["entries"][-1]["narration"] == ["Blue adds 1: 7.", "Now Red."]
    assert log["undo"] == "Blue adds 1: 7."
    undone = client.post("/api/undo", headers=AUTH)
    assert undone.status_code == 200
    assert client.get("/api/state").get_json()["total"] == 6
    assert client.get("/api/log").get_json()["entries"][-1]["narration"] == [
        "Undone: Blue adds 1: 7.", "Now Blue."]

    for n in (2, 2):
        play(client, n)
    state = client.get("/api/state").get_json()
    assert state["total"] == 10 and state["pending"] == {"kind": "over", "player": None}
    assert client.get("/api/legal").get_json()["actions"] == []
    told = [n for n in iter(lambda: feed.get(timeout=1), None)]
    assert any('"Red adds 2: 10 and wins."' in n.data for n in told)

    record = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    lines = record.splitlines()
    assert lines[0].startswith('{"game":"count-to-ten"') and len(lines) == 1 + 5  # the undone one left out
    again = client.post("/api/import", data=record, headers=AUTH)
    assert again.status_code == 201, again.get_json()
    assert client.get("/api/state").get_json()["total"] == 10  # the replayed copy
    assert [g["current"] for g in client.get("/api/games").get_json()["games"]] == [False, True]


def test_village_is_still_the_default_game(client: FlaskClient) -> None:
    r = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert r.status_code == 201
    assert client.get("/api/legal").get_json()["actions"][0]["type"] == "virtual_draw"


def test_companion_replay_reads_the_toy_record(
    client: FlaskClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main

    new_toy(client)
    for n in (2, 1):
        play(client, n)
    path = tmp_path / "toy.jsonl"
    path.write_text(client.get("/api/export", headers=AUTH).get_data(as_text=True), "utf-8")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "count-to-ten, players red blue", "   1. Red adds 2: 2.", "   2. Blue adds 1: 3."]
    assert main(["replay", "--json", str(path)]) == 0
    assert '"total": 3' in capsys.readouterr().out
