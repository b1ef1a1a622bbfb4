"""Random legal games with every invariant checked after every action, under several
board settings; records replay to the same state; property tests with Hypothesis."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from companion import village as v
from companion.bags import draw_with_rng
from companion.sim.random_games import play_out, random_game, random_legal
from companion.village import data
from companion.village.invariants import violations
from companion.village.modules.registry import forms

ACTION_TYPES = forms().types
FIELD_NAMES = forms().field_names

GAMES = int(os.environ.get("VILLAGE_CONFORMANCE_GAMES", "60"))

SETTINGS: dict[str, dict[str, Any]] = {
    "shipped": {},
    "short time track": {"time_track.length": 6},
    "long time track": {"time_track.length": 14, "council.advance_time": {"2": 3, "3": 2, "4": 2}},
    "small chronicle": {
        "chronicle.sections": {
            s: [None, 4] for s in ("council", "crafts", "travel", "church", "farm")
        },
        "graves.marks": [None, None, 3, 4],
    },
    "line map, tight market": {
        "travel.map": {
            "start": [["a", "pink"], ["b", "brown"]],
            "cities": {
                c: {"reward": r}
                for c, r in zip("abcdefg", ["cubes", "coin", "prestige"] * 3, strict=False)
            },
            "paths": [
                [x, y, "brown" if i % 2 else "pink"]
                for i, (x, y) in enumerate(zip("abcdef", "bcdefg", strict=True))
            ],
        },
        "market.stalls": [None, None, None, None, 4],
        "market.queue": [None, 3, 3, 4, 4],
        "setup.2.bag": {"brown": 2, "pink": 2, "orange": 2, "green": 2},
    },
}


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int) -> None:
    rng = random.Random(1000 + players)
    ended: dict[str, int] = {}
    for _ in range(GAMES):
        result = random_game(players, rng)
        assert result.violations == [], result.violations[:5]
        assert result.final.phase == "over", "a random game ran past the action cap"
        ended[result.ended_by] = ended.get(result.ended_by, 0) + 1
    assert set(ended) <= {"chronicle", "graves"}


@pytest.mark.parametrize("name", list(SETTINGS))
def test_rules_hold_under_other_board_values(name: str) -> None:
    board = data.from_values({**data.load().values, **SETTINGS[name]})
    rng = random.Random(7)
    for i in range(12):
        result = random_game(2 + i % 3, rng, board=board)
        assert result.violations == [], (name, result.violations[:5])
        assert result.final.phase == "over"


def _state_after(seed: int, steps: int, players: int) -> v.GameState:
    st = v.new_game(["red", "yellow", "blue", "white"][:players])
    return play_out(st, random_legal, random.Random(seed), limit=steps)[0]


FIELDS = sorted(FIELD_NAMES)
JSONISH = hs.recursive(
    hs.none()
    | hs.booleans()
    | hs.integers(-3, 12)
    | hs.sampled_from(
        [
            "red",
            "blue",
            "harvest",
            "market",
            "brown",
            "plague",
            "red-1a",
            "blue-2b",
            "monk",
            "north",
            "wagon",
            "c01",
        ]
    ),
    lambda inner: (
        hs.lists(inner, max_size=4)
        | hs.dictionaries(
            hs.sampled_from([*FIELDS, "type", "green", "coin", "brown"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=8,
)
TYPES = hs.sampled_from(sorted(ACTION_TYPES))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 400),
    players=hs.integers(2, 4),
    kind=TYPES,
    body=hs.dictionaries(
        hs.sampled_from(FIELDS),
        JSONISH,
        max_size=5,
    ),
)
def test_any_input_is_applied_or_refused_cleanly(
    seed: int, steps: int, players: int, kind: str, body: dict[str, Any]
) -> None:
    st = _state_after(seed, steps, players)
    before = v.summary(st)
    try:
        after = v.apply(st, {"type": kind, **body})
    except v.RulesError:
        assert v.summary(st) == before
    else:
        assert violations(after) == []
        assert v.summary(st) == before


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 500), players=hs.integers(2, 4))
def test_every_legal_action_applies_and_round_trips(seed: int, steps: int, players: int) -> None:
    st = _state_after(seed, steps, players)
    before = v.summary(st)
    for action in v.legal_actions(st):
        assert v.parse_action(action.to_json()) == action
        after = v.apply(st, action.to_json())
        assert violations(after) == []
    assert v.summary(st) == before
    if v.is_chance(st):
        spec = v.chance_spec(st)
        assert spec is not None and spec.count >= 0
        v.apply(st, draw_with_rng(spec, random.Random(seed)))


@settings(max_examples=60, deadline=None)
@given(seed=hs.integers(0, 10_000), steps=hs.integers(1, 400), players=hs.integers(2, 4))
def test_a_legal_action_for_another_player_is_refused(seed: int, steps: int, players: int) -> None:
    st = _state_after(seed, steps, players)
    if v.is_chance(st) or st.phase == "over":
        return
    first = v.legal_actions(st)[0]
    assert v.is_legal(st, first)
    action = first.to_json()
    other = next(c.value for c in st.players if c.value != action["player"])
    assert not v.is_legal(st, v.parse_action({**action, "player": other}))
    with pytest.raises(v.IllegalAction) as err:
        v.apply(st, {**action, "player": other})
    assert err.value.code == "not_your_turn"
