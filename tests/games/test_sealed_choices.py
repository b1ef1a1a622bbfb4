"""Secret simultaneous choices, a platform feature (`companion.games.sealed`, the table's
`companion.table.sealed_choices`), proved with the toy `bid_game` through the real app:
Flask's test client on a real SQLite file, and a real server (uvicorn) for the spectator's
live feed. Nothing of an answer may show anywhere before the last one is in; then all are
revealed in one event."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, bound_socket, make_app
from bid_game import SealedBids
from flask import Flask
from flask.testing import FlaskClient

from companion import games
from companion.games.errors import IllegalAction
from companion.games.sealed import SealedChoice
from companion.hall.public import public_state
from web import runtime_of, table_service

TOKEN = "bid-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
BIDS = SealedBids()
PLAYERS = ["red", "blue", "green"]


# -- the choice itself -------------------------------------------------------------------


def test_a_sealed_choice_checks_a_reveal_against_every_players_options() -> None:
    choice = SealedChoice.of("k", "reveal", {"red": (1, 2), "blue": (1, 2, 3)}, "Bid?")
    assert choice.players == ("red", "blue")
    assert choice.action({"blue": 3, "red": 1}) == {"type": "reveal",
                                                    "answers": {"red": 1, "blue": 3}}
    choice.check({"type": "reveal", "answers": {"red": 2, "blue": 3}})
    with pytest.raises(IllegalAction, match="red may answer 1 or 2, not 3"):
        choice.check({"type": "reveal", "answers": {"red": 3, "blue": 3}})
    with pytest.raises(IllegalAction, match="no answer from blue"):
        choice.check({"type": "reveal", "answers": {"red": 1}})
    with pytest.raises(IllegalAction, match="yellow is not asked"):
        choice.check({"type": "reveal", "answers": {"red": 1, "blue": 1, "yellow": 1}})
    with pytest.raises(IllegalAction, match="red may answer 1 or 2, not 3"):
        choice.check_answer("red", 3)


# -- through the app ---------------------------------------------------------------------


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    games.register(BIDS)
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def new_bids(client: FlaskClient) -> dict[str, str]:
    r = client.post("/api/games", json={"game": BIDS.name, "players": PLAYERS}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    tokens: dict[str, str] = r.get_json()["players"]
    return {c: t if isinstance(t, str) else t["token"] for c, t in tokens.items()}


def answer(client: FlaskClient, player: str, value: Any, token: str) -> Any:
    return client.post("/api/answer", json={"player": player, "answer": value},
                       headers={"Authorization": f"Bearer {token}"})


def everything_public(client: FlaskClient, tokens: dict[str, str], but: str) -> str:
    """Every public output, and every other player's private view, as one text."""
    out = [client.get(p).get_json() for p in ("/api/state", "/api/legal", "/api/log")]
    out += [client.get(f"/api/state?viewer={c}&token={t}").get_json()
            for c, t in tokens.items() if c != but]
    return json.dumps(out, sort_keys=True)


def test_answers_stay_sealed_until_the_last_then_open_in_one_event(
    app: Flask, client: FlaskClient
) -> None:
    tokens = new_bids(client)
    svc = table_service(app)
    state = client.get("/api/state").get_json()
    assert state["pending"]["kind"] == "sealed"
    assert state["sealed"] == {"key": "round-1", "question": "How much do you bid?",
                               "players": PLAYERS, "answered": [], "waiting": PLAYERS}
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()["my_sealed"]
    assert mine == {"key": "round-1", "question": "How much do you bid?",
                    "options": [1, 2, 3], "answer": None}

    r = answer(client, "red", 1, tokens["red"])
    assert r.status_code == 200 and r.get_json()["sealed"] is True
    r = answer(client, "red", 3, tokens["red"])  # changed before the last is in
    assert r.status_code == 200
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()["my_sealed"]
    assert mine["answer"] == 3
    state = client.get("/api/state").get_json()
    assert state["sealed"]["answered"] == ["red"] and state["sealed"]["waiting"] == [
        "blue", "green"]
    assert svc.store.events(svc.current_game_id) == []  # nothing stored: nothing to publish

    r = answer(client, "blue", 2, tokens["blue"])
    assert r.status_code == 200 and r.get_json()["sealed"] is True
    # the table may answer for a seat (a player without a phone shows the table their card)
    r = answer(client, "green", 1, TOKEN)
    assert r.status_code == 200 and r.get_json()["sealed"] is False
    events = svc.store.events(svc.current_game_id)
    assert len(events) == 1 and events[0].payload == {
        "type": "reveal_bids", "answers": {"red": 3, "blue": 2, "green": 1}}
    state = client.get("/api/state").get_json()
    assert state["scores"] == [3, 2, 1]
    assert state["sealed"]["key"] == "round-2" and state["sealed"]["answered"] == []
    log = client.get("/api/log").get_json()["entries"]
    assert log[-1]["narration"][0] == "Round 1, the bids: Red 3, Blue 2, Green 1."
    # red has 3 now: their options in round 2 no longer hold 3, said only to red
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()["my_sealed"]
    assert mine["options"] == [1, 2]


def test_who_may_answer_for_a_seat_and_what_is_refused(app: Flask, client: FlaskClient) -> None:
    tokens = new_bids(client)
    svc = table_service(app)
    before = client.get("/api/state").get_json()
    assert answer(client, "red", 1, tokens["blue"]).status_code == 401  # another's token
    assert answer(client, "red", 1, "nonsense").status_code == 401
    r = client.post("/api/answer", json={"player": "red", "answer": 1})
    assert r.status_code == 401
    r = answer(client, "red", 7, tokens["red"])
    assert r.status_code == 422 and "red may answer 1, 2 or 3, not 7" in r.get_json()["message"]
    r = answer(client, "yellow", 1, TOKEN)
    assert r.status_code in (400, 403)
    r = client.post("/api/answer", json={"player": "red", "answer": 1, "x": 2},
                    headers={"Authorization": f"Bearer {tokens['red']}"})
    assert r.status_code == 400
    assert client.get("/api/state").get_json() == before  # nothing changed by any refusal
    assert svc.store.events(svc.current_game_id) == []

    # the table may also enter the revealed choices at once, as one action
    r = client.post("/api/actions", json={"type": "reveal_bids",
                                          "answers": {"red": 1, "blue": 1, "green": 2}},
                    headers=AUTH)
    assert r.status_code == 200, r.get_json()
    r = client.post("/api/actions", json={"type": "reveal_bids",
                                          "answers": {"red": 9, "blue": 1, "green": 2}},
                    headers=AUTH)
    assert r.status_code == 422


def test_an_undo_or_a_new_game_drops_the_sealed_answers(app: Flask, client: FlaskClient) -> None:
    tokens = new_bids(client)
    for c in PLAYERS:
        answer(client, c, 1, tokens[c])
    answer(client, "red", 2, tokens["red"])  # round 2: sealed
    assert client.get("/api/state").get_json()["sealed"]["answered"] == ["red"]
    assert client.post("/api/undo", headers=AUTH).status_code == 200  # round 1 again
    state = client.get("/api/state").get_json()
    assert state["sealed"]["key"] == "round-1" and state["sealed"]["answered"] == []


def test_no_public_output_differs_with_the_sealed_answer(tmp_path: Path) -> None:
    """Two tables, the same moves but red's sealed answer: every public output (state,
    legal, log, the other players' private views, the live feed, the hall's public form of
    the state, the store the hall reads) is the same text."""
    texts = []
    for n, red in enumerate((1, 3)):
        games.register(BIDS)
        app = make_app(db_path=tmp_path / f"g{n}.sqlite3", table_token=TOKEN)
        try:
            client = app.test_client()
            tokens = new_bids(client)
            feed = table_service(app).subscribe()
            answer(client, "red", red, tokens["red"])
            answer(client, "blue", 2, tokens["blue"])
            notices = [x.data for x in iter(lambda f=feed: f.get(timeout=0.2), None)]
            svc = table_service(app)
            hall = public_state("t", svc.game(), svc.current_game_id, svc.seq(), svc.state())
            texts.append((everything_public(client, tokens, "red"), notices,
                           json.dumps(hall, sort_keys=True), svc.store.events(svc.current_game_id)))
        finally:
            runtime_of(app).close()
    assert texts[0] == texts[1]  # the hall's public form too; nothing stored for it to send
    assert len(texts[0][1]) == 2 and texts[0][3] == []  # two "who has answered" notices


def test_a_spectators_live_feed_holds_no_sealed_answer_before_the_reveal(
    tmp_path: Path,
) -> None:
    """Over a real server: a spectator's stream (no token) reads the notices while three
    phones answer; those before the reveal name who answered and nothing else, and the
    reveal event carries all three answers at once."""
    import http.client

    games.register(BIDS)
    sock, url = bound_socket()
    app = make_app(db_path=tmp_path / "live.sqlite3", table_token=TOKEN)
    served = Served(app, sock)
    try:
        host, port = url.removeprefix("http://").split(":")
        client = app.test_client()
        tokens = new_bids(client)
        blocks: list[str] = []
        ready = threading.Event()

        def spectate() -> None:
            conn = http.client.HTTPConnection(host, int(port), timeout=15)
            conn.request("GET", "/api/events")
            response = conn.getresponse()
            ready.set()
            block = ""
            while not any("reveal_bids" in b for b in blocks):
                line = response.readline().decode()
                if not line:
                    break
                if line == "\n":
                    if "data: " in block:
                        blocks.append(block)
                    block = ""
                else:
                    block += line
            conn.close()

        reader = threading.Thread(target=spectate, daemon=True)
        reader.start()
        assert ready.wait(10)
        time.sleep(0.3)
        for color, value in (("red", 3), ("green", 2), ("red", 1)):
            post = http.client.HTTPConnection(host, int(port), timeout=10)
            post.request("POST", "/api/answer", json.dumps({"player": color, "answer": value}),
                         {"Authorization": f"Bearer {tokens[color]}",
                          "Content-Type": "application/json"})
            assert post.getresponse().status == 200
            post.close()
        time.sleep(0.3)
        sealed_before = list(blocks)
        post = http.client.HTTPConnection(host, int(port), timeout=10)
        post.request("POST", "/api/answer", json.dumps({"player": "blue", "answer": 2}),
                     {"Authorization": f"Bearer {tokens['blue']}",
                      "Content-Type": "application/json"})
        assert post.getresponse().status == 200
        post.close()
        reader.join(10)
    finally:
        served.close()
        runtime_of(app).close()
    assert len(sealed_before) == 3, sealed_before
    for block in sealed_before:
        assert block.startswith("event: sealed\n"), block
        data = json.loads(block.split("data: ", 1)[1])
        assert set(data) == {"kind", "key", "question", "players", "answered", "waiting"}
        assert "answers" not in block and "answer\"" not in block
    reveal = json.loads(next(b for b in blocks if "reveal_bids" in b).split("data: ", 1)[1])
    assert reveal["action"] == {"type": "reveal_bids",
                                "answers": {"red": 1, "blue": 2, "green": 2}}
