"""A cube told by its change of the board's colour where the board's tolerance in levels
does not see it (a part of `vision.read_cubes`' cube reading, with the empty-board
model).

The board's tolerance (``BOARD_TOL``, 22 levels a channel beyond the empty board's 3×3
darkest and lightest) is what noise, a JPEG's blocks and a pixel of misregistration
allow. In dim light a cube differs from the board by fewer levels: a pink cube on a grey
space in a frame at 0.56 of the ordinary light is RGB 97, 45, 68 where the board is 70,
69, 66, 24-27 levels a channel, and most of it passed for the board. But it changes the
board's colour (one channel up, another down), where noise changes the channels at
random and a change of light (a shadow, the lamp) changes all of them together: the
change beyond the tolerance's envelope less its mean over the channels, averaged over
3×3 samples (1 mm apart; a cube is 10), is a piece above ``TINT`` levels.

A track's disc likewise (``tinted_cells``, the cells of a board's tracks at once): a yellow
disc on a pale farm cell in a warm frame at 0.51-0.59 of the ordinary light differed
from its empty cell by less than the tolerance in every one of its samples, and three
tracks of 24 real-hard tables of seed 1 came back without their yellow disc.
"""

from __future__ import annotations

import cv2
import numpy as np

TINT = 12.0  # levels of change of colour (beyond the empty board's envelope) that count


def tinted(cur: np.ndarray, lo_g: np.ndarray, hi_g: np.ndarray, shape: tuple[int, int]
           ) -> np.ndarray:
    """Where the samples ``cur`` (flat, float BGR) change the colour of the empty board
    (its 3×3 darkest ``lo_g`` and lightest ``hi_g`` under this frame's light) by more
    than ``TINT`` levels, averaged over 3×3 (a grid of booleans of ``shape``)."""
    excess = cur - np.minimum(np.maximum(cur, lo_g), hi_g)  # 0 inside the envelope
    b, g, r = cv2.split(cv2.blur(excess.reshape(*shape, 3).astype(np.float32, copy=False),
                                 (3, 3)))
    mean = (b + g + r) * np.float32(1 / 3)
    strong: np.ndarray = ((cv2.absdiff(b, mean) > TINT) | (cv2.absdiff(g, mean) > TINT)
                          | (cv2.absdiff(r, mean) > TINT))
    return strong


def tinted_cells(cur: np.ndarray, lo_g: np.ndarray, hi_g: np.ndarray, side: int
                 ) -> np.ndarray:
    """``tinted`` for a stack of track cells (cells × side² samples, float BGR; ``lo_g``,
    ``hi_g`` the same shape): each cell averaged over 3×3 within itself (its edge
    repeated), never across into the next cell of the stack (cells × side² booleans)."""
    n = len(cur)
    excess = (cur - np.minimum(np.maximum(cur, lo_g), hi_g)).reshape(n, side, side, 3)
    box = _cell_box3(excess.astype(np.float32, copy=False))
    box *= np.float32(1 / 9)
    # (each channel on its own, the mean as numpy's over the three: the same booleans as
    # reducing over the last axis, at a fraction of its cost)
    b, g, r = box[..., 0], box[..., 1], box[..., 2]
    mean = (b + g + r) / 3
    strong: np.ndarray = ((np.abs(b - mean) > TINT) | (np.abs(g - mean) > TINT)
                          | (np.abs(r - mean) > TINT))
    return strong.reshape(n, side * side)


def faint_cells(tint: np.ndarray, beyond: np.ndarray, side: int) -> np.ndarray:
    """Of the samples ``tint`` finds (cells × side² booleans), those whose 3×3 average
    holds no sample ``beyond`` the board's tolerance: beside a piece that differs plainly
    the average carries that piece's change one sample out (its blurred rim, the pale
    mixture of a blue disc and its cell, read as a white disc), not a faint piece's own."""
    n = len(tint)
    near = _cell_box3(beyond.reshape(n, side, side).astype(np.uint8)) > 0
    out: np.ndarray = tint & ~near.reshape(n, side * side)
    return out


def _cell_box3(stack: np.ndarray) -> np.ndarray:
    """The 3×3 sum around each sample of a stack of square cells (cells × side × side,
    channels after), each cell's edge repeated: never across into the next cell."""
    side = stack.shape[1]
    # the cells with their edge repeated (rows, then columns: corners as ``np.pad``'s)
    padded = np.empty((len(stack), side + 2, side + 2, *stack.shape[3:]), stack.dtype)
    padded[:, 1:-1, 1:-1] = stack
    padded[:, 0, 1:-1], padded[:, -1, 1:-1] = stack[:, 0], stack[:, -1]
    padded[:, :, 0], padded[:, :, -1] = padded[:, :, 1], padded[:, :, -2]
    # the nine added in one order, in place (the same sums as adding them up one by one)
    out: np.ndarray = padded[:, :side, :side].copy()
    for dy in range(3):
        for dx in range(3):
            if dy or dx:
                out += padded[:, dy:dy + side, dx:dx + side]
    return out
