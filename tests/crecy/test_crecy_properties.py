"""Hypothesis properties of the Crecy engine: random legal games keep every invariant and
every secret and replay from their record; an action refused leaves the state as it was."""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.crecy import engine, record, views
from companion.games.errors import RulesError
from companion.sim import crecy_games


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_random_games_keep_the_invariants_and_replay(seed: int, players: int) -> None:
    result = crecy_games.play(seed, players)
    assert result["violation_count"] == 0, result["violations"]
    assert result["over"]


def _everything(s: Any) -> str:
    return json.dumps(views.view(s, "table", engine.pending(s).to_json(), everything=True),
                      sort_keys=True)


ANY = st.fixed_dictionaries({
    "type": st.sampled_from([*sorted(engine.FIELDS), "castle"]),
    "player": st.sampled_from(["red", "blue", "green", "nobody"]),
    "member": st.sampled_from(["head", "m1", "m2", "m9"]),
    "friend": st.sampled_from(["D1", "Gertrude", "Ami 01", ""]),
    "pawn": st.sampled_from(["player", "extra", "free", "none"]),
    "gold": st.integers(-2, 6), "cards": st.integers(0, 4),
    "card": st.sampled_from(["girl", "boy", "complication", "dragon"]),
})


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 150), junk=ANY)
def test_a_refused_action_changes_nothing(seed: int, steps: int, junk: dict[str, Any]) -> None:
    rng = random.Random(seed)
    s = record.start(record.make_header(["red", "blue", "green"]))
    for _ in range(steps):
        if engine.is_over(s):
            break
        s = engine.apply(s, crecy_games.random_action(s, rng))
    before = _everything(s)
    with contextlib.suppress(RulesError):
        engine.apply(s, junk)
    assert _everything(s) == before
