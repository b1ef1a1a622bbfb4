"""`chance.fill_legal`: the same answer as ``is_legal`` for every green-bag fill one
misread away from the true one (what the reconciler tries when a fill read cannot be),
without writing out a refusal for each; a refused fill still says why, as before."""

from __future__ import annotations

import itertools
import random

import pytest

from companion import village as v
from companion.reconcile.chance import one_colour_off, one_count_off, taken_since
from companion.sim.random_games import random_game
from companion.village.actions import FillBag
from companion.village.chance import fill_legal, fill_problem
from companion.village.errors import IllegalAction


def _fills(seed: int, players: int) -> list[tuple[v.GameState, FillBag]]:
    """Each fill of a seeded game at its state and at the state before it, with every
    fill one colour or one cube off it and one cube more on a space."""
    game = random_game(players, random.Random(seed), check=False)
    st = v.start(game.header)
    out: list[tuple[v.GameState, FillBag]] = []
    before = st
    for a in game.actions:
        if st.phase == "fill_bag":
            fill = st.rules.forms.parse(a)
            assert isinstance(fill, FillBag)
            near = itertools.chain([fill], one_colour_off(fill), one_count_off(fill),
                                   taken_since(st, fill))
            for f in near:
                out += [(st, f), (before, f)]
        before, st = st, v.apply(st, a)
    return out


@pytest.mark.parametrize(("seed", "players"), [(1, 2), (2, 3), (3, 4)])
def test_fill_legal_answers_as_is_legal(seed: int, players: int) -> None:
    cases = _fills(seed, players)
    legal = [fill_legal(st, f) for st, f in cases]
    assert legal == [v.is_legal(st, f) for st, f in cases]
    assert True in legal and False in legal
    for (st, f), ok in zip(cases, legal, strict=True):
        if ok:
            continue
        with pytest.raises(IllegalAction) as refused:
            v.apply(st, f)
        problem = fill_problem(st, f)
        assert problem is not None
        assert str(refused.value) == f"illegal: {f.to_json()!r} — {problem[0]}"
        assert (refused.value.code, refused.value.rule) == problem[1:]
