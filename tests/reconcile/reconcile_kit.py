"""Helpers for the reconciler tests: real engine states from seeded random games."""

from __future__ import annotations

import random
from collections.abc import Iterator
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


def takes_then_still_space(window: int) -> Iterator[
        tuple[list[tuple[v.GameState, dict[str, Any]]], int, dict[str, Any], dict[str, int], int]]:
    """From the seeded games (seeds 1-8): each take of colour c from space S, and each later
    action index j (within ``window`` actions) while S's cubes stay as the take left them:
    (the game's states, the take's index, the take, S's cubes after it, j)."""
    from companion.village.picture import picture

    for seed in range(1, 9):
        states = game_states(seed)
        for i, (st, take) in enumerate(states):
            if take["type"] != "take":
                continue
            s = f"space:{take['space']}"
            here = picture(v.apply(st, take)).cubes[s]
            for j in range(i + 1, min(i + window, len(states))):
                if picture(states[j][0]).cubes[s] != here:
                    break
                yield states, i, take, here, j
