"""Colonia through the real app (Flask's test client, a real SQLite file): created with the
box's learned cards, the box asked for what it lacks and keeping the answer, cards turned
up by hand, the stalls drawn virtually with a commitment, Tuesday's family cards and a vote
answered on three phones, the day's loop, export and import."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from colonia_kit import TEST_SHEET, learned
from flask import Flask
from flask.testing import FlaskClient

from web import runtime_of, table_service

TOKEN = "colonia-table"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["red", "blue", "green"]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def post(client: FlaskClient, action: dict[str, Any], status: int = 200) -> Any:
    r = client.post("/api/actions", json=action, headers=AUTH)
    assert r.status_code == status, r.get_json()
    return r.get_json()


def state(client: FlaskClient, viewer: str = "table", token: str = "") -> Any:
    q = f"?viewer={viewer}&token={token}" if token else ""
    return client.get(f"/api/state{q}").get_json()


def test_the_box_asks_for_the_setup_sheet_once_and_keeps_it(client: FlaskClient) -> None:
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    st = state(client)
    assert st["pending"]["kind"] == "card_values"
    assert st["pending"]["question"]["question"] == "What is printed on the setup sheet 3 players?"
    bad = post(client, {"type": "card_values", "card_type": "colonia.setup", "card": "3 players",
                        "values": {**TEST_SHEET, "members": 0}}, 400)
    assert "members" in bad["message"].lower() or "Family members" in bad["message"]
    saved = post(client, {"type": "card_values", "card_type": "colonia.setup",
                          "card": "3 players", "values": TEST_SHEET})
    assert saved["card_saved"] is True
    assert state(client)["pending"]["kind"] == "ship"
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS}, headers=AUTH)
    assert state(client)["pending"]["kind"] == "ship"  # the next game is not asked again


def test_a_week_begins_at_the_table_and_on_the_phones(app: Flask, client: FlaskClient) -> None:
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS,
                                        "options": {"cards": learned(3)}}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    tokens = {c: t if isinstance(t, str) else t["token"]
              for c, t in r.get_json()["players"].items()}
    for i in range(1, 5):
        post(client, {"type": "reveal", "deck": "ship", "card": f"S{i}"})
    for i in range(1, 11):
        post(client, {"type": "reveal", "deck": "relic", "card": f"R{i}"})
    refused = post(client, {"type": "reveal", "deck": "relic", "card": "R11"}, 422)
    assert "does not wait for a relic" in refused["message"]
    post(client, {"type": "reveal", "deck": "week", "card": "W1"})
    legal = client.get("/api/legal").get_json()
    assert legal["actions"][0]["type"] == "virtual_draw"  # the bag, with its commitment
    post(client, {"type": "virtual_draw"})
    st = state(client)
    assert [sum(s["materials"].values()) for s in st["stalls"]] == [4, 3, 3, 2]
    for i in (1, 2, 3):
        post(client, {"type": "reveal", "deck": "decree", "card": f"D{i}"})

    st = state(client)
    assert st["pending"]["kind"] == "sealed" and st["sealed"]["waiting"] == PLAYERS
    mine = state(client, "red", tokens["red"])["my_sealed"]
    assert mine["options"] == [3, 4, 5, 6, 7, 8]
    spectator = table_service(app).subscribe()
    for color, card in (("red", 5), ("blue", 7)):
        r = client.post("/api/answer", json={"player": color, "answer": card},
                        headers={"Authorization": f"Bearer {tokens[color]}"})
        assert r.status_code == 200 and r.get_json()["sealed"] is True
    st = state(client)
    assert [p["card"] for p in st["players"]] == [None, None, None]  # nothing shows yet
    heard = [n for n in iter(lambda: spectator.get(timeout=0.2), None)]
    assert [n.event for n in heard] == ["sealed", "sealed"]  # who answered, no card
    assert all(set(json.loads(n.data)) == {"kind", "key", "question", "players", "answered",
                                           "waiting"} for n in heard)
    assert st["sealed"]["waiting"] == ["green"]
    r = client.post("/api/answer", json={"player": "green", "answer": 3},
                    headers={"Authorization": f"Bearer {tokens['green']}"})
    assert r.get_json()["sealed"] is False
    st = state(client)
    assert st["order"] == ["blue", "red", "green"] and st["mayor"] == "blue"
    assert [p["card"] for p in st["players"]] == [5, 7, 3]
    log = client.get("/api/log").get_json()["entries"][-1]["narration"]
    assert log[0].startswith("Family cards turned up: Red 5, Blue 7 and Green 3.")

    # Wednesday: D3 (day 3) is voted on the phones, then the market
    assert st["pending"]["kind"] == "sealed" and st["pending"]["choice"] == "vote"
    for color, vote in (("red", "yes"), ("blue", "no"), ("green", "yes")):
        client.post("/api/answer", json={"player": color, "answer": vote},
                    headers={"Authorization": f"Bearer {tokens[color]}"})
    st = state(client)
    assert [d["adopted"] for d in st["decrees"] if d["name"] == "D3"] == [True]  # 8 to 7
    assert st["pending"] == {"kind": "turn", "player": "blue", "week": 1, "day": "wednesday",
                             "step": "market"}
    post(client, {"type": "buy_stall", "stall": 1})  # partial: the player is completed
    blue = state(client, "blue", tokens["blue"])
    assert sum(blue["screen"]["materials"].values()) == 4
    assert "screen" not in state(client)  # behind the screen: not on the table's view
    assert "screen" not in state(client, "red", tokens["red"])["players"][1]

    record = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    assert record.splitlines()[0].startswith('{"cards":') or '"game":"colonia"' in record
    again = client.post("/api/import", data=record, headers=AUTH)
    assert again.status_code == 201, again.get_json()
    assert state(client)["order"] == ["blue", "red", "green"]
    assert table_service(app).header()["game"] == "colonia"


def test_house_rules_given_in_the_options_are_played(client: FlaskClient) -> None:
    """``options.house_rules`` reaches the header (it was once taken by Village's keyword
    and dropped), and an unknown one is refused."""
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS, "options": {
        "house_rules": {"good_roll_six_again": True}}}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    assert state(client)["house_rules"] == ["good_roll_six_again"]
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS, "options": {
        "house_rules": {"six": True}}}, headers=AUTH)
    assert r.status_code == 400 and "house rules" in r.get_json()["message"]


def test_two_materials_each_are_drawn_behind_the_screens(app: Flask,
                                                         client: FlaskClient) -> None:
    """The decree's private draw through the real app: the state, the log and the draws'
    list (all public) say how many each drew and never which, the draw's seed is withheld,
    each player's own view shows their materials. The table plays a seeded random game
    (every decree is this one, on Thursday) until the decree is adopted."""
    import random

    from companion.colonia.game import GAME
    from companion.colonia.vocabulary import MATERIALS
    from companion.sim.colonia_games import pick

    box = learned(3)
    box["colonia.decree"] = {f"D{i}": {"day": 4, "text": "invented",
                                       "effect": "two_materials_each"} for i in range(1, 19)}
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS,
                                        "options": {"cards": box}}, headers=AUTH)
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in r.get_json()["players"].items()}
    svc, rng, named = table_service(app), random.Random(5), {}  # type: ignore[var-annotated]
    for _ in range(3000):
        st = svc.state()
        if st.step == "private_materials":
            break
        if st.step == "vote":
            choice = GAME.sealed_choice(st)
            assert choice is not None
            post(client, choice.action(dict.fromkeys(choice.players, "yes")))
        elif GAME.chance_spec(st) is not None:
            post(client, {"type": "virtual_draw"})
        else:
            post(client, pick(st, rng, named))
    else:
        pytest.fail("the decree was never voted")
    before = {c: state(client, c, tokens[c])["screen"]["materials"] for c in PLAYERS}
    spectator = svc.subscribe()
    done = post(client, {"type": "virtual_draw"})
    seq = done["seq"]
    heard = [json.loads(n.data) for n in iter(lambda: spectator.get(timeout=0.2), None)
             if n.event is None]  # the stored event, as every spectator gets it
    assert heard and heard[0]["action"] == {"type": "draw_materials",
                                            "drawn": dict.fromkeys(PLAYERS, 2)}
    assert not any(m in json.dumps(heard[0]["narration"]).lower() for m in MATERIALS)
    assert heard[0]["draw"]["withheld"] is True and "seed" not in heard[0]["draw"]
    assert heard[0]["state"] is None or heard[0]["state"]["bag"] is None
    public = state(client)
    assert public["bag"] is None and public["bag_unseen"] == 6
    entry = next(e for e in client.get("/api/log").get_json()["entries"] if e["seq"] == seq)
    told = json.dumps(entry).lower()
    assert "behind the screens" in told and not any(m in told for m in MATERIALS)
    draw = next(d for d in client.get("/api/draws").get_json()["draws"] if d["seq"] == seq)
    assert draw["withheld"] is True and "seed" not in draw
    assert draw["action"] == {"type": "draw_materials", "drawn": dict.fromkeys(PLAYERS, 2)}
    for c in PLAYERS:
        mine = state(client, c, tokens[c])
        gained = sum(mine["screen"]["materials"].values()) - sum(before[c].values())
        assert gained == 2, c
        others = [state(client, o, tokens[o]) for o in PLAYERS if o != c]
        assert all("screen" not in p for o in others for p in o["players"])
