"""Two cubes of one colour, one leaning on the other, told from a lone cube by length.

A cube leaning on another of its colour hides part of it: their blob shows 1.3–1.6 cubes
of area, which a lone cube with a bright rim or long sides reaches too (1.35 on the
real-ordinary renders of seed 5). Its length does not: the leaning cube's centre lies
0.7–0.8 of a side from the other's, so the pair is half as long again as a cube, while a
lone cube is one side long plus the reach of the sides that face the camera. The length
is four standard deviations of the blob's samples along its longest axis (1.15 sides for
a square, whatever its turn), over the length a lone cube shows here: its top's side
``√top`` and its sides' reach (``sides`` over a side's ``4/π`` average width).

Measured on 36 real-ordinary renders of seed 5 (``docs/vision.md``, « Fourteenth
session »): 539 one-colour blobs read as one cube on the action spaces, lone cubes
0.67–1.51 (those above 1.2 cubes of area: at most 1.46), the pairs 1.56–1.91.
"""

from __future__ import annotations

import numpy as np

PAIR_LONG = 1.52  # a blob this many lone cubes long (and large enough) is two
PAIR_AREA = 1.2  # ... when it also shows this many cubes of area (a lone cube: 0.6-1.35)


def elongation(blob: np.ndarray, top: float, sides: float) -> float:
    """The length of ``blob`` (a boolean grid) over a lone cube's here: ``top`` the
    samples of a cube's top face, ``sides`` those of its sides that face the camera.
    Raises ValueError for an empty blob or a non-positive ``top``."""
    if top <= 0:
        raise ValueError("a cube's top must cover some samples")
    ys, xs = np.nonzero(blob)
    if xs.size == 0:
        raise ValueError("an empty blob has no length")
    pts = np.vstack([xs, ys]).astype(np.float64)
    pts -= pts.mean(axis=1, keepdims=True)
    cov = pts @ pts.T / xs.size
    longest = float(np.linalg.eigvalsh(cov)[-1])
    side = float(np.sqrt(top))
    lone = side * (1.0 + sides / top * np.pi / 4)
    return 4.0 * float(np.sqrt(max(longest, 0.0))) / lone


def is_pair(blob: np.ndarray, cubes: float, top: float, sides: float) -> bool:
    """Whether a one-colour blob of ``cubes`` cube areas is two cubes, one leaning on the
    other (see the module's docstring). Raises ValueError as `elongation` does."""
    return cubes >= PAIR_AREA and elongation(blob, top, sides) >= PAIR_LONG
