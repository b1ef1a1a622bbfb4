"""The green-bag page's data: the round's real draw (``board.round_fill``) and where it came
from (``/api/draws`` ``latest``: the server's virtual bag or a hand draw), also after undo."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

import companion.village as v
from companion import bags
from web import table_service

TOKEN = "pages-test-token"  # the conftest's app token
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def post(client: FlaskClient, action: dict[str, Any]) -> int:
    r = client.post("/api/actions", json=action, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return int(r.get_json()["seq"])


def hand_fill(app: Flask, seed: str = "hand") -> dict[str, Any]:
    """A fill_bag the real bag could have produced (what a table enters by hand)."""
    return bags.draw_action(v.chance_spec(table_service(app).state()), seed)


@pytest.fixture
def at_fill(client: FlaskClient) -> FlaskClient:
    """A 2-player game waiting for round 1's green bag (customers turned up)."""
    r = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert r.status_code == 201
    post(client, {"type": "virtual_draw"})
    assert client.get("/api/state").get_json()["pending"]["kind"] == "fill_bag"
    return client


def test_virtual_fill_is_the_rounds_fill(at_fill: FlaskClient) -> None:
    seq = post(at_fill, {"type": "virtual_draw"})
    st = at_fill.get("/api/state").get_json()
    body = at_fill.get("/api/draws").get_json()
    assert body["latest"]["fill_bag"] == {"seq": seq, "source": "virtual_bag", "virtual": True}
    assert body["latest"]["reveal_customers"]["virtual"] is True
    assert "mass_draw" not in body["latest"]
    draw = next(d for d in body["draws"] if d["seq"] == seq)
    # the placement the page shows is exactly the stored draw
    placed = {
        s: {c: n for c, n in cubes.items() if n} for s, cubes in st["board"]["round_fill"].items()
    }
    assert placed == draw["action"]["spaces"]
    assert sum(sum(c.values()) for c in placed.values()) > 0


def test_hand_fill_is_marked_by_hand(app: Flask, at_fill: FlaskClient) -> None:
    action = hand_fill(app)
    seq = post(at_fill, action)
    body = at_fill.get("/api/draws").get_json()
    assert body["latest"]["fill_bag"] == {"seq": seq, "source": "tablet", "virtual": False}
    assert [d["kind"] for d in body["draws"]] == ["reveal_customers"], "no seed for a hand draw"
    fill = at_fill.get("/api/state").get_json()["board"]["round_fill"]
    assert {s: {c: n for c, n in cubes.items() if n} for s, cubes in fill.items()} == {
        s: {c: n for c, n in cubes.items() if n} for s, cubes in action["spaces"].items()
    }


def test_undone_virtual_draw_is_not_the_rounds_fill(app: Flask, at_fill: FlaskClient) -> None:
    virtual = post(at_fill, {"type": "virtual_draw"})
    r = at_fill.post("/api/undo", headers=AUTH)
    assert r.status_code == 200
    assert "fill_bag" not in at_fill.get("/api/draws").get_json()["latest"]
    hand = post(at_fill, hand_fill(app, "after-undo"))
    body = at_fill.get("/api/draws").get_json()
    assert body["latest"]["fill_bag"]["seq"] == hand != virtual
    assert body["latest"]["fill_bag"]["virtual"] is False
    # the undone virtual draw stays listed (the log keeps it) but is not the latest
    assert any(d["seq"] == virtual for d in body["draws"])


def test_latest_needs_a_game(client: FlaskClient) -> None:
    r = client.get("/api/draws")
    assert r.status_code == 404
    assert r.get_json()["code"] == "no_game"
    client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert client.get("/api/draws?game=99").status_code == 404
    assert client.get("/api/draws").get_json() == {"draws": [], "latest": {}}


def test_bag_script_reads_the_rounds_fill(client: FlaskClient) -> None:
    """The page's module draws the placement from the state's round_fill and the latest
    fill_bag (not from a guess at the last virtual draw)."""
    with client.get("/static/bag.js") as r:
        js = r.get_data(as_text=True)
    assert "round_fill" in js and 'latestDraw("fill_bag")' in js
    assert "drawn by hand" in js
