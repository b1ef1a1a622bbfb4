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


def flat_dark_pieces(shadow: np.ndarray, one: float, deep: np.ndarray | None = None,
                      tile: float | None = None) -> np.ndarray:
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
    so on 4 of 72 real-ordinary farms)."""
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
        out |= here
    return out
