"""Engine speed against python-chess, in one process (``companion bench``).

A step = list the legal actions and apply one (at a chance point: describe the draw, draw,
apply). No invariant checks, no re-validation: actions come from the legal list, as
python-chess's ``push`` of a move from ``legal_moves``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from companion import village as v
from companion.bags import draw_with_rng
from companion.sim import random_games as simulate


def _pick(st: v.GameState, rng: random.Random) -> v.Action:
    """As `companion.sim.random_games.random_legal`, without the record form (as python-chess)."""
    spec = v.chance_spec(st)
    if spec is not None:
        return v.parse_action(draw_with_rng(spec, rng))
    return rng.choice(v.legal_actions(st))


def engine_steps(
    seconds: float, rng: random.Random, modules: tuple[str, ...] = ()
) -> tuple[int, float]:
    played = 0
    start = time.perf_counter()
    board = v.load_board()
    game = 0
    while time.perf_counter() - start < seconds:
        st = v.new_game(["red", "yellow", "blue", "white"][: 2 + game % 3], board, modules=modules)
        game += 1
        for _ in simulate.steps(st, _pick, rng, apply=v.apply_unchecked, limit=None):
            played += 1
    return played, time.perf_counter() - start


def chess_steps(seconds: float, rng: random.Random) -> tuple[int, float]:
    import chess

    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        board = chess.Board()
        while board.halfmove_clock < 100 and board.ply() < 400:
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            steps += 1
    return steps, time.perf_counter() - start


def bench(seconds: float = 5.0, seed: int = 1, modules: tuple[str, ...] = ()) -> dict[str, Any]:
    e_steps, e_time = engine_steps(seconds, random.Random(seed), modules)
    c_steps, c_time = chess_steps(seconds, random.Random(seed))
    e_us = e_time / e_steps * 1e6
    c_us = c_time / c_steps * 1e6
    return {
        "engine_steps": e_steps,
        "engine_us_per_step": round(e_us, 2),
        "chess_steps": c_steps,
        "chess_us_per_step": round(c_us, 2),
        "ratio": round(e_us / c_us, 3),
        "seconds_each": seconds,
        "modules": list(modules),
    }
