"""What differs from the empty board in figure zones and item regions, given the light on
each sample (a part of `vision.read_pieces`' reading, with the empty-board model).

A region's light is one gain per channel (`vision.region_light`); the test itself is
per sample, so the zones of a board can be tested at once, each sample under its own
zone's gain: the same numbers as zone by zone, without a few dozen small array
operations per zone (a city zone holds 250-1,400 samples, too few for numpy's cost per
call to vanish)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .read_parts import (
    BOARD_TOL,
    DEEP_SHADOW,
    LIFTED_SPREAD,
    PALE_PIECE,
    SHADOW_MAX,
    SHADOW_MIN,
    SHADOW_SPREAD,
    _max3,
    _mean3,
    _min3,
    per_channel,
    within,
)


class Differs(NamedTuple):
    """Per sample: a piece (neither the board nor the board in shadow); its difference
    from the empty board under this light (n×3); the board in shadow; that shadow deeper
    than a room's (``DEEP_SHADOW``); its light against the empty board's (the region's
    as 1)."""

    piece: np.ndarray
    diff: np.ndarray
    dark: np.ndarray
    deep: np.ndarray
    level: np.ndarray


def differs(raw: np.ndarray, cur: np.ndarray, ratio: np.ndarray,
            empty: tuple[np.ndarray, np.ndarray, np.ndarray], gain: np.ndarray,
            white: np.ndarray | None) -> Differs:
    """The test of `PieceReading._differs` for samples ``raw`` (n×3 uint8; ``cur`` them
    as float +1, ``ratio`` that over the empty board's ``empty[0]``) against their empty
    board (``empty``: the board, its 3×3 darkest and lightest, n×3 each), under the light
    ``gain`` (3 channels, or n×3: each sample its region's) and the markers' white gain
    ``white`` (None: unknown). The board brightened evenly is no piece (a shadow gone
    since the empty board was learnt) unless the sample is white under that white paper
    (``PALE_PIECE``). Raises ValueError if the shapes do not broadcast."""
    ref, lo, hi = empty
    board_like = within(cur, per_channel(np.multiply, lo, gain) - BOARD_TOL,
                        per_channel(np.multiply, hi, gain) + BOARD_TOL)
    rel = per_channel(np.divide, ratio, gain)
    rmax, rmin = _max3(rel), _min3(rel)
    shadow = (rmax < SHADOW_MAX) & (rmin > SHADOW_MIN) & (rmax < SHADOW_SPREAD * rmin)
    # the board brightened evenly where a shadow lay when the empty board was learnt
    # (as for cubes), unless the sample is white under the markers' white paper: a
    # white figure or a scroll on a pale print is that print brightened evenly too
    # (``PALE_PIECE`` was set under the white ring's gain: items keep it here too)
    lifted = ((rmin > 1 / SHADOW_MAX) & (rmax < 1 / SHADOW_MIN)
              & (rmax < LIFTED_SPREAD * rmin) & ~board_like)  # (the board is no piece)
    if white is not None and lifted.any():
        lifted &= _min3(raw.astype(np.float32) * white) < PALE_PIECE
    piece = ~board_like & ~shadow & ~lifted
    dark = shadow & ~board_like
    return Differs(piece, cur - per_channel(np.multiply, ref, gain), dark,
                   dark & (rmax < DEEP_SHADOW), _mean3(rel))
