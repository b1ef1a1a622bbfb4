"""Crecy through the real app (Flask's test client, a real SQLite file, the box's learned
cards in a real file): a new game asks what is printed on its cards, the answers are kept
and not asked again in the next game; a hand stays on its owner's view; the record is
exported, imported and replayed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient

from web import runtime_of

TOKEN = "crecy-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
FAMILIES = {"red": {"head": "Rouge", "side": "matriarch"},
            "blue": {"head": "Bleu", "side": "patriarch"}}
HEAD = {"income": 2, "gold": 6, "friends": 3, "prestige": 0, "extra": "none"}
CARD = {"cost_gold": 3, "cost_friends": 1, "cost_income": 0, "income": 1, "prestige": 1,
        "honour": 0, "friends": 0}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def new_game(client: FlaskClient) -> Any:
    r = client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": ["red", "blue"], "options": {"families": FAMILIES}})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def pending(client: FlaskClient) -> dict[str, Any]:
    return client.get("/api/state").get_json()["pending"]  # type: ignore[no-any-return]


def act(client: FlaskClient, action: dict[str, Any]) -> Any:
    r = client.post("/api/actions", json=action, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def answer(q: dict[str, Any]) -> dict[str, Any]:
    kind, card = q["card_type"], q["card"]
    if kind == "crecy.head":
        values = HEAD
    elif kind == "crecy.generation":
        values = {f"{w}_{i}": q["known"].get(f"{w}_{i}") or f"{w} {card}.{i}"
                  for w in ("title", "contribution") for i in (1, 2, 3)}
    else:
        values = {**CARD, **q["known"]}
    return {"type": "card_values", "card_type": kind, "card": card, "values": values}


def test_cards_are_asked_once_kept_in_the_box_and_the_record_replays(
        app: Flask, client: FlaskClient) -> None:
    new_game(client)
    asked = []
    while (p := pending(client))["kind"] == "learn":
        q = p["question"]
        asked.append((q["card_type"], q["card"]))
        if q["card_type"] == "crecy.generation":
            assert q["known"] == {"title_1": "Comte"} and "seed 002" in q["source"]
        bad = client.post("/api/actions", headers=AUTH, json={
            **answer(q), "values": {"nonsense": 1}})
        assert bad.status_code == 400 and bad.get_json()["code"] == "bad_card_values"
        assert act(client, answer(q))["card_saved"] is True
    assert ("crecy.head", "Rouge/matriarch") in asked and ("crecy.title", "Comte") not in asked
    assert len(asked) == 2 + 1 + 5  # two heads, generation I, its cards but the Comte (seed)
    saved = json.loads(runtime_of(app).cards.path.read_text("utf-8"))  # type: ignore[union-attr]
    assert saved["crecy.head"]["Bleu/patriarch"] == HEAD

    assert pending(client)["kind"] == "mentor_deal"
    act(client, {"type": "mentor_dealt", "player": "red", "mentor": "John Law"})
    act(client, {"type": "mentor_dealt", "player": "blue", "mentor": "Mentor B"})
    for i in range(5):
        act(client, {"type": "friend_drawn", "name": f"Display {i}", "to": "display"})
    for who in ("red", "blue"):
        for i in range(3):
            act(client, {"type": "friend_drawn", "name": f"{who.capitalize()} card {i}",
                         "to": who})
        act(client, {"type": "keep_hand", "player": who, "redraw": False})
    state = client.get("/api/state").get_json()
    assert state["pending"]["kind"] == "turn" and state["players"][0]["gold"] == 6
    public = json.dumps(state) + json.dumps(client.get("/api/log").get_json())
    assert "Red card" not in public and "John Law" not in public
    tokens = client.get("/api/tokens", headers=AUTH).get_json()
    assert tokens
    red_token = _token(tokens, "red")
    mine = client.get(f"/api/state?viewer=red&token={red_token}").get_json()
    red = mine["players"][0]
    assert red["hand"] == ["Red card 0", "Red card 1", "Red card 2"]
    assert red["mentor"] == "John Law" and "hand" not in mine["players"][1]

    act(client, {"type": "ask_money", "gold": 2})   # partial: resolved
    record = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    assert record.splitlines()[0].startswith('{"game":"crecy"')
    again = client.post("/api/import", data=record, headers=AUTH)
    assert again.status_code == 201, again.get_json()
    assert client.get("/api/state").get_json()["players"][0]["gold"] == 8

    new_game(client)                                # a second game: the box knows its cards
    assert pending(client)["kind"] == "mentor_deal"


def _token(tokens: Any, player: str) -> str:
    for key in ("players", "tokens"):
        if isinstance(tokens, dict) and key in tokens:
            tokens = tokens[key]
    if isinstance(tokens, dict):
        value = tokens[player]
        return value if isinstance(value, str) else str(value.get("token"))
    return str(next(t["token"] for t in tokens if t.get("player") == player))


def test_learned_cards_are_listed_corrected_and_forgotten(client: FlaskClient) -> None:
    doc = client.get("/api/cards").get_json()
    assert doc["learned"] == {} and "crecy.friend" in doc["types"]
    friend = {"sex": "female", "nationality": "French", "activity": "artist", "gold": 1,
              "income": 0, "friends": 1, "prestige": 1, "effect": "none"}
    r = client.post("/api/cards", json={"card_type": "crecy.friend", "card": "Lucie",
                                        "values": friend})
    assert r.status_code == 401                     # the table's token is needed
    r = client.post("/api/cards", headers=AUTH, json={
        "card_type": "crecy.friend", "card": "Lucie", "values": {**friend, "sex": "x"}})
    assert r.status_code == 400 and "Sex" in r.get_json()["message"]
    r = client.post("/api/cards", headers=AUTH, json={
        "card_type": "crecy.friend", "card": "Lucie", "values": friend})
    assert r.get_json()["learned"]["crecy.friend"]["Lucie"]["prestige"] == 1
    r = client.post("/api/cards", headers=AUTH, json={
        "card_type": "crecy.friend", "card": "Lucie", "forget": True})
    assert r.get_json()["learned"] == {}
    r = client.post("/api/cards", headers=AUTH, json={
        "card_type": "crecy.friend", "card": "Lucie", "forget": True})
    assert r.status_code == 404


def test_the_box_check_page_lists_learned_cards(client: FlaskClient) -> None:
    assert "No card learned yet" in client.get("/boxcheck").get_data(as_text=True)
    client.post("/api/cards", headers=AUTH, json={
        "card_type": "crecy.head", "card": "Rouge/matriarch", "values": HEAD})
    page = client.get("/boxcheck").get_data(as_text=True)
    assert 'data-card="Rouge/matriarch"' in page and "Forget this card" in page
    assert 'data-name="gold" data-int="1" value="6"' in page


def test_options_are_for_another_game_only(client: FlaskClient) -> None:
    r = client.post("/api/games", headers=AUTH, json={
        "players": ["red", "blue"], "options": {"families": FAMILIES}})
    assert r.status_code == 400 and r.get_json()["code"] == "unknown_fields"
    r = client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": ["red", "blue"], "options": {"heads": {}}})
    assert r.status_code == 400 and "heads" in r.get_json()["message"]
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize("options", [
    {"families": "red"}, {"families": {"red": {"head": "R"}}}, {"house": ["x"]},
    {"house": {"extinction_in_generation_3": "no"}}, {"house": {"moon": True}},
    {"cards": {"crecy.friend": {"Ann": {"sex": "?"}}}}, {"cards": "all"},
])
def test_bad_options_are_refused_clearly(client: FlaskClient, options: dict[str, Any]) -> None:
    r = client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": ["red", "blue"], "options": options})
    assert r.status_code == 400, r.get_json()


def test_a_solo_game_and_genealogy_refused(client: FlaskClient) -> None:
    """One player: the standard solo variant; « Généalogie » refused, its reason said."""
    r = client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": ["red"], "options": {"solo": "genealogy"}})
    assert r.status_code == 400 and "clue cards" in json.dumps(r.get_json(),
                                                                ensure_ascii=False)
    r = client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": ["red"],
        "options": {"families": {"red": FAMILIES["red"]}}})
    assert r.status_code == 201, r.get_json()
    assert pending(client)["kind"] == "learn"
