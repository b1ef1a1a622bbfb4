"""Scenario helpers for the rules tests: tables set up as a test needs them.

Scenario states are built by changing a fresh clone directly (only tests do this); every
move of the scenario itself then goes through the engine's ``apply``.
"""

from __future__ import annotations

import random
from typing import Any

from companion import village as v
from companion.bags import draw_with_rng
from companion.village.state import GameState
from companion.village.vocabulary import Cube, Space


def started(players: list[str], seed: int = 0, board: v.BoardData | None = None) -> GameState:
    """A new game with customers revealed and the green bag drawn (seeded)."""
    st = v.new_game(players, board)
    rng = random.Random(seed)
    while v.is_chance(st):
        spec = v.chance_spec(st)
        assert spec is not None
        st = v.apply(st, draw_with_rng(spec, rng))
    return st


def scenario(st: GameState) -> GameState:
    """A clone to arrange by hand."""
    return st.clone()


def only_cubes(st: GameState, placement: dict[Space, dict[Cube, int]]) -> None:
    """Put exactly these cubes on the action spaces (the rest back in the bag)."""
    for space, cubes in st.spaces.items():
        for cube, n in cubes.items():
            st.bag[cube] += n
        st.spaces[space] = {}
    for space, cubes in placement.items():
        for cube, n in cubes.items():
            take = min(n, st.bag[cube])
            st.bag[cube] -= take
            st.supply[cube] -= n - take
            st.spaces[space][cube] = n


def act(st: GameState, **fields: Any) -> GameState:
    """Apply an action given as record fields (``type=...``)."""
    return v.apply(st, dict(fields))


def options(st: GameState) -> list[dict[str, Any]]:
    return [a.to_json() for a in v.legal_actions(st)]
