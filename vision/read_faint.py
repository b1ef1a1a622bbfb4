"""Items too faint for the board's tolerance, found by their colour's change over a piece.

In dim light, through blur and a strong JPEG, a grey coin on a green farm differs from the
empty board by 10–20 levels a channel (the board's tolerance, ``BOARD_TOL``, is 22: the
camera's noise and a pixel of misregistration reach that). But a piece changes the
board's *colour* the same way over its whole area, where noise and misregistration
change it at random or along an edge, and a shadow (a room's, or one that has moved since
the empty board was learnt) changes only its level. So each sample's log ratio to the
empty board, its mean over the channels taken away (what is left is the change of
colour, not of light), is averaged over a 7×7 box (10 mm at the item regions' 1.5 mm
step: a coin is 15 mm): a patch whose averaged change of colour exceeds ``FAINT_CHROMA``
away from what was already found is a piece. Measured on 5 real-hard renders (each
farm's item region empty, then with 3 coins; 19 regions learnt empty): the highest peak
of an empty region 0.05–0.19, the three highest of a region with coins 0.18–0.42 (53 of
57 above 0.23).
"""

from __future__ import annotations

import cv2
import numpy as np

from .read_parts import _mean3, _sum3, median0, per_channel

FAINT_CHROMA = 0.21  # averaged change of colour (log ratio) that is a piece
LEVEL_WEIGHT = 0.25  # a change of level against one of colour, when telling kinds
FAINT_BOX = 7  # samples averaged (7 × 1.5 mm)
# a patch's middle lies this many samples clear of what was found (its colour spreads 3
# through the box, and 2 by blur), and FAINT_EDGE clear of the region's edge (its printed
# border, a pixel off, changes the colour along it)
FAINT_CLEAR, FAINT_EDGE = 4, 3
# the least share of a kind's change of colour a patch may be (what blur and the box left
# of it): a piece 12-16 mm wide keeps most of its change at its middle through a 10.5 mm
# box and the camera's blur. Measured on the real-hard renders of seed 1 (a floor of 0.2):
# the patches read as ploughs, all where no plough lay, at 0.20-0.32; coins rightly
# found at 0.35-1.0 (16 of 25 above 0.6), grain at 0.2-0.62, still nearest once floored
FAINT_KEEP = 0.6


def faint_pieces(raw: np.ndarray, ref: np.ndarray, shape: tuple[int, int],
                 found: np.ndarray, white: np.ndarray, rgb: list[tuple[int, int, int]]
                 ) -> dict[int, int]:
    """Pieces (by index into ``rgb``: each kind's colour, RGB) found only by their change
    of colour: ``raw`` the region's samples (n×3 BGR), ``ref`` its empty board (n×3, +1 as
    the reader keeps it), ``found`` the samples already taken by a piece (grid),
    ``white`` the gain that makes the markers' paper white. Each patch is the kind whose
    change of colour and level from the board (under the markers' white) it is nearest
    to, weakened by blur as it may be, and counts its peaks: each piece (12-16 mm, more
    than the 10.5 mm box) makes its own maximum of the box's average, where the area
    above half a patch's peak grows with the blur and the light's unevenness (one coin's
    71-184 samples on the real-hard renders of seed 1, against 78 for a coin)."""
    cur = raw.astype(np.float32) + 1.0
    lr = np.log(cur / ref)
    light_log = median0(lr)  # this frame's light against the empty board's
    lr = per_channel(np.subtract, lr, light_log)
    chroma = lr - _mean3(lr)[:, None]
    box = (FAINT_BOX, FAINT_BOX)
    sm = cv2.blur(chroma.reshape(*shape, 3), box)
    mag = np.sqrt(_sum3(sm * sm))
    f8 = found.astype(np.uint8)
    clear = cv2.dilate(f8, np.ones((2 * FAINT_CLEAR + 1,) * 2, np.uint8)) == 0
    apart = cv2.dilate(f8, np.ones((3, 3), np.uint8)) == 0
    e = FAINT_EDGE
    inner = np.zeros(shape, bool)
    inner[e:-e, e:-e] = True
    core = (mag > FAINT_CHROMA) & inner & clear
    if not core.any():
        return {}
    k, lab, _stats, _c = cv2.connectedComponentsWithStats(core.astype(np.uint8), connectivity=8)
    level = cv2.blur(lr.reshape(*shape, 3), box)
    # the empty board under this frame's light and the markers' white (``board_rgb`` is
    # that gain): each kind's change of colour and level from it is what a piece makes
    light = np.exp(light_log)
    board = per_channel(np.multiply, per_channel(np.multiply, ref, light), white).reshape(
        *shape, 3)
    proto = np.log(np.array([c[::-1] for c in rgb], np.float32) + 1.0)  # BGR
    peaks = core & (mag >= cv2.dilate(mag, np.ones(box, np.uint8)))
    out: dict[int, int] = {}
    taken = np.zeros(shape, bool)
    for i in range(1, k):
        here = lab == i
        peak = np.unravel_index(np.argmax(np.where(here, mag, 0)), shape)
        if taken[peak]:
            continue  # two peaks of one patch
        half = ((mag > 0.5 * mag[peak]) & apart).astype(np.uint8)
        _n, grown, _s, _c2 = cv2.connectedComponentsWithStats(half, connectivity=8)
        patch = grown == grown[peak]
        taken |= patch
        v = level[peak]
        p = proto - np.log(np.median(board[patch], axis=0) + 1.0)
        # the nearest kind, its change scaled by how much of it the blur left
        # (``FAINT_KEEP`` to 1: a plough's strong blue weakened to a fifth matched a grey
        # coin under a white a little off); the
        # change of level weighs less (the markers' white is a few tens of % off where
        # the light falls unevenly)
        alpha = np.clip((p @ v) / np.maximum((p * p).sum(axis=1), 1e-6), FAINT_KEEP, 1.0)
        res = v[None, :] - alpha[:, None] * p
        lev = res.mean(axis=1, keepdims=True)
        j = int(np.argmin(((res - lev) ** 2).sum(axis=1) + LEVEL_WEIGHT * 3 * lev[:, 0] ** 2))
        # two pieces side by side make one patch, each with its own peak
        n = max(1, int(np.count_nonzero(peaks & patch)))
        out[j] = out.get(j, 0) + n
    return out


def found_blobs(labels: np.ndarray, one: list[float]) -> np.ndarray:
    """Where pieces were found in a grid of item labels (0 the board, i+1 kind i; ``one``
    a kind's area in samples): the blobs of pieces, not what ``count_blobs`` leaves out
    (specks, and blobs of no item's colour)."""
    fg = cv2.morphologyEx((labels != 0).astype(np.uint8), cv2.MORPH_OPEN,
                          np.ones((3, 3), np.uint8))
    k, lab, stats, _c = cv2.connectedComponentsWithStats(fg, connectivity=8)
    found = np.zeros(labels.shape, bool)
    for i in range(1, k):
        here = lab == i
        per = np.bincount(labels[here], minlength=len(one) + 1)[1:len(one) + 1]
        if per.any() and stats[i, cv2.CC_STAT_AREA] >= 0.35 * one[int(per.argmax())]:
            found |= here
    return found
