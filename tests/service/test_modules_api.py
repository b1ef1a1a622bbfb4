"""``POST /api/games`` takes ``modules`` and ``goal_claims``; the private view lists what a
player may do at any moment; the public feed hides a goal deal."""

from __future__ import annotations

import json

from flask.testing import FlaskClient
from servicekit import AUTH


def test_a_game_with_modules(client: FlaskClient) -> None:
    r = client.post(
        "/api/games",
        json={"players": ["red", "blue"], "modules": ["life_goals", "port"], "goal_claims": "auto"},
        headers=AUTH,
    )
    assert r.status_code == 201, r.get_json()
    tokens = r.get_json()["players"]
    header = json.loads(
        client.get("/api/export", headers=AUTH).get_data(as_text=True).splitlines()[0]
    )
    assert header["expansions"] == ["port", "life_goals"] and header["goal_claims"] == "auto"
    state = client.get("/api/state").get_json()
    assert state["modules"] == ["port", "life_goals"]
    assert "port" in state and "life_goals" in state
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert mine["anytime"] == []  # nothing to claim or cash yet


def test_the_deal_is_private_on_the_feed(client: FlaskClient) -> None:
    client.post(
        "/api/games", json={"players": ["red", "blue"], "modules": ["life_goals"]}, headers=AUTH
    )
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)  # customers
    assert client.get("/api/state").get_json()["pending"]["kind"] == "deal_silver"
    r = client.post(
        "/api/actions",
        json={"type": "deal_goals", "tier": "silver", "hands": {"red": "writer", "blue": "farmer"}},
        headers=AUTH,
    )
    assert r.status_code == 200, r.get_json()
    log = json.dumps(client.get("/api/log").get_json()["entries"])
    assert "deal" in log and "writer" not in log and "farmer" not in log
    table = client.get("/api/state").get_json()
    assert "writer" not in json.dumps(table["life_goals"])


def test_bad_modules_are_400(client: FlaskClient) -> None:
    for body in (
        {"modules": ["inn"]},
        {"modules": "port"},
        {"modules": ["life_goals"], "goal_claims": "x"},
    ):
        r = client.post("/api/games", json={"players": ["red", "blue"], **body}, headers=AUTH)
        assert r.status_code == 400, body
        assert r.get_json()["code"] == "bad_modules"
    assert client.get("/api/games").get_json()["games"] == []
