"""Brown and orange cubes told apart against the empty board (a part of the cube reading
of `vision.read_cubes`, with the empty-board model)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .layout import CUBE_COLOURS
from .read_parts import _mean3, _sum3

# A cube's core is its samples inside a DEEP×DEEP (half a cube)
# erosion; each is told by the mean of the core samples in the NEAR×NEAR samples (1 mm
# apart) around it; a colour is its lit top's as learnt, or that darkened to SHADES
DEEP, NEAR, SHADES = 5, 5, (0.8, 1.0)
# the light on a cube is the board's around it (`local_light`, over LIGHT_NEAR×LIGHT_NEAR
# samples: 3 cubes); a cube in a shadow is its colour darkened as the board around it is,
# against the light on most of its board, whose markers' white paper sets the colours'
# light (never below DARKEST)
LIGHT_NEAR, DARKEST = 31, 0.3
# a cube is taken to lie in a shadow when its light is below SHADOWED of its board's
# (the light's fall-off across a board dims a region by less)
SHADOWED = 0.85


def local_light(raw: np.ndarray, ref: np.ndarray, board: np.ndarray) -> np.ndarray:
    """This frame's light level against the empty board at each sample of a region
    (``raw`` and ``ref`` flat BGR; ``board``, grid-shaped, where the board or the board
    in shadow is seen): the brightest of the board's levels (each the mean over 3×3)
    within ``LIGHT_NEAR``, so a cube's own small shadow beside it is not its light, a
    cast shadow larger than that is. The region's median where no board sample lies
    near. Returns a flat array."""
    level = _mean3((raw.astype(np.float32) + 1.0) / ref).reshape(board.shape)
    w = board.astype(np.float32)
    num = cv2.boxFilter(level * w, -1, (3, 3), normalize=False)
    den = cv2.boxFilter(w, -1, (3, 3), normalize=False)
    mean = np.where(den > 4.5, num / np.maximum(den, 1e-3), 0.0).astype(np.float32)
    out = cv2.dilate(mean, np.ones((LIGHT_NEAR, LIGHT_NEAR), np.uint8))
    bare = out <= 0
    if not bare.any():  # (the median below is the costly part: taken only when needed)
        return out.reshape(-1)
    fallback = float(np.median(level[board])) if board.any() else float(np.median(level))
    return np.where(bare, fallback, out).reshape(-1)


def brown_or_orange(px: np.ndarray, labels: np.ndarray, cube: np.ndarray,
                    board_now: np.ndarray, cube_rgb: Mapping[str, Sequence[int]],
                    shade: np.ndarray | None = None) -> np.ndarray:
    """Brown and orange told apart against the empty board (BGR ``px`` and the empty
    board ``board_now``, both under the markers' white; the region's ``labels`` grid,
    its ``cube`` samples). Blur and JPEG's colour blur mix a cube with the board under
    and around it: a brown cube's samples, paled, lie nearer the orange side's colour
    than brown's (on real-hard's dim JPEG-60 renders, RGB ~140, 95, 70 against brown
    learnt as 91, 55, 45), so the colour table reads them orange. A mixture lies on
    the line from the board through the cube's colour, so the cube's colour lies on
    the ray from the board through what is seen, beyond it: each core sample
    (``DEEP``; the mean around it, ``NEAR``) is the colour, lit or half lit
    (``SHADES``), nearest that ray. A rim sample labelled either takes the label of the
    nearest core sample (its own hue is mostly the board's). A cube under a cast shadow
    is its colour darkened as the board around it is (``shade``, flat, the light at each
    sample against the frame's, ``local_light`` over the light on the
    board's markers; 1 where None): an
    orange cube in a shadow of 0.55 is darker than brown as learnt, and was read brown.
    Returns the new labels.
    """
    brown, orange = CUBE_COLOURS.index("brown") + 1, CUBE_COLOURS.index("orange") + 1
    either = ((labels == brown) | (labels == orange)) & (cube > 0)
    inner = either & (cv2.erode(cube, np.ones((DEEP, DEEP), np.uint8)) > 0)
    if not inner.any():
        inner = either & (cv2.erode(cube, np.ones((3, 3), np.uint8)) > 0)
    if not inner.any():
        return labels
    rgb_b, rgb_o = cube_rgb["brown"], cube_rgb["orange"]
    # only the cubes' bounding box (and the window's reach) is worked on
    ys, xs = np.nonzero(either)
    m = NEAR // 2 + 1
    box = (slice(max(0, ys.min() - m), ys.max() + m + 1),
           slice(max(0, xs.min() - m), xs.max() + m + 1))
    inner_b = inner[box]
    w = inner_b.astype(np.float32)
    k = (NEAR, NEAR)
    norm = np.maximum(cv2.boxFilter(w, -1, k, normalize=False), 1e-3)[inner_b][:, None]
    seen = px.reshape(*labels.shape, 3)[box].astype(np.float32)
    under = board_now.reshape(*labels.shape, 3)[box].astype(np.float32)
    s_m = cv2.boxFilter(seen * w[..., None], -1, k, normalize=False)[inner_b] / norm
    b_m = cv2.boxFilter(under * w[..., None], -1, k, normalize=False)[inner_b] / norm
    d = s_m - b_m
    dim = (np.ones(len(d), np.float32) if shade is None else
           np.clip(shade.reshape(labels.shape)[box][inner_b], DARKEST, 1.0))[:, None]
    dim[dim > SHADOWED] = 1.0
    miss = []
    dd = np.maximum(_sum3(d * d), 1.0)
    for rgb in (rgb_b, rgb_o):
        best = np.full(len(d), np.inf, np.float32)
        for face in SHADES:
            q = np.array(rgb[::-1], np.float32)[None, :] * (dim * face) - b_m
            t = np.maximum(_sum3(q * d) / dd, 1.0)
            off = q - t[:, None] * d
            best = np.minimum(best, np.sqrt(_sum3(off * off)))
        miss.append(best)
    is_brown = np.zeros(inner_b.shape, bool)
    is_brown[inner_b] = miss[0] < miss[1]
    out = labels.copy()
    out_b = out[box]  # a view: written through
    out_b[inner_b] = np.where(is_brown[inner_b], brown, orange)
    rim = either[box] & ~inner_b
    if rim.any():
        far_b = cv2.distanceTransform((~(inner_b & is_brown)).astype(np.uint8), cv2.DIST_L2, 3)
        far_o = cv2.distanceTransform((~(inner_b & ~is_brown)).astype(np.uint8), cv2.DIST_L2, 3)
        out_b[rim] = np.where(far_b[rim] < far_o[rim], brown, orange)
    return out
