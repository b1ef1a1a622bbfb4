"""A cube's blurred rim is no strange thing (a part of `vision.read_cubes`' cube reading,
with the empty-board model and the markers' white).

Something in a cube region that is neither the board, a shadow nor a cube colour (a
coin, a figure, a sleeve) as large as half a cube makes the region uncertain. But the
camera's blur and JPEG's colour subsampling mix each cube with the board around it: a
band a few samples wide whose colour lies between the board's and the cube's, and which
the colour table reads as no cube (a pink cube on the green farm blurs into a pale grey
pink read as a white or yellow figure; four lone cubes seen through a 90° lens made the
yellow farm's supply uncertain, 136 such samples where half a cube is 111). Blur is a
mixture: a rim sample lies on the segment from the empty board (as lit in this frame)
to the cube's colour, lit or in shade (its sides turned from the lamp,
``cube_hidden.SIDE_SHADES``). So a sample within ``REACH`` samples of a cube's samples
that lies within ``MIX_LEVELS`` of such a segment, for a colour seen within that reach,
is that cube's rim. A coin beside a cube is not: its grey lies far from any mixture of
the board and the cube's colour.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .cube_hidden import SIDE_SHADES
from .layout import CUBE_COLOURS

REACH = 5  # samples (1 mm): the blur and JPEG's colour bleed around a cube
# levels: how far a rim sample may lie from a mixture of the board and the cube (the
# camera's noise and JPEG's, as the board's own tolerance)
MIX_LEVELS = 24.0


def _off_mixture(seen: np.ndarray, board: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """How far (levels) each of ``seen`` (n×3) lies from the nearest mixture of its
    ``board`` (n×3) with ``colour`` (3,) lit or darkened as a side in shade."""
    best = np.full(seen.shape[0], np.inf, np.float32)
    rel = seen - board
    for f in (*SIDE_SHADES, 1.0):
        d = colour * f - board
        t = np.clip((rel * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1e-6), 0.0, 1.0)
        off = np.sqrt(((rel - t[:, None] * d) ** 2).sum(axis=1))
        np.minimum(best, off, out=best)
    return best


def cube_rims(strange: np.ndarray, cube: np.ndarray, labels: np.ndarray, lit: np.ndarray,
              under: np.ndarray, cube_rgb: Mapping[str, Sequence[int]]) -> np.ndarray:
    """Which of the ``strange`` samples (a boolean grid) are a cube's rim (module
    docstring): ``cube`` the region's cube samples (a grid, nonzero on a cube),
    ``labels`` its colour labels (1… the cube colours), ``lit`` its samples and ``under``
    the empty board as lit in this frame (both flat BGR, under the markers' white).
    A boolean grid of the shape of ``strange``. Raises nothing."""
    out = np.zeros(strange.shape, bool)
    if not strange.any():
        return out
    kernel = np.ones((2 * REACH + 1, 2 * REACH + 1), np.uint8)
    flat = strange.ravel()
    for j, name in enumerate(CUBE_COLOURS, start=1):
        mine = ((cube > 0) & (labels == j)).astype(np.uint8)
        if not mine.any():
            continue
        near = (cv2.dilate(mine, kernel) > 0).ravel() & flat & ~out.ravel()
        at = np.flatnonzero(near)
        if not at.size:
            continue
        colour = np.array(cube_rgb[name][::-1], np.float32)
        off = _off_mixture(lit[at].astype(np.float32), under[at].astype(np.float32), colour)
        out.ravel()[at[off <= MIX_LEVELS]] = True
    return out
