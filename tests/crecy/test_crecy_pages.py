"""Crecy's pages and the phone's own steps through the real app (Flask's test client, a
real SQLite file): the golden three-player game is played again, each draw only one
player sees and each option naming a hand card sent from that player's phone
(``/api/own``, their token), the rest from the table; after every action the public
state, the legal options, the table log and every message of the live feed carry no card
of a hand drawn in private, no mentor and no mission drawn; each phone's view carries its
own hand and mentor and nobody else's."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient

from companion.crecy import engine, phone, record
from web import runtime_of

TOKEN = "crecy-pages-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
GOLDEN = Path(__file__).parent / "golden" / "three-players.jsonl"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


MENTOR_FORM = {"main_count": "other", "main_per": 0, "main_plus": 0, "s1_count": "none",
               "s2_count": "none", "s3_count": "none"}
"""A mentor's form whose main objective the table counts (the golden record's counts)."""


def _golden() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The golden record, with each friend card's form answered on its owner's phone just
    before the card is played face up (as the phone does it: the form comes when the play
    is refused for an unknown card; the record answered some earlier), and each mentor's
    form answered on its owner's phone once it is dealt."""
    lines = [json.loads(line) for line in GOLDEN.read_text("utf-8").splitlines() if line]
    header, actions = lines[0], lines[1:]
    forms = {a["card"]: a for a in actions
             if a["type"] == "card_values" and a["card_type"] == "crecy.friend"}
    out: list[dict[str, Any]] = []
    for a in actions:
        if a["type"] == "card_values" and a["card_type"] == "crecy.friend":
            continue
        if a.get("friend") in forms and a["type"] in ("marry", "arrange"):
            out.append({**forms.pop(a["friend"]), "hand": a["player"]})
        out.append(a)
        if a["type"] == "mentor_dealt":
            out.append({"type": "card_values", "card_type": "crecy.mentor",
                        "card": a["mentor"], "values": MENTOR_FORM})
    return header, out


def _owner(st: Any, action: dict[str, Any]) -> str | None:
    """Who sends ``action`` from their phone (None: the table). A draw only one player
    sees, an option naming a card of a hand, a hand card's form."""
    kind = action["type"]
    mine = kind in phone.DRAWS or kind == "card_values" or kind in (
        "marry", "arrange", "discard", "swap", "keep_mission")
    return next((str(p.id) for p in st.players if mine and phone.owns(st, p.id, action)), None)


def _names_in(text: str, names: set[str]) -> list[str]:
    return [n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", text)]


def _start_like(client: FlaskClient, header: dict) -> Any:
    """A new Crecy game on the app with the golden record's players, families and house rules."""
    return client.post("/api/games", headers=AUTH, json={
        "game": "crecy", "players": header["players"], "first_player": header["first_player"],
        "options": {"families": header["families"], "house": header["house"]}})


def test_the_golden_game_through_table_and_phones_keeps_every_secret(app: Flask) -> None:
    client: FlaskClient = app.test_client()
    header, actions = _golden()
    feed: list[str] = []
    runtime_of(app).service.add_listener(lambda notice: feed.append(notice.data))
    r = _start_like(client, header)
    assert r.status_code == 201, r.get_json()
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in r.get_json()["players"].items()}
    st = record.start(header)
    private: set[str] = set()      # names only one player has seen, still secret
    from_phones = 0
    for i, action in enumerate(actions):
        who = _owner(st, action)
        if who is None:
            r = client.post("/api/actions", headers=AUTH, json=action)
        else:
            other = next(c for c in tokens if c != who)
            refused = client.post(f"/api/own?token={tokens[other]}",
                                  json={"player": other, "action": action})
            assert refused.status_code in (403, 422), (i, action, refused.get_json())
            r = client.post(f"/api/own?token={tokens[who]}",
                            json={"player": who, "action": action})
            from_phones += 1
        assert r.status_code == 200, (i, action, r.get_json())
        kind = action["type"]
        if kind == "friend_drawn" and action["to"] != "display":
            private.add(action["name"])
        if kind == "mentor_dealt":
            private.add(action["mentor"])
        if kind == "mission_drawn":
            private.add(action["name"])
        st = engine.apply(st, action)
        shown = {f for p in st.players for f in p.missions}  # kept missions are face up
        played = {m.spouse for p in st.players for m in p.family if m.spouse}
        if kind == "mentor_score":
            private.discard(st.player(action["player"]).mentor or "")  # turned up
        if engine.is_over(st):  # every mentor is turned up at the end (« Décompte final »)
            private -= {p.mentor or "" for p in st.players}
        secret = {n for n in private if n not in shown | played | set(st.friend_discard)
                  and n not in st.display}
        public = json.dumps(client.get("/api/state").get_json()) + json.dumps(
            client.get("/api/legal").get_json()) + json.dumps(
            client.get("/api/log?limit=3").get_json()) + json.dumps(
            client.get("/api/cards").get_json()["learned"]) + "".join(feed[-2:])
        assert not _names_in(public, secret), (i, action, _names_in(public, secret))
        for c, t in tokens.items():
            view = client.get(f"/api/state?viewer={c}&token={t}").get_json()
            others = {n for p in st.players if p.id != c for n in [*p.hand, p.mentor or ""]
                      if n in secret}
            assert not _names_in(json.dumps(view), others), (i, c)
            own = client.get(f"/api/own?player={c}&token={t}").get_json()
            assert not _names_in(json.dumps(own), others), (i, c)
            assert own["mentor"]["name"] == st.player(c).mentor
    assert from_phones > 40
    assert client.get("/api/state").get_json()["pending"]["kind"] == "over"
    whole = "".join(feed) + json.dumps(client.get("/api/log").get_json())
    mentors = {a["mentor"] for a in actions if a["type"] == "mentor_dealt"}
    assert not _names_in(whole, mentors)
    # turned up at the final count, the mentors are the box's from now on
    assert set(client.get("/api/cards").get_json()["learned"]["crecy.mentor"]) == mentors


def test_a_phone_needs_its_token_and_the_game_s_word(app: Flask) -> None:
    client = app.test_client()
    header, actions = _golden()
    r = _start_like(client, header)
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in r.get_json()["players"].items()}
    deal = {"type": "mentor_dealt", "player": "blue", "mentor": "Mentor X"}
    assert client.post("/api/own", json={"player": "blue", "action": deal}).status_code == 401
    for a in actions[:9]:                       # the box's questions: the table's
        assert client.post("/api/own?token=" + tokens["blue"],
                           json={"player": "blue", "action": a}).status_code == 403
        client.post("/api/actions", headers=AUTH, json=a)
    assert client.get("/api/state").get_json()["pending"] == {
        "kind": "mentor_deal", "player": None, "for": "blue"}
    assert client.post("/api/actions", headers=AUTH, json=deal).status_code == 200
    own = client.get(f"/api/own?player=blue&token={tokens['blue']}").get_json()
    assert own["actions"] == []


def test_the_pages_are_served(app: Flask) -> None:
    client = app.test_client()
    for path in ("/crecy", "/crecy/board", "/crecy/me/red", "/new"):
        page = client.get(path)
        assert page.status_code == 200, path
    new = client.get("/new").get_data(as_text=True)
    assert 'value="crecy"' in new
    # one player: the standard solo variant offered, « Généalogie » refused with its reason
    assert re.search(r'"counts":\s*\[1,\s*2,\s*3,\s*4\]', new)
    assert re.search(r'name="crecy_solo" value="standard"\s+checked', new)
    assert re.search(r'name="crecy_solo" value="genealogy"\s+disabled', new)
    assert "cartes Indice" in new
    assert client.get("/crecy/me/purple").status_code == 404


def test_the_mentor_s_count_is_on_its_owner_s_phone_only(app: Flask) -> None:
    """A mentor's form answered on its owner's phone: their ``/api/own`` counts it, the
    table's log, the live feed and the box's public cards name nothing; nobody else may
    send it; a hand card's form without ``hand`` (public) is not a phone's."""
    client = app.test_client()
    header, actions = _golden()
    feed: list[str] = []
    runtime_of(app).service.add_listener(lambda notice: feed.append(notice.data))
    r = _start_like(client, header)
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in r.get_json()["players"].items()}
    for a in actions:
        if a["type"] == "mentor_dealt" and a["player"] == "red":
            break
        if a["type"] == "card_values" and a["card_type"] == "crecy.mentor":
            continue
        assert client.post("/api/actions", headers=AUTH, json=a).status_code == 200, a
    client.post("/api/actions", headers=AUTH, json={
        "type": "mentor_dealt", "player": "red", "mentor": "John Law"})
    form = {"type": "card_values", "card_type": "crecy.mentor", "card": "John Law",
            "values": {**MENTOR_FORM, "main_count": "income", "main_per": 1, "main_plus": 1,
                       "s1_count": "gold", "s1_at_least": 8, "s1_honour": 4}}
    before = client.get(f"/api/own?player=red&token={tokens['red']}").get_json()["mentor"]
    assert before == {"name": "John Law", "known": False, "values": None, "count": None}
    assert client.post(f"/api/own?token={tokens['blue']}",
                       json={"player": "blue", "action": form}).status_code == 403
    r = client.post(f"/api/own?token={tokens['red']}", json={"player": "red", "action": form})
    assert r.status_code == 200 and r.get_json()["card_saved"] is False, r.get_json()
    mine = client.get(f"/api/own?player=red&token={tokens['red']}").get_json()["mentor"]
    red = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()["players"]
    income = next(p for p in red if p["id"] == "red")["income"]
    assert mine["known"] and mine["count"]["main"] == income + 1
    assert mine["count"]["secondary"][0]["words"] == "gold" and mine["count"]["best"] == []
    public = json.dumps(client.get("/api/log").get_json()) + "".join(feed) + json.dumps(
        client.get("/api/cards").get_json()["learned"]) + json.dumps(
        client.get("/api/state").get_json())
    assert "John Law" not in public and "crecy.mentor" not in json.dumps(
        client.get("/api/cards").get_json()["learned"])
    blue = client.get(f"/api/own?player=blue&token={tokens['blue']}").get_json()
    assert "John Law" not in json.dumps(blue)
