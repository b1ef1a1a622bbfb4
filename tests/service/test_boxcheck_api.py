"""The box check over HTTP: answers are saved and used by the next game."""

from __future__ import annotations

import json
from pathlib import Path

from appkit import make_app
from flask.testing import FlaskClient

from web import runtime_of

TOKEN = "box-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _client(tmp_path: Path) -> FlaskClient:
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "box.json")
    return app.test_client()


def test_answers_need_the_token_are_validated_and_saved(tmp_path: Path) -> None:
    client = _client(tmp_path)
    rows = {r["key"]: r for r in client.get("/api/boxcheck").get_json()["values"]}
    assert rows["time_track.length"]["verified"] is False
    assert (
        client.post("/api/boxcheck", json={"key": "time_track.length", "value": 12}).status_code
        == 401
    )
    bad = client.post(
        "/api/boxcheck", json={"key": "time_track.length", "value": "long"}, headers=AUTH
    )
    assert bad.status_code == 422 and bad.get_json()["code"] == "bad_value"
    assert (
        client.post("/api/boxcheck", json={"key": "nope", "value": 1}, headers=AUTH).status_code
        == 422
    )
    ok = client.post("/api/boxcheck", json={"key": "time_track.length", "value": 12}, headers=AUTH)
    assert ok.status_code == 200
    assert (
        client.post(
            "/api/boxcheck", json={"key": "mass.grain_costs", "confirm": True}, headers=AUTH
        ).status_code
        == 200
    )
    saved = json.loads((tmp_path / "box.json").read_text())
    assert saved == {"time_track.length": 12, "mass.grain_costs": [1, 2, 4]}
    rows = {r["key"]: r for r in client.get("/api/boxcheck").get_json()["values"]}
    assert rows["time_track.length"]["verified"] and rows["time_track.length"]["value"] == 12


def test_a_new_game_uses_the_answers(tmp_path: Path) -> None:
    client = _client(tmp_path)
    client.post("/api/boxcheck", json={"key": "time_track.length", "value": 7}, headers=AUTH)
    assert (
        client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH).status_code
        == 201
    )
    state = client.get("/api/state").get_json()
    assert state["players"]["red"]["time_track"]["length"] == 7
    header = client.get("/api/export", headers=AUTH).get_data(as_text=True).splitlines()[0]
    assert json.loads(header)["data"]["time_track.length"] == 7
    # a restart keeps them
    again = make_app(db_path=tmp_path / "g2.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "box.json")
    assert runtime_of(again).boxes.overlay == {"time_track.length": 7}
    runtime_of(again).close()
