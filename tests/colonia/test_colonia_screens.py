"""Behind the screens, by construction: what stands behind a player's screen reaches that
player only, through every view, until the end; then every screen and score is shown."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from companion.colonia.cards import Relic
from companion.colonia.game import GAME
from companion.colonia.state import State
from companion.sim.colonia_games import random_game


def _other_screen(st: State, color: str) -> State:
    """``st`` with everything behind ``color``'s screen changed."""
    seat = st.seat(color)
    return st.with_seat(replace(
        seat, materials=tuple(m + 3 for m in seat.materials),
        goods=tuple(g + 1 for g in seat.goods), money=tuple(m + 7 for m in seat.money),
        relics=(*seat.relics, Relic("hidden one", "london", "relic", 1, 5))))


def _states(seed: int) -> list[State]:
    from companion.colonia.engine import apply
    from companion.colonia.record import start

    header, actions, _, _ = random_game(seed, 4)
    st, out = start(header), []
    for a in actions:
        st = apply(st, a)
        out.append(st)
    return out


def test_no_view_but_the_owners_changes_with_a_screen() -> None:
    rng = random.Random(5)
    states = _states(11)
    assert states[-1].step == "over"
    for st in rng.sample(states[:-1], 60):
        if not st.seats or st.step == "over":
            continue
        owner = rng.choice(st.players)
        changed = _other_screen(st, owner)
        for viewer in ("table", *st.players):
            same = json.dumps(GAME.view(st, viewer), sort_keys=True) == json.dumps(
                GAME.view(changed, viewer), sort_keys=True)
            assert same is (viewer != owner), (viewer, owner, st.step)
        table = GAME.view(st, "table")
        assert "screen" not in table and all("screen" not in p for p in table["players"])
        mine = GAME.view(st, owner)
        assert mine["screen"]["money"] == dict(zip(("pound", "grivna", "mark", "gulden"),
                                                   st.seat(owner).money, strict=True))


def test_at_the_end_every_screen_and_the_places_are_shown() -> None:
    last = _states(12)[-1]
    table = GAME.view(last, "table")
    assert all("screen" in p for p in table["players"])
    assert sorted(p for place in table["places"] for p in place) == sorted(last.players)
    assert all(isinstance(p["screen"]["score"]["total"], int) for p in table["players"])
