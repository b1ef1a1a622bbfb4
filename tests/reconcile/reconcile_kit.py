"""Helpers for the reconciler tests: real engine states from seeded random games."""

from __future__ import annotations

import random
from typing import Any

from companion import village as v
from companion.sim.random_games import random_game


def game_states(seed: int, players: int = 3) -> list[tuple[v.GameState, dict[str, Any]]]:
    """(state before, action) for every action of a seeded random game."""
    game = random_game(players, random.Random(seed), check=False)
    st = v.start(game.header)
    out = []
    for a in game.actions:
        out.append((st, a))
        st = v.apply(st, a)
    return out


def run(rec: Any, start: float, end: float) -> list[Any]:
    """Tick ``rec`` (a `Reconciler`) every 0.1 s from ``start`` to ``end``; what it said."""
    out: list[Any] = []
    t = start
    while t <= end:
        out += rec.tick(t)
        t = round(t + 0.1, 6)
    return out
