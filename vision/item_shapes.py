"""What an item's shape tells where its colour does not: the ox tile, dark as a shadow, is
a flat patch of a tile's size (``flat_dark_pieces``)."""

from __future__ import annotations

import cv2
import numpy as np

# a dark patch reaching an item region's edge is a piece (an ox tile laid across it) when
# this share of it is darker than a room's shadow leaves the board (``DEEP_SHADOW``); on
# the real-hard renders a blurred ox is 0.43-0.44 so; no ox was seen where none lay over
# the 576 item regions of seeds 1-3 (real-ordinary and real-hard, 4 contents a table)
DEEP_SHARE = 0.35
# a flat piece's outline is a step: the camera's blur (σ ≤ 3 px) softens it over a few
# millimetres, where a room's shadow fades over centimetres (a lamp some 10 cm across,
# a person's arm or body half a metre above the table). A dark patch whose inside is lit
# at more than STEP_SHARE of the board 3-4 samples (4.5-6 mm) beyond its outline is a
# shadow's fading, cut off where it crossed the "shadow" threshold, not a tile. On the
# real-hard renders of seed 1: oxen 0.41-0.44 of the board around them, the fading
# edge of a room's shadow across an empty goods region (read as five coins) 0.92
STEP_SHARE = 0.7
STEP_NEAR, STEP_FAR = 2, 4  # the ring beyond the outline: from this many samples to that


def flat_dark_pieces(shadow: np.ndarray, one: float, deep: np.ndarray | None = None,
                     tile: float | None = None, level: np.ndarray | None = None,
                     others: np.ndarray | None = None) -> np.ndarray:
    """The patches of ``shadow`` (a grid of booleans) that are dark pieces: what lies in
    an item region is flat (a tile or a coin 2–3 mm thick casts a shadow no wider than
    that: a rim that a 3×3 opening removes), so a patch of "shadow" that survives the
    opening, clear of the grid's edge (a figure or a cube outside the region casts
    farther), half a piece (``one`` samples: the smallest) to four tiles (``tile``, else
    four of ``one``: the ox is a tile, and two touching are over four grain sacks; a
    room's soft shadow is larger) large, is a piece the colour of a shadow (the ox tile).
    A patch reaching the edge is one too when ``DEEP_SHARE`` of it is ``deep`` (darker than
    a room's shadow leaves the board, ``DEEP_SHADOW``: a cast shadow keeps the light the
    room sends from elsewhere): a tile laid across the region's edge (the ox was missed
    so on 4 of 72 real-ordinary farms). With ``level`` (each sample's light against the
    empty board's, 1 = lit as the region), a patch is a piece only when its outline is a
    step (``STEP_SHARE``), measured on the board beyond it (not ``others``: the samples
    of other pieces)."""
    out = np.zeros(shadow.shape, bool)
    if not shadow.any():
        return out
    sh = cv2.morphologyEx(shadow.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    k, lab, stats, _c = cv2.connectedComponentsWithStats(sh, connectivity=8)
    h, w = shadow.shape
    for i in range(1, k):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if not 0.5 * one <= area <= 4 * (tile or one):
            continue
        here = lab == i
        edge = x == 0 or y == 0 or x + bw >= w or y + bh >= h
        if edge and (deep is None or np.count_nonzero(deep[here]) < DEEP_SHARE * area):
            continue
        if level is not None and not _a_step(here, level, others):
            continue
        out |= here
    return out


def _a_step(here: np.ndarray, level: np.ndarray, others: np.ndarray | None) -> bool:
    """Whether patch ``here`` is lit at no more than ``STEP_SHARE`` of the board just
    beyond its outline (True when no board lies there to tell)."""
    h8 = here.astype(np.uint8)
    far = cv2.dilate(h8, np.ones((2 * STEP_FAR + 1,) * 2, np.uint8)) > 0
    near = cv2.dilate(h8, np.ones((2 * STEP_NEAR + 1,) * 2, np.uint8)) > 0
    ring = far & ~near
    if others is not None:
        ring &= ~others
    if np.count_nonzero(ring) < 8:
        return True
    return bool(np.median(level[here]) <= STEP_SHARE * np.median(level[ring]))
