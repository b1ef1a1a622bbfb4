"""``rules.space_any`` (whether a space's action allows anything, asked at every take and
well use) answers exactly ``bool(space_options)``: for every colour and space, on every
state of seeded games in both play styles, on every child the search could reach from
every third state, with both readings of the train-only house rule, and with the Port and
Life goals modules on (Port replaces the travel options)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion import village as v
from companion.sim.play_styles import truth_states
from companion.sim.random_games import play_out, random_legal_or_anytime
from companion.village.legal import space_options
from companion.village.payments import can_pay
from companion.village.state import Player
from companion.village.vocabulary import INFLUENCE, Color, Cube, Space


def _check(st: v.GameState) -> int:
    for c in st.players:
        for space in Space:
            listed = bool(space_options(st, c, space))
            assert st.rules.space_any[space](st, c) is listed, (space, c, st.phase)
    return len(st.players) * len(Space)


def _with_children(states: list[v.GameState]) -> int:
    checked = 0
    for i, st in enumerate(states):
        checked += _check(st)
        if i % 3 == 0:
            for a in v.legal_actions(st):
                checked += _check(v.apply_unchecked(st, a))
    return checked


@pytest.mark.parametrize(("seed", "play"), [(1, "purposeful"), (2, "random"), (3, "random")])
def test_space_any_is_whether_options_are_listed(seed: int, play: str) -> None:
    assert _with_children(truth_states(seed, play)) > 20_000


def test_space_any_with_train_only_off() -> None:
    states = []
    for st in truth_states(4, "purposeful")[::2]:
        st = st.clone()
        st.house = replace(st.house, train_only=False)
        states.append(st)
    assert _with_children(states) > 5_000


def test_space_any_with_modules_on() -> None:
    st = v.new_game(["red", "yellow", "blue"], modules=("port", "life_goals"))
    rng = random.Random(6)
    checked = 0
    for _ in range(40):
        st = play_out(st, random_legal_or_anytime, rng, limit=15)[0]
        checked += _check(st)
        if st.phase == "over":
            break
    assert checked > 500


def test_can_pay_is_whether_a_payment_exists() -> None:
    from companion.village.payments import cube_options

    for coins in range(4):
        for have in range(4):
            p = Player(Color("red"), coins=coins)
            p.cubes = dict.fromkeys(INFLUENCE, have)
            for need in ({Cube.GREEN: 2}, {Cube.BROWN: 1, Cube.GREEN: 2, Cube.PINK: 1}, {Cube.ORANGE: 3}):
                assert can_pay(p, need) is bool(cube_options(p, need)), (coins, have, need)
