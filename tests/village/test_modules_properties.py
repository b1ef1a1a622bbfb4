"""Hypothesis properties with Port and Life goals on, as for the base game: any JSON is
applied cleanly or refused with the state untouched; every legal action and every action
allowed at any moment applies, keeps the invariants and round-trips."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion import village as v
from companion.bags import draw_with_rng
from companion.sim.random_games import play_out, random_legal_or_anytime
from companion.village.invariants import violations
from companion.village.modules.registry import forms

ACTION_TYPES = forms().types
FIELD_NAMES = forms().field_names

MODULES = ("port", "life_goals")


def _state_after(seed: int, steps: int, players: int, auto: bool) -> v.GameState:
    rng = random.Random(seed)
    st = v.new_game(
        ["red", "yellow", "blue", "white"][:players],
        modules=MODULES,
        goal_claims="auto" if auto else "manual",
    )
    return play_out(st, random_legal_or_anytime, rng, limit=steps)[0]


FIELDS = sorted(FIELD_NAMES)
WORDS = [
    "red",
    "blue",
    "A",
    "B",
    "C",
    "port",
    "c1-1",
    "c2-1",
    "t1",
    "C1",
    "B1",
    "writer",
    "dealer",
    "silver",
    "gold",
    "cocoa",
    "tea",
    "ox",
    "red-1a",
    "green",
    "travel",
]
JSONISH = hs.recursive(
    hs.none() | hs.booleans() | hs.integers(-3, 12) | hs.sampled_from(WORDS),
    lambda inner: (
        hs.lists(inner, max_size=4)
        | hs.dictionaries(hs.sampled_from([*FIELDS, *WORDS, "type", "coin"]), inner, max_size=5)
    ),
    max_leaves=8,
)
MODULE_TYPES = sorted(
    t for t, cls in ACTION_TYPES.items() if cls.__module__.startswith("companion.village.modules")
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 300),
    players=hs.integers(2, 4),
    auto=hs.booleans(),
    kind=hs.sampled_from(MODULE_TYPES) | hs.sampled_from(sorted(ACTION_TYPES)),
    body=hs.dictionaries(hs.sampled_from(FIELDS), JSONISH, max_size=5),
)
def test_any_input_is_applied_or_refused_cleanly_with_modules(
    seed: int, steps: int, players: int, auto: bool, kind: str, body: dict[str, Any]
) -> None:
    st = _state_after(seed, steps, players, auto)
    before = v.summary(st)
    try:
        after = v.apply(st, {"type": kind, **body})
    except v.RulesError:
        assert v.summary(st) == before
    else:
        assert violations(after) == []
        assert v.summary(st) == before


@settings(max_examples=50, deadline=None)
@given(
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 400),
    players=hs.integers(2, 4),
    auto=hs.booleans(),
)
def test_every_option_applies_and_round_trips_with_modules(
    seed: int, steps: int, players: int, auto: bool
) -> None:
    st = _state_after(seed, steps, players, auto)
    before = v.summary(st)
    anytime = [a for c in st.players for a in v.anytime_actions(st, c)]
    for action in [*v.legal_actions(st), *anytime]:
        assert v.parse_action(action.to_json()) == action
        after = v.apply(st, action.to_json())
        assert violations(after) == []
    assert v.summary(st) == before
    if v.is_chance(st):
        spec = v.chance_spec(st)
        assert spec is not None
        after = v.apply(st, draw_with_rng(spec, random.Random(seed)))
        assert violations(after) == []
