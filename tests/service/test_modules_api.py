"""``POST /api/games`` takes ``modules`` and ``goal_claims``; the private view lists what a
player may do at any moment; the public feed hides a goal deal."""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient
from servicekit import AUTH
from werkzeug.test import TestResponse

from companion import village as v
from companion.table import TableService
from companion.village.modules.port import Voyage, port_of


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


def _dealt_game(client: FlaskClient) -> dict[str, str]:
    r = client.post(
        "/api/games", json={"players": ["red", "blue"], "modules": ["life_goals"]}, headers=AUTH
    )
    tokens: dict[str, str] = r.get_json()["players"]
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
    for tier, hands in (
        ("silver", {"red": "aristocrat", "blue": "farmer"}),
        ("gold", {"red": "dealer", "blue": "saint"}),
    ):
        client.post(
            "/api/actions", json={"type": "deal_goals", "tier": tier, "hands": hands}, headers=AUTH
        )
    return tokens


def test_a_player_claims_with_their_own_token(client: FlaskClient) -> None:
    tokens = _dealt_game(client)
    claim = {"type": "claim_goal", "player": "red", "goal": "aristocrat"}
    assert client.post("/api/anytime", json=claim).status_code == 401
    r = client.post(f"/api/anytime?token={tokens['blue']}", json=claim)
    assert r.status_code == 401  # blue's token cannot claim for red
    take = {"type": "take", "player": "red", "space": "harvest", "cube": "green"}
    assert (
        client.post(f"/api/anytime?token={tokens['red']}", json=take).get_json()["code"]
        == "not_anytime"
    )
    r = client.post(f"/api/anytime?token={tokens['red']}", json=claim)
    assert r.status_code == 422 and "still missing" in r.get_json()["message"]
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    wanted = v.module_defaults(["life_goals"])["goals.silver.items"]["aristocrat"]["coin"]
    assert mine["life_goals"]["players"]["red"]["missing"]["aristocrat"] == [
        f"{wanted - 1} more coins"
    ]


def test_a_virtual_deal_keeps_its_seed_back_until_the_end(client: FlaskClient) -> None:
    client.post(
        "/api/games", json={"players": ["red", "blue"], "modules": ["life_goals"]}, headers=AUTH
    )
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)  # customers: public
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)  # silver goals
    draws = client.get("/api/draws").get_json()["draws"]
    customers, deal = draws
    assert "seed" in customers and customers["action"]["type"] == "reveal_customers"
    assert deal["kind"] == "deal_silver" and deal.get("withheld") is True
    assert "seed" not in deal and "hands" not in deal["action"] and deal["digest"]


def _at_the_silver_deal(client: FlaskClient) -> dict[str, str]:
    r = client.post(
        "/api/games", json={"players": ["red", "blue"], "modules": ["life_goals"]}, headers=AUTH
    )
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)  # customers
    tokens: dict[str, str] = r.get_json()["players"]
    return tokens


def _report(client: FlaskClient, token: str, player: str, tier: str, goal: str) -> TestResponse:
    action = {"type": "deal_goals", "tier": tier, "hands": {player: goal}}
    return client.post(f"/api/report?token={token}", json={"player": player, "action": action})


def test_each_player_reports_their_own_goal_tile_with_their_token(
    client: FlaskClient, service: TableService
) -> None:
    tokens = _at_the_silver_deal(client)
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    offered = {a["hands"]["red"] for a in mine["reports"]}
    assert "writer" in offered and "explorer" not in offered  # LS3: this combination's pool
    assert mine["life_goals"]["players"]["red"]["to_report"]["tier"] == "silver"
    r = _report(client, tokens["red"], "red", "silver", "writer")
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["sealed"] is True  # kept sealed until Blue has reported too
    # Red sees their sealed report on their page; the table, the log and Blue never do
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert mine["my_report"]["sealed"] == "writer"
    assert {a["hands"]["red"] for a in mine["reports"]} == offered  # may still change it
    theirs = client.get(f"/api/state?viewer=blue&token={tokens['blue']}").get_json()
    public_state = client.get("/api/state").get_json()
    assert public_state["hand_reports"]["reported"] == ["red"]
    public = json.dumps(public_state)
    log = json.dumps(client.get("/api/log").get_json())
    # Blue is still offered every silver tile, Red's among them: the list tells nothing
    assert {a["hands"]["blue"] for a in theirs["reports"]} == offered
    seen_by_blue = [theirs["life_goals"]["players"]["red"], theirs["my_report"],
                    theirs["hand_reports"]]
    for text in (json.dumps(seen_by_blue), public, log):
        assert "writer" not in text and "crivain" not in text
    # Blue reports theirs: both tiles are dealt in one event, the gold deal waits for both
    r = _report(client, tokens["blue"], "blue", "silver", "farmer")
    assert r.status_code == 200 and r.get_json()["sealed"] is False
    assert client.get("/api/state").get_json()["pending"]["kind"] == "deal_gold"
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert mine["life_goals"]["players"]["red"]["silver"] == "writer"
    sub = service.subscribe(after=0)  # what every live page receives
    feed = [n.data for n in iter(lambda: sub.get(timeout=0.01), None)]
    sub.close()
    assert any("deal_goals" in d for d in feed)
    for text in feed:
        assert "writer" not in text and "crivain" not in text and "farmer" not in text


def test_a_report_that_is_not_ones_own_is_refused_and_changes_nothing(
    client: FlaskClient,
) -> None:
    tokens = _at_the_silver_deal(client)
    seq = client.get("/api/state").get_json()["seq"]
    cases = [
        # (token, player, tier, reported for, goal) → status, code
        ((tokens["blue"], "red", "silver", "red", "writer"), 401, "unauthorized"),
        ((tokens["red"], "red", "silver", "blue", "writer"), 403, "not_your_report"),
        ((tokens["red"], "red", "gold", "red", "saint"), 403, "not_your_report"),
        ((tokens["red"], "red", "silver", "red", "explorer"), 403, "not_your_report"),
    ]
    for (token, player, tier, owner, goal), status, code in cases:
        action = {"type": "deal_goals", "tier": tier, "hands": {owner: goal}}
        r = client.post(f"/api/report?token={token}", json={"player": player, "action": action})
        assert (r.status_code, r.get_json()["code"]) == (status, code), (owner, tier, goal)
    r = client.post(f"/api/report?token={tokens['red']}", json={"player": "red", "action": 3})
    assert r.status_code == 400
    r = client.post(
        f"/api/report?token={tokens['red']}",
        json={"player": "red", "action": {}, "extra": 1},
    )
    assert r.status_code == 400 and r.get_json()["code"] == "unknown_fields"
    assert client.get("/api/state").get_json()["seq"] == seq  # nothing stored


def _three_at_the_silver_deal(client: FlaskClient) -> dict[str, str]:
    r = client.post("/api/games", json={"players": ["red", "blue", "white"],
                                        "modules": ["life_goals"]}, headers=AUTH)
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)  # customers
    tokens: dict[str, str] = r.get_json()["players"]
    return tokens


def test_reporting_a_tile_tells_nothing_of_the_others_hands(app: Any) -> None:
    """LS4 by hand without an oracle: a report is answered the same whether another player
    has reported that tile or not; a clash is found when the last report is in, and only
    the two players concerned are asked to look again, in the same words."""
    answers = []
    for blue_goal in ("writer", "farmer"):  # Blue names Red's tile, or another one
        client = app.test_client()
        tokens = _three_at_the_silver_deal(client)
        assert _report(client, tokens["red"], "red", "silver", "writer").status_code == 200
        r = _report(client, tokens["blue"], "blue", "silver", blue_goal)
        body = r.get_json()
        answers.append((r.status_code, body["sealed"], body["seq"]))
        blue = client.get(f"/api/state?viewer=blue&token={tokens['blue']}").get_json()
        answers.append(json.dumps({k: blue[k] for k in ("my_report", "hand_reports")})
                       .replace(blue_goal, "?"))
        public = client.get("/api/state").get_json()
        answers.append(json.dumps(public["hand_reports"]))
    assert answers[0:3] == answers[3:6]
    # no clash (the second game: Blue said "farmer"): White's report deals all three
    r = _report(client, tokens["white"], "white", "silver", "knight")
    assert r.status_code == 200 and r.get_json()["sealed"] is False
    assert client.get("/api/state").get_json()["pending"]["kind"] == "deal_gold"
    # a clash (Red and Blue both say "writer") is found when White reports last
    client = app.test_client()
    tokens = _three_at_the_silver_deal(client)
    _report(client, tokens["red"], "red", "silver", "writer")
    _report(client, tokens["blue"], "blue", "silver", "writer")
    seq = client.get("/api/state").get_json()["seq"]
    r = _report(client, tokens["white"], "white", "silver", "knight")
    assert r.get_json()["sealed"] is True and r.get_json()["seq"] == seq
    public = client.get("/api/state").get_json()
    assert public["hand_reports"]["check_again"] == ["blue", "red"]
    assert public["hand_reports"]["reported"] == ["white"]
    said = []
    for who in ("red", "blue", "white"):
        view = client.get(f"/api/state?viewer={who}&token={tokens[who]}").get_json()
        said.append(view["my_report"]["check_again"])
    assert said[0] == said[1] and said[0] and said[2] is None
    assert "writer" not in said[0] and "crivain" not in said[0]
    # they look again: Red has the writer, Blue the farmer; all three dealt in one event
    _report(client, tokens["red"], "red", "silver", "writer")
    r = _report(client, tokens["blue"], "blue", "silver", "farmer")
    assert r.get_json()["sealed"] is False and r.get_json()["seq"] == seq + 1
    for who, goal in (("red", "writer"), ("blue", "farmer"), ("white", "knight")):
        view = client.get(f"/api/state?viewer={who}&token={tokens[who]}").get_json()
        assert view["life_goals"]["players"][who]["silver"] == goal


def test_a_virtual_deal_of_the_rest_keeps_the_reports_made(client: FlaskClient) -> None:
    tokens = _three_at_the_silver_deal(client)
    _report(client, tokens["red"], "red", "silver", "writer")
    r = client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
    assert r.status_code == 200, r.get_json()
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert mine["life_goals"]["players"]["red"]["silver"] == "writer"
    assert client.get("/api/state").get_json()["pending"]["kind"] == "deal_gold"


def test_the_taker_reports_a_treasure_drawn_by_hand(
    client: FlaskClient, service: TableService
) -> None:
    r = client.post(
        "/api/games", json={"players": ["red", "blue"], "modules": ["port"]}, headers=AUTH
    )
    tokens = r.get_json()["players"]
    st = service.state()  # as if Red had just taken a treasure on an island
    assert port_of(st) is not None and port_of(st).data is not None
    port_of(st).voyage = Voyage(v.Color.RED, step="treasure")
    st.phase = "draw_treasure"
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert [t["coins"] for t in mine["port"]["to_report"]] == sorted(
        set(port_of(st).data.treasures.values())
    )
    five = next(t["tile"] for t in mine["port"]["to_report"] if t["coins"] == 5)
    action = {"type": "draw_treasure", "tile": five}
    assert mine["reports"] == [
        {"type": "draw_treasure", "tile": t["tile"]} for t in mine["port"]["to_report"]
    ]
    r = client.post(f"/api/report?token={tokens['blue']}", json={"player": "blue", "action": action})
    assert (r.status_code, r.get_json()["code"]) == (403, "not_your_report")  # not the taker
    r = client.post(f"/api/report?token={tokens['red']}", json={"player": "red", "action": action})
    assert r.status_code == 200, r.get_json()
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    assert mine["port"]["ships"]["red"]["hold"] == [f"treasure:{five}"]
    public = json.dumps(client.get("/api/state").get_json()["port"])
    assert five not in public and "treasure:?" in public


def test_a_players_goals_say_what_they_ask_and_their_prestige(client: FlaskClient) -> None:
    """Issue 18 item 13: the phone shows each goal's condition and prestige, not only what
    is missing; the others see neither."""
    tokens = _dealt_game(client)
    mine = client.get(f"/api/state?viewer=red&token={tokens['red']}").get_json()
    hand = mine["life_goals"]["players"]["red"]
    prestige = v.module_defaults(["life_goals"])["goals.prestige"]
    for tier in ("silver", "gold"):
        goal = hand[tier]
        assert hand["conditions"][goal] and "_" not in hand["conditions"][goal]
        assert hand["prestige"][goal] == prestige[tier]
    assert "aristocrat" in hand["conditions"] and "coin" in hand["conditions"]["aristocrat"]
    theirs = client.get(f"/api/state?viewer=blue&token={tokens['blue']}").get_json()
    assert "conditions" not in theirs["life_goals"]["players"]["red"]
