"""How much of each cube colour a sample's colour holds (a part of `vision.cube_hidden`).

A lens's blur and a JPEG's colour bleed add a bright cube's light to the samples beside
it: lights add, so a dark sample beside a pink cube is what lies there plus some pink.
A side turned from the lamp is its cube's colour darkened (`cube_hidden.SIDE_SHADES`: at
least a quarter of its top), so a sample that is a brown side holds at least a quarter
of brown once the bleed is taken out. ``unmix`` takes a colour apart into non-negative
amounts of given colours (the least squares over every subset of them, the best whose
amounts are all non-negative): a plague cube half under a pink one beside a brown one
(its core RGB 32, 21, 33) is pink's bleed on something black, with no brown in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np


def unmix(seen: np.ndarray, colours: Sequence[Sequence[float]]) -> list[float]:
    """The non-negative amounts of ``colours`` (each three channels, in ``seen``'s
    order) whose sum lies nearest ``seen`` (three channels), in ``colours``' order; all
    0 for no colours. Raises nothing."""
    n = len(colours)
    best: tuple[float, list[float]] = (float(np.linalg.norm(seen)), [0.0] * n)
    basis = np.array(colours, np.float64).reshape(n, 3).T
    target = np.asarray(seen, np.float64).reshape(3)
    for k in range(1, n + 1):
        for pick in combinations(range(n), k):
            a = basis[:, list(pick)]
            x, *_ = np.linalg.lstsq(a, target, rcond=None)
            if (x < 0).any():
                continue
            res = float(np.linalg.norm(a @ x - target))
            if res < best[0] - 1e-9:
                amounts = [0.0] * n
                for i, v in zip(pick, x, strict=True):
                    amounts[i] = float(v)
                best = (res, amounts)
    return best[1]
