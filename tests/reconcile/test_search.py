"""The solver on real situations of every action type: what happened is always among the
explanations, and a table no action explains has none."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from reconcile_kit import game_states

from companion import village as v
from companion.reconcile.chance import ChanceReader
from companion.reconcile.search import PathCache, explain
from companion.sim.link import equivalent
from companion.sim.table import camera_regions, hub_zones
from companion.village.picture import regions_of

ALL_TYPES = sorted(
    {"take", "well", "skip", "harvest", "birth", "recall", "train", "produce", "buy",
     "mill", "serve", "pass", "travel", "council_enter", "council_advance", "privilege",
     "church", "die", "buyout", "church_move", "done", "fill_bag", "mass_draw"}
)


def seen(before: v.GameState, after: v.GameState) -> dict[str, Any]:
    """What the hub and the camera together would see of ``after``."""
    names = set(camera_regions(before)) | set(hub_zones(before))
    return {k: x for k, x in regions_of(after).items() if k in names}


def has(st: v.GameState, matches: list[tuple[Any, ...]], truth: list[dict[str, Any]]) -> bool:
    for m in matches:
        if len(m) != len(truth):
            continue
        s, ok = st, True
        for a, t in zip(m, truth, strict=True):
            ok = ok and equivalent(s, a.to_json(), t)
            s = v.apply(s, t)
        if ok:
            return True
    return False


def test_the_situations_cover_every_action_type(situations: dict[str, Any]) -> None:
    assert set(ALL_TYPES) <= set(situations)


@pytest.mark.parametrize("kind", ALL_TYPES)
def test_what_happened_is_among_the_explanations(kind: str, situations: dict[str, Any]) -> None:
    for st, action in situations[kind]:
        after = v.apply(st, action)
        observed = seen(st, after)
        result = explain(PathCache(), st, observed, chance_from=ChanceReader(observed))
        if observed == {k: x for k, x in regions_of(st).items() if k in observed}:
            assert result.matches == [()]  # nothing seen changed: nothing to explain
            continue
        assert has(st, result.matches, [action]), (kind, action, result.matches[:5])


def test_a_take_is_explained_alone(situations: dict[str, Any]) -> None:
    for st, action in situations["take"]:
        after = v.apply(st, action)
        result = explain(PathCache(), st, seen(st, after))
        assert [[a.to_json() for a in m] for m in result.matches] == [[action]]


def test_market_day_death_and_mass_are_explained_uniquely(situations: dict[str, Any]) -> None:
    for kind in ("serve", "buyout", "church_move", "mass_draw"):
        unique = 0
        for st, action in situations[kind]:
            after = v.apply(st, action)
            observed = seen(st, after)
            result = explain(PathCache(), st, observed, chance_from=ChanceReader(observed))
            if len(result.matches) == 1 and has(st, result.matches, [action]):
                unique += 1
        assert unique >= 1, kind


def test_a_knocked_cube_has_no_explanation(situations: dict[str, Any]) -> None:
    st, _ = situations["take"][0]
    observed = seen(st, st)
    space = next(k for k, x in observed.items()
                 if k.startswith("space:") and isinstance(x, tuple) and any(x))
    counts = list(observed[space])
    counts[next(i for i, n in enumerate(counts) if n)] -= 1
    observed[space] = tuple(counts)
    assert explain(PathCache(), st, observed).matches == []


def test_two_actions_in_a_row_are_found(situations: dict[str, Any]) -> None:
    pairs = game_states(7)
    found = 0
    for (st, a), (_, b) in itertools.pairwise(pairs[40:91]):
        if v.is_chance(st) or a["type"] != "take" or b["type"] in ("skip", "reveal_customers"):
            continue
        middle = v.apply(st, a)
        after = v.apply(middle, b)
        observed = seen(st, after)
        if observed == seen(st, middle):
            continue  # the second one shows nothing (a pass): it is found with the next
        result = explain(PathCache(), st, observed, chance_from=ChanceReader(observed))
        assert has(st, result.matches, [a, b]), (a, b)
        found += 1
    assert found >= 3


def test_a_final_turn_on_an_empty_board(situations: dict[str, Any]) -> None:
    st, _ = situations["take"][0]
    st = st.clone()
    for space, cubes in st.spaces.items():  # the board is empty, the final turns started
        for cube, n in cubes.items():
            st.bag[cube] += n
        st.spaces[space] = {}
    st.final_queue = []
    me = st.current_color.value
    free = {"type": "free", "player": me, "space": "harvest"}
    assert free in [a.to_json() for a in v.legal_actions(st)]
    middle = v.apply(st, free)
    after = v.apply(middle, {"type": "harvest", "player": me})
    result = explain(PathCache(), st, seen(st, after))
    assert has(st, result.matches, [free, {"type": "harvest", "player": me}])
