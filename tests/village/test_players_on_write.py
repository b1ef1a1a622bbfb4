"""The players are copied on write: the engine's copy (``GameState.derive``) shares each
player with its parent until the engine changes that player (``GameState.own``), and a
change through ``own`` to either side after the copy never reaches the other (``clone``,
the copy to change by hand, shares none: `test_copying.py`); every action of seeded games (the base game, the
coins-at-the-well house rule, Port and Life goals on), and every action any player may
take at any moment, leaves the state it was applied to as it was."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import companion.village as v
from companion.bags import draw_with_rng
from companion.village.state import Player
from companion.village.vocabulary import Cube, Good


def _deep(pl: Player) -> tuple[object, ...]:
    return (pl.color, pl.time, pl.prestige, pl.coins, pl.grain, dict(pl.cubes),
            dict(pl.goods), list(pl.customers), list(pl.cities))


def _players(st: v.GameState) -> dict[v.Color, tuple[object, ...]]:
    return {c: _deep(pl) for c, pl in st.p.items()}


def _states(modules: tuple[str, ...], seed: int, well_coins: bool = False) -> list[v.GameState]:
    rng = random.Random(seed)
    st = v.new_game(["red", "blue", "white"], modules=modules)
    if well_coins:
        st.house = replace(st.house, well_coins=True)
    out = []
    for _ in range(700):
        out.append(st)
        if st.phase == "over":
            break
        spec = v.chance_spec(st)
        options = [*v.legal_actions(st), *(a for c in st.players
                                          for a in v.anytime_actions(st, c))]
        action = v.parse_action(draw_with_rng(spec, rng)) if spec else rng.choice(options)
        st = v.apply_unchecked(st, action)
    return out


def test_a_child_shares_the_players_its_action_did_not_change() -> None:
    st = _states((), 1)[40]
    child = v.apply_unchecked(st, next(a for a in v.legal_actions(st)))
    shared = [c for c in st.players if child.p[c] is st.p[c]]
    assert len(shared) >= len(st.players) - 1
    assert all(child.p[c] == st.p[c] for c in shared)


def test_a_change_after_the_copy_reaches_neither_side() -> None:
    st = _states((), 2)[30]
    red = v.Color.RED
    before = _players(st)
    child = st.derive()
    assert all(child.p[c] is st.p[c] for c in st.players)
    child.own(red).coins += 7
    child.own(red).cubes[Cube.GREEN] += 1
    child.own(red).customers.append("x")
    assert _players(st) == before
    theirs = _players(child)
    st.own(red).grain += 1  # the parent changed after its clone: the child does not see it
    st.own(red).goods[Good.WAGON] += 1
    assert _players(child) == theirs


@pytest.mark.parametrize(("modules", "seed", "well_coins"), [
    ((), 3, False), ((), 4, True), (("port", "life_goals"), 5, False),
    (("port", "life_goals"), 6, False)])
def test_no_action_changes_the_players_of_the_state_it_is_applied_to(
        modules: tuple[str, ...], seed: int, well_coins: bool) -> None:
    tried = 0
    for st in _states(modules, seed, well_coins)[::2]:
        if v.chance_spec(st) is not None or st.phase == "over":
            continue
        before = _players(st)
        options = [*v.legal_actions(st),
                   *(a for c in st.players for a in v.anytime_actions(st, c))]
        for action in options:
            child = v.apply_unchecked(st, action)
            assert _players(st) == before, action
            tried += 1
            for grand in v.legal_actions(child)[:3]:  # a grandchild leaves its parent too
                was = _players(child)
                v.apply_unchecked(child, grand)
                assert _players(child) == was, (action, grand)
    assert tried > 1500
