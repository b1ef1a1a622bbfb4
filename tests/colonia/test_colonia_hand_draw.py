"""The decree's two materials each drawn by hand from the real bag, each player reporting
their own from their phone, sealed until all are in (`companion.colonia.hand_draw`): the
engine's side, then through the real app (a real SQLite file) with a spectator's feed and
the other players' views checked never to hold a share."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import fixed_draw_seeds, make_app
from colonia_kit import learned
from flask import Flask
from flask.testing import FlaskClient

from companion.colonia import hand_draw
from companion.colonia.engine import apply
from companion.colonia.game import GAME
from companion.colonia.record import make_header, start
from companion.colonia.state import State
from companion.colonia.vocabulary import MATERIALS
from companion.sim.colonia_games import pick
from companion.table.sealed import CHECK_ALL_AGAIN
from web import runtime_of, table_service

TOKEN = "colonia-table"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["red", "blue", "green"]


def decree_box() -> dict[str, Any]:
    """The invented box where every decree is the two materials each (on Thursday)."""
    box = learned(3)
    box["colonia.decree"] = {f"D{i}": {"day": 4, "text": "invented",
                                       "effect": "two_materials_each"} for i in range(1, 19)}
    return box


def at_the_decree() -> State:
    """A seeded random 3-player game played until the decree's materials are waited for."""
    st, rng, named = start(make_header(PLAYERS, cards=decree_box())), random.Random(5), {}
    for _ in range(3000):
        if st.step == hand_draw.STEP:
            return st
        st = apply(st, pick(st, rng, named))  # type: ignore[arg-type]
    pytest.fail("the decree was never adopted")


def test_each_player_reports_only_their_own_materials_and_the_deal_applies() -> None:
    st = at_the_decree()
    assert hand_draw.wanted(st) == dict.fromkeys(st.order or st.players, 2)
    reports = GAME.hand_reports(st, "red")
    assert len(reports) == 25  # two of five materials, in either order
    assert all(set(r.to_json()["drawn"]) == {"red"} for r in reports)
    share = GAME.sealed_share(st, "red", {"type": "draw_materials",
                                          "drawn": {"red": ["wood", "leather"]}})
    assert share is not None and share.value == "leather,wood" and share.distinct is False
    assert sorted(share.to_report) == sorted(PLAYERS) and share.step == GAME.pending(st).kind
    assert GAME.sealed_share(st, "red", {"type": "pass", "player": "red"}) is None
    deal = GAME.sealed_deal(st, share.draw, {"red": "leather,wood", "blue": "leather,wood",
                                             "green": "fur,fur"})
    after = apply(st, deal)  # type: ignore[arg-type]
    gained = {p: [b - a for a, b in zip(st.seat(p).materials, after.seat(p).materials,
                                        strict=True)] for p in PLAYERS}
    assert gained["red"] == gained["blue"] == [1, 0, 1, 0, 0]
    assert gained["green"] == [0, 0, 0, 0, 2]
    assert sum(st.bag) - sum(after.bag) == 6 and after.unseen == st.unseen + 6
    assert GAME.public_action(deal)["drawn"] == dict.fromkeys(PLAYERS, 2)
    with pytest.raises(ValueError):
        GAME.sealed_deal(st, "life goals", {})
    assert GAME.hand_reports(after, "red") == []  # the step is over


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    # the virtual draws' seeds from a fixed sequence: every run plays the same game (with
    # fresh seeds, about one game in a hundred ended before the bag ran short at a decree)
    fixed_draw_seeds(monkeypatch, 2104)
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN)
    yield app
    runtime_of(app).close()


def served_to_the_decree(app: Flask, steps: int, never: str,
                  also: Any = lambda st: True) -> tuple[FlaskClient, Any, dict[str, str]]:
    """A Colonia game started through the real app and played at random (every vote
    "yes", the draws virtual) until the decree's hand draw is asked and ``also(state)``
    holds: the client, the table service and each player's token."""
    client = app.test_client()
    r = client.post("/api/games", json={"game": "colonia", "players": PLAYERS,
                                        "options": {"cards": decree_box()}}, headers=AUTH)
    tokens = {c: t if isinstance(t, str) else t["token"]
              for c, t in r.get_json()["players"].items()}
    svc, rng, named = table_service(app), random.Random(5), {}  # type: ignore[var-annotated]
    for _ in range(steps):
        st = svc.state()
        if st.step == hand_draw.STEP and also(st):
            return client, svc, tokens
        if st.step == "vote":
            choice = GAME.sealed_choice(st)
            assert choice is not None
            post(client, choice.action(dict.fromkeys(choice.players, "yes")))
        elif GAME.chance_spec(st) is not None:
            post(client, {"type": "virtual_draw"})
        else:
            post(client, pick(st, rng, named))
    pytest.fail(never)


def post(client: FlaskClient, action: dict[str, Any], status: int = 200) -> Any:
    r = client.post("/api/actions", json=action, headers=AUTH)
    assert r.status_code == status, r.get_json()
    return r.get_json()


def view(client: FlaskClient, viewer: str = "table", token: str = "") -> Any:
    q = f"?viewer={viewer}&token={token}" if token else ""
    r = client.get(f"/api/state{q}")
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def report(client: FlaskClient, colour: str, token: str, drawn: list[str],
           status: int = 200) -> Any:
    r = client.post("/api/report", json={"player": colour, "action": {
        "type": "draw_materials", "drawn": {colour: drawn}}},
        headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == status, r.get_json()
    return r.get_json()


def test_shares_reported_from_the_phones_stay_sealed_until_the_deal(app: Flask) -> None:
    """Through the real app: each player reports their own two materials; until the last
    is in nothing of a share is in a spectator's feed, the table's view or another player's
    view (only who has reported); the last report stores the one ``draw_materials``,
    whose public form says only how many each drew, and each screen shows its own."""
    client, svc, tokens = served_to_the_decree(app, 3000, "the decree was never adopted")
    bag_before = view(client)["bag_count"]
    before = {c: view(client, c, tokens[c])["screen"]["materials"] for c in PLAYERS}
    # a player may report only their own share, and only one the game waits for
    r = client.post("/api/report", json={"player": "red", "action": {
        "type": "draw_materials", "drawn": {"blue": ["iron", "iron"]}}},
        headers={"Authorization": f"Bearer {tokens['red']}"})
    assert r.status_code == 403 and r.get_json()["error"] == "NotYourReport"
    report(client, "blue", tokens["red"], ["iron", "iron"], 401)
    mine = {"red": ["leather", "linen"], "blue": ["leather", "linen"], "green": ["fur", "fur"]}
    spectator = svc.subscribe()
    seq0 = view(client)["seq"]
    assert report(client, "red", tokens["red"], ["linen", "wood"])["sealed"] is True
    assert report(client, "red", tokens["red"], mine["red"])["sealed"] is True  # changed
    assert report(client, "blue", tokens["blue"], mine["blue"])["sealed"] is True
    public = view(client)
    assert public["seq"] == seq0 and public["hand_reports"]["reported"] == ["blue", "red"]
    assert view(client, "red", tokens["red"])["my_report"]["sealed"] == "leather,linen"
    green = view(client, "green", tokens["green"])
    assert green["my_report"]["sealed"] is None
    for seen in (public, green):  # neither the table nor another player sees a share
        assert "leather,linen" not in json.dumps(seen)
    heard_before = [n.data for n in iter(lambda: spectator.get(timeout=0.2), None)]
    assert not any("linen" in str(d) or "leather" in str(d) for d in heard_before)
    done = report(client, "green", tokens["green"], mine["green"])
    assert done["sealed"] is False and done["seq"] == seq0 + 1
    heard = [json.loads(n.data) for n in iter(lambda: spectator.get(timeout=0.2), None)
             if n.event is None]
    assert heard and heard[0]["action"] == {"type": "draw_materials",
                                            "drawn": dict.fromkeys(PLAYERS, 2)}
    assert heard[0]["state"] is None or heard[0]["state"]["bag"] is None
    told = json.dumps(heard[0]["narration"]).lower()
    assert not any(m in told for m in MATERIALS)
    after = view(client)
    assert after["bag"] is None and after["bag_count"] == bag_before - 6
    assert after["hand_reports"]["reported"] == []
    entry = next(e for e in client.get("/api/log").get_json()["entries"] if e["seq"] == done["seq"])
    assert not any(m in json.dumps(entry).lower() for m in MATERIALS)
    for c in PLAYERS:
        screen = view(client, c, tokens[c])["screen"]["materials"]
        gained = {m: screen[m] - before[c][m] for m in MATERIALS if screen[m] != before[c][m]}
        assert gained == {m: mine[c].count(m) for m in set(mine[c])}, c
        for other in PLAYERS:
            if other != c:
                assert "screen" not in json.dumps(view(client, other, tokens[other])["players"])


def test_reports_the_bag_cannot_hold_ask_everyone_again(app: Flask) -> None:
    """A misread that the bag cannot hold (more of a material than is left) is refused as a whole:
    nothing stored, every player asked again in the same words, no share kept."""
    # a later week's decree, when the bag has run short of one
    client, svc, tokens = served_to_the_decree(
        app, 5000, "the bag never ran short of a material at the decree",
        lambda st: min(st.bag) < 6)
    bag = svc.state().bag
    short = MATERIALS[bag.index(min(bag))]  # fewer left than the three reports name
    seq0 = view(client)["seq"]
    for c in PLAYERS:
        last = report(client, c, tokens[c], [short, short])
    assert last["sealed"] is True and view(client)["seq"] == seq0
    assert view(client)["hand_reports"]["check_again"] == sorted(PLAYERS)
    for c in PLAYERS:
        mine = view(client, c, tokens[c])["my_report"]
        assert mine["sealed"] is None and mine["check_again"] == CHECK_ALL_AGAIN


def test_the_table_may_still_draw_them_all_virtually_after_some_reports(app: Flask) -> None:
    """Red has reported, then the table draws virtually: Colonia's draw is dealt whole, so
    red's sealed share is dropped (never stored) and every player's two come from the
    committed draw."""
    client, svc, tokens = served_to_the_decree(app, 3000, "the decree was never adopted")
    seq0 = view(client)["seq"]
    assert report(client, "red", tokens["red"], ["iron", "iron"])["sealed"] is True
    done = post(client, {"type": "virtual_draw"})
    assert done["seq"] == seq0 + 1  # one event: the virtual draw, no partial deal
    assert svc.state().step != hand_draw.STEP
    assert view(client)["hand_reports"]["reported"] == []
