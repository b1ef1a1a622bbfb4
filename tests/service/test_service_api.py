"""The JSON API through Flask's test client, on a real SQLite file and the real engine."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient
from servicekit import AUTH, TOKEN, play_to_end

import companion.village as v
from companion import bags
from companion.table import TableService
from web import runtime_of, table_service


def legal(client: FlaskClient) -> list[dict[str, Any]]:
    r = client.get("/api/legal")
    assert r.status_code == 200
    actions: list[dict[str, Any]] = r.get_json()["actions"]
    return actions


def post(client: FlaskClient, action: Any, **kw: Any) -> Any:
    return client.post("/api/actions", json=action, headers=AUTH, **kw)


def first_decision(client: FlaskClient) -> None:
    """Draw until the game waits for a person."""
    while (actions := legal(client)) and actions[0]["type"] == "virtual_draw":
        assert post(client, actions[0]).status_code == 200


# -- no game, games ----------------------------------------------------------------------


def test_state_without_a_game_is_404(client: FlaskClient) -> None:
    r = client.get("/api/state")
    assert r.status_code == 404
    assert r.get_json()["code"] == "no_game"
    assert client.get("/api/legal").status_code == 404
    assert post(client, {"type": "virtual_draw"}).status_code == 404


def test_new_game_needs_the_table_token(client: FlaskClient) -> None:
    body = {"players": ["red", "blue"]}
    assert client.post("/api/games", json=body).status_code == 401
    r = client.post("/api/games", json=body, headers={"Authorization": "Bearer wrong"})
    assert r.status_code == 401
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/api/games").get_json()["games"] == []


@pytest.mark.parametrize(
    "body",
    [
        {"players": ["red", "red"]},
        {"players": ["red", "green"]},
        {"players": "red"},
        {"players": ["red", "blue"], "first_player": "yellow"},
        {"players": ["red", "blue"], "first_player": 3},
        {},
        [],
    ],
)
def test_bad_new_game_is_400(client: FlaskClient, body: Any) -> None:
    r = client.post("/api/games", json=body, headers=AUTH)
    assert r.status_code == 400, r.get_json()
    assert client.get("/api/games").get_json()["games"] == []


def test_new_game_state_and_games(client: FlaskClient, game: int) -> None:
    state = client.get("/api/state").get_json()
    assert state["game_id"] == game
    assert state["seq"] == 0
    assert state["seats"] == ["red", "blue"]
    assert state["pending"]["kind"] == "reveal_customers"
    games = client.get("/api/games").get_json()
    assert games["current"] == game
    assert [(g["id"], g["players"], g["current"]) for g in games["games"]] == [
        (game, ["red", "blue"], True)
    ]


def test_second_game_becomes_current_and_select_switches_back(client: FlaskClient) -> None:
    one = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    two = client.post(
        "/api/games",
        json={"players": ["white", "yellow", "blue"], "first_player": "blue"},
        headers=AUTH,
    )
    assert client.get("/api/state").get_json()["first_player"] == "blue"
    first_id = one.get_json()["game_id"]
    assert two.get_json()["game_id"] == first_id + 1
    assert client.post(f"/api/games/{first_id}/select").status_code == 401
    assert client.post(f"/api/games/{first_id}/select", headers=AUTH).status_code == 200
    assert client.get("/api/state").get_json()["seats"] == ["red", "blue"]
    assert client.post("/api/games/999/select", headers=AUTH).status_code == 404


# -- actions -----------------------------------------------------------------------------


def test_legal_offers_one_virtual_draw_at_a_chance_point(client: FlaskClient, game: int) -> None:
    body = client.get("/api/legal").get_json()
    assert body["pending"]["kind"] == "reveal_customers"
    [offer] = body["actions"]
    assert offer["type"] == "virtual_draw"
    assert offer["draw"] == "reveal_customers"
    assert len(offer["commitment"]) == 64
    assert client.get("/api/state").get_json()["draw"] == offer


def test_post_action_returns_seq_and_changes_state(client: FlaskClient, game: int) -> None:
    first_decision(client)
    before = client.get("/api/state").get_json()
    action = legal(client)[0]
    r = post(client, action)
    assert r.status_code == 200
    assert r.get_json() == {"game_id": game, "seq": before["seq"] + 1}
    after = client.get("/api/state").get_json()
    assert after["seq"] == before["seq"] + 1
    assert after != before


@pytest.mark.parametrize(
    ("headers", "status"),
    [({}, 401), ({"Authorization": "Bearer nope"}, 401), ({"Authorization": TOKEN}, 401)],
)
def test_post_action_needs_the_table_token(
    client: FlaskClient, game: int, headers: dict[str, str], status: int
) -> None:
    r = client.post("/api/actions", json={"type": "virtual_draw"}, headers=headers)
    assert r.status_code == status
    assert r.get_json()["code"] == "unauthorized"
    assert client.get("/api/state").get_json()["seq"] == 0


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{", "bad_json"),
        (b"", "bad_json"),
        (b"\xff\xfe", "bad_json"),
        (b"NaN", "bad_json"),
        (b"[1, 2]", "malformed"),
        (b'"pass"', "malformed"),
        (b'{"type": "no-such-thing"}', "malformed"),
        (b'{"type": 3}', "malformed"),
        (b'{"no": "type"}', "malformed"),
        (b'{"type": "pass", "player": "red", "extra": 1}', "malformed"),
        (b'{"type": "pass", "player": "purple"}', "malformed"),
        (b'{"type": "fill_bag", "spaces": 5}', "malformed"),
        (b'{"type": "reveal_customers", "tiles": {"0": "c01"}, "_draw": {}}', "malformed"),
        (b"[" * 100_000 + b"]" * 100_000, "bad_json"),
    ],
)
def test_malformed_is_400_and_state_untouched(
    client: FlaskClient, game: int, body: bytes, code: str
) -> None:
    first_decision(client)
    before = client.get("/api/state").get_json()
    r = client.post("/api/actions", data=body, headers={**AUTH, "Content-Type": "application/json"})
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["code"] == code
    assert client.get("/api/state").get_json() == before


def test_illegal_is_422_with_rule_and_state_untouched(client: FlaskClient, game: int) -> None:
    first_decision(client)
    before = client.get("/api/state").get_json()
    waiting = before["pending"]["player"]
    other = "blue" if waiting == "red" else "red"
    r = post(client, {"type": "pass", "player": other})
    assert r.status_code == 422
    err = r.get_json()
    assert err["error"] == "IllegalAction"
    assert err["code"] == "not_your_turn"
    assert other in err["message"] and waiting in err["message"]
    assert client.get("/api/state").get_json() == before
    # A hand draw while the game waits for a decision is illegal too.
    r = post(client, {"type": "mass_draw", "figures": []})
    assert r.status_code == 422
    assert r.get_json()["code"] == "not_a_chance_point"
    assert client.get("/api/state").get_json() == before


def test_virtual_draw_when_no_draw_is_due_is_422(client: FlaskClient, game: int) -> None:
    first_decision(client)
    before = client.get("/api/state").get_json()
    r = post(client, {"type": "virtual_draw"})
    assert r.status_code == 422
    assert r.get_json()["code"] == "no_draw_pending"
    assert client.get("/api/state").get_json() == before


def test_stale_commitment_and_stale_seq_are_409(client: FlaskClient, game: int) -> None:
    r = post(client, {"type": "virtual_draw", "commitment": "0" * 64})
    assert r.status_code == 409
    assert r.get_json()["code"] == "stale_commitment"
    r = post(client, {"type": "virtual_draw"}, query_string={"expected_seq": 5})
    assert r.status_code == 409
    assert r.get_json()["code"] == "stale_seq"
    r = post(client, {"type": "virtual_draw"}, query_string={"expected_seq": "x"})
    assert r.status_code == 400
    assert client.get("/api/state").get_json()["seq"] == 0
    r = post(client, {"type": "virtual_draw"}, query_string={"expected_seq": 0})
    assert r.status_code == 200


def test_hand_draw_is_a_plain_post(client: FlaskClient, service: TableService, game: int) -> None:
    spec = v.chance_spec(service.state())
    assert spec is not None and spec.kind == "reveal_customers"
    hand = bags.draw_action(spec, "drawn by hand")
    r = post(client, hand)
    assert r.status_code == 200
    [event] = service.store.events(game)
    assert event.source == "tablet"
    assert event.payload == hand
    state = client.get("/api/state").get_json()
    assert state["pending"]["kind"] == "fill_bag"
    assert client.get("/api/draws").get_json()["draws"] == []


def test_partial_action_is_completed_or_ambiguous(
    client: FlaskClient, service: TableService, game: int
) -> None:
    first_decision(client)
    options = legal(client)
    by_type: dict[str, list[dict[str, Any]]] = {}
    for a in options:
        by_type.setdefault(a["type"], []).append(a)
    single = next((t for t, opts in by_type.items() if len(opts) == 1 and len(opts[0]) > 2), None)
    several = next((t for t, opts in by_type.items() if len(opts) > 1), None)
    if several is not None:
        before = client.get("/api/state").get_json()
        r = post(client, {"type": several})
        assert r.status_code == 422
        body = r.get_json()
        assert body["code"] == "ambiguous"
        assert sorted(map(json.dumps, body["options"])) == sorted(map(json.dumps, by_type[several]))
        assert client.get("/api/state").get_json() == before
    if single is not None:
        full = by_type[single][0]
        r = post(client, {"type": single, "player": full["player"]})
        assert r.status_code == 200
        assert service.store.events(game)[-1].payload == full
    assert several is not None or single is not None


# -- a whole game, draws, undo -----------------------------------------------------------


def test_whole_game_by_posting_legal_entries(
    client: FlaskClient, service: TableService, game: int
) -> None:
    rng = random.Random(3)
    seen_digests: list[str] = []

    def post_ok(action: dict[str, Any]) -> None:
        if action["type"] == "virtual_draw":
            seen_digests.append(action["commitment"])
        r = post(client, action)
        assert r.status_code == 200, (action, r.get_json())

    n = play_to_end(post_ok, lambda: legal(client), rng)
    state = client.get("/api/state").get_json()
    assert state["over"] is True
    assert state["winner"]
    assert state["seq"] == n
    draws = client.get("/api/draws").get_json()["draws"]
    assert [d["digest"] for d in draws] == seen_digests
    assert {d["kind"] for d in draws} == {"reveal_customers", "fill_bag", "mass_draw"}
    # Every draw is verifiable: the seed hashes to the digest shown before, and redoing
    # the draw from the seed on the state before it gives the same outcome.
    header = service.header()
    actions = [e.payload for e in service.store.events(game)]
    st = v.start(header)
    by_seq = {d["seq"]: d for d in draws}
    for seq, payload in enumerate(actions, start=1):
        clean = {k: x for k, x in payload.items() if k != "_draw"}
        if seq in by_seq:
            d = by_seq[seq]
            assert hashlib.sha256(d["seed"].encode()).hexdigest() == d["digest"]
            spec = v.chance_spec(st)
            assert spec is not None
            assert bags.draw_action(spec, d["seed"]) == clean == d["action"]
        st = v.apply(st, clean)
    assert v.summary(st) == v.summary(service.state())
    assert legal(client) == []


def test_undo_reverts_the_last_action(
    client: FlaskClient, service: TableService, game: int
) -> None:
    assert client.post("/api/undo").status_code == 401
    r = client.post("/api/undo", headers=AUTH)
    assert r.status_code == 422
    assert r.get_json()["code"] == "nothing_to_undo"
    first_decision(client)
    before = client.get("/api/state").get_json()
    assert post(client, legal(client)[0]).status_code == 200
    r = client.post("/api/undo", headers=AUTH)
    assert r.status_code == 200
    after = client.get("/api/state").get_json()
    assert r.get_json()["seq"] == after["seq"] == before["seq"] + 2
    strip = {"seq", "draw"}
    assert {k: x for k, x in after.items() if k not in strip} == {
        k: x for k, x in before.items() if k not in strip
    }
    assert service.store.events(game)[-1].kind == "revert"


def test_undo_of_a_virtual_draw_offers_a_fresh_commitment(client: FlaskClient, game: int) -> None:
    offer = legal(client)[0]
    assert post(client, offer).status_code == 200
    assert client.post("/api/undo", headers=AUTH).status_code == 200
    again = legal(client)[0]
    assert again["type"] == "virtual_draw"
    assert again["commitment"] != offer["commitment"]


# -- records -----------------------------------------------------------------------------


def test_export_import_round_trip(client: FlaskClient, service: TableService, game: int) -> None:
    rng = random.Random(11)
    for _ in range(60):
        assert post(client, rng.choice(legal(client))).status_code == 200
    client.post("/api/undo", headers=AUTH)
    assert client.get("/api/export").status_code == 401  # it tells who served which customer
    r = client.get("/api/export", headers=AUTH)
    assert r.status_code == 200
    assert r.mimetype == "application/x-ndjson"
    text = r.get_data(as_text=True)
    lines = text.splitlines()
    assert json.loads(lines[0])["players"] == ["red", "blue"]
    assert all("_draw" not in json.loads(line) for line in lines)
    header = json.loads(lines[0])
    replayed = v.replay(header, [json.loads(line) for line in lines[1:]])
    original = v.summary(service.state())
    assert v.summary(replayed) == original

    assert client.post("/api/import", data=text).status_code == 401
    r = client.post("/api/import", data=text, headers=AUTH)
    assert r.status_code == 201
    new_id = r.get_json()["game_id"]
    assert new_id != game
    assert service.current_game_id == new_id
    assert v.summary(service.state()) == original
    assert client.get("/api/export", headers=AUTH).get_data(as_text=True) == text
    exported = client.get("/api/export", query_string={"game": game}, headers=AUTH)
    assert exported.get_data(as_text=True) == text


@pytest.mark.parametrize(
    ("record", "status"),
    [
        (b"", 400),
        (b"not json\n", 400),
        (b'{"game": "chess"}\n', 422),
        (b'{"game": "village", "version": 1, "players": ["red", "blue"]}\n{"type": "x"}\n', 422),
        (b"\xff\n", 400),
    ],
)
def test_bad_import_stores_nothing(
    client: FlaskClient, service: TableService, game: int, record: bytes, status: int
) -> None:
    r = client.post("/api/import", data=record, headers=AUTH)
    assert r.status_code == status, r.get_json()
    assert [g.id for g in service.store.games()] == [game]
    assert service.current_game_id == game


# -- private views, tokens ---------------------------------------------------------------


def _play_until_someone_has_customers(client: FlaskClient, service: TableService) -> str:
    # the virtual draws differ from run to run, so a random game may end before anyone
    # serves a customer: then a new game is started (at most 10)
    rng = random.Random(5)
    for _ in range(10):
        for _ in range(3000):
            st = v.summary(service.state())
            for color, p in st["players"].items():
                if p["customers"]:
                    return str(color)
            actions = legal(client)
            if not actions:
                break
            serve = [a for a in actions if a["type"] == "serve"]
            post(client, serve[0] if serve else rng.choice(actions))
        service.new_game(["red", "blue"])
    raise AssertionError("nobody served a customer in 10 games")


def test_private_view_needs_the_players_token(
    client: FlaskClient, service: TableService, game: int
) -> None:
    holder = _play_until_someone_has_customers(client, service)
    other = "blue" if holder == "red" else "red"
    assert client.get("/api/tokens").status_code == 401
    tokens = client.get("/api/tokens", headers=AUTH).get_json()["players"]
    assert set(tokens) == {"red", "blue"}
    mine = tokens[holder]["token"]
    full = v.summary(service.state())["players"][holder]["customers"]

    private = client.get("/api/state", query_string={"viewer": holder, "token": mine})
    assert private.status_code == 200
    assert private.get_json()["players"][holder]["customers"] == full
    by_header = client.get(
        "/api/state", query_string={"viewer": holder}, headers={"Authorization": f"Bearer {mine}"}
    )
    assert by_header.get_json() == private.get_json()

    public = client.get("/api/state").get_json()
    assert public["players"][holder]["customers"] != full
    as_other = client.get(
        "/api/state", query_string={"viewer": other, "token": tokens[other]["token"]}
    ).get_json()
    assert as_other["players"][holder]["customers"] != full
    assert json.dumps(full[0]) not in json.dumps(public["players"][holder])

    for query, status in [
        ({"viewer": holder}, 401),
        ({"viewer": holder, "token": tokens[other]["token"]}, 401),
        ({"viewer": holder, "token": TOKEN}, 401),
        ({"viewer": "white", "token": mine}, 400),
    ]:
        assert client.get("/api/state", query_string=query).status_code == status


def test_player_tokens_survive_a_restart(db_path: Any, app: Flask, game: int) -> None:
    tokens = table_service(app).player_tokens()
    again = make_app(db_path=db_path, table_token=TOKEN)
    try:
        assert table_service(again).player_tokens() == tokens
        assert table_service(again).current_game_id == game
    finally:
        runtime_of(again).close()
