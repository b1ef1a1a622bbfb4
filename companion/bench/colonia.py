"""Colonia's engine speed against python-chess (``companion bench --game colonia``).

A step = list the legal actions and apply one, as ``companion bench`` counts Village's: at
a chance point describe the draw, draw, apply; at a card turned up by hand, name it (its
values, invented by the simulated box, are answered when the box asks); at a sealed choice,
every player's answer in one reveal. No invariant checks."""

from __future__ import annotations

import random
import time
from typing import Any

from companion.bench.engine import chess_steps
from companion.colonia.engine import apply
from companion.colonia.record import make_header, start
from companion.colonia.vocabulary import COLORS
from companion.sim.colonia_games import invented_box, pick


def engine_steps(seconds: float, rng: random.Random) -> tuple[int, float]:
    played, game = 0, 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        n = 2 + game % 5
        game += 1
        st = start(make_header(list(COLORS[:n]), cards=invented_box(n, rng)))
        cards: dict[str, int] = {}
        while st.step != "over":
            st = apply(st, pick(st, rng, cards))
            played += 1
    return played, time.perf_counter() - began


SLICES = 10
"""Each side runs in this many alternating slices, so a load that changes on a shared
machine weighs on both alike."""


def bench(seconds: float = 5.0, seed: int = 1) -> dict[str, Any]:
    """µs per step of each, and their ratio (Colonia / python-chess), each side given
    ``seconds`` in `SLICES` alternating slices."""
    e_rng, c_rng = random.Random(seed), random.Random(seed)
    e_steps = c_steps = 0
    e_time = c_time = 0.0
    for _ in range(SLICES):
        n, t = engine_steps(seconds / SLICES, e_rng)
        e_steps, e_time = e_steps + n, e_time + t
        n, t = chess_steps(seconds / SLICES, c_rng)
        c_steps, c_time = c_steps + n, c_time + t
    e_us, c_us = e_time / e_steps * 1e6, c_time / c_steps * 1e6
    return {"game": "colonia", "engine_steps": e_steps, "engine_us_per_step": round(e_us, 2),
            "chess_steps": c_steps, "chess_us_per_step": round(c_us, 2),
            "ratio": round(e_us / c_us, 3), "seconds_each": seconds, "slices": SLICES}
