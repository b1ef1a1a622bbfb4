"""A dark cube told from a shadow (a part of `vision.read_cubes`' cube reading, with the
empty-board model).

A shadow is the board darkened evenly: its channels keep the board's proportions (its
hue). The reader takes a sample whose channels' ratios to the empty board lie within
``SHADOW_SPREAD`` (×1.45) of each other for a shadow. A brown cube on a print of nearly
its hue (the harvest space's olive and ochre artwork, under a warm lamp) passes that test
too: RGB 124, 70, 34 where the board is 232, 196, 94, ratios 0.53, 0.36, 0.37, a spread of
1.46 at its middle and less where blur mixes it with its own shadow beside it; lone brown
cubes were missed whole. But the shadow keeps the board's hue exactly (its ratios 0.50,
0.51, 0.50 beside that cube), and the cube has its own: a sample taken for a shadow is a
piece when its hue (averaged over 3×3 samples: a dim frame's noise) lies clearly nearer
a cube colour's, as that colour would look on this board under this light (the colour
learnt under the markers' white paper, over the board under the same light), than the
board's own (``HUE_MARGIN``). Black is left out: it has no hue to compare, and a
black cube is darker than any shadow the reader allows (``SHADOW_MIN``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .layout import CUBE_COLOURS

HUED = tuple(c for c in CUBE_COLOURS if c != "plague")  # cube colours with a hue
HUE_MARGIN = 0.75  # a cube's hue must lie this much nearer than the board's
# a "shadow" whose channels' ratios (averaged) lie within this of each other has the
# board's hue within ~0.05 and is not tested (a cube that near the board's hue is not told)
UNEVEN = 1.15


def _unit(a: np.ndarray) -> np.ndarray:
    out: np.ndarray = a / np.maximum(a.sum(axis=-1, keepdims=True), 1e-6)
    return out


def smooth(rel: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Each sample's ratios averaged over its 3×3 neighbours (flat n×3 in and out, on the
    region's grid of ``shape``): a dim frame's noise and a JPEG's blocks change a dark
    sample's hue at random."""
    out: np.ndarray = cv2.blur(rel.reshape(*shape, 3).astype(np.float32), (3, 3)).reshape(-1, 3)
    return out


def cube_hued(rel: np.ndarray, board: np.ndarray, white: np.ndarray,
              cube_rgb: Mapping[str, Sequence[int]]) -> np.ndarray:
    """Which samples (flat: their ratios ``rel`` to the empty board under this frame's
    light, n×3 BGR, best averaged by `smooth`; ``board`` that empty board under this
    light, n×3) have a hue nearer a cube colour's (``cube_rgb``, under the markers' white
    gain ``white``, BGR) than ``HUE_MARGIN`` times the board's. Returns a flat boolean
    array."""
    h = _unit(np.maximum(rel, 1e-3))
    d_board = np.abs(h - np.float32(1 / 3)).sum(axis=1)
    best = np.full(len(rel), np.inf, np.float32)
    for c in HUED:
        seen = np.array(cube_rgb[c][::-1], np.float32) / np.maximum(white, 1e-3)
        hc = _unit(seen[None, :] / np.maximum(board, 1.0))
        best = np.minimum(best, np.abs(h - hc).sum(axis=1))
    out: np.ndarray = best < HUE_MARGIN * d_board
    return out
