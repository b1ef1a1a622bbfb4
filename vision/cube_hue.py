"""Brown and orange cubes told apart against the empty board (a part of the cube reading
of `vision.read_pieces`, with the empty-board model)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .layout import CUBE_COLOURS

# A cube's core is its samples inside a DEEP×DEEP (half a cube)
# erosion; each is told by the mean of the core samples in the NEAR×NEAR samples (1 mm
# apart) around it; a colour is its lit top's as learnt, or that darkened to SHADES
DEEP, NEAR, SHADES = 5, 5, (0.8, 1.0)


def brown_or_orange(px: np.ndarray, labels: np.ndarray, cube: np.ndarray,
                    board_now: np.ndarray, cube_rgb: Mapping[str, Sequence[int]]
                    ) -> np.ndarray:
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
    nearest core sample (its own hue is mostly the board's). Returns the new labels.
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
    miss = []
    for rgb in (rgb_b, rgb_o):
        best = np.full(len(d), np.inf, np.float32)
        for shade in SHADES:
            q = np.array(rgb[::-1], np.float32)[None, :] * shade - b_m
            t = np.maximum((q * d).sum(axis=1) / np.maximum((d * d).sum(axis=1), 1.0), 1.0)
            best = np.minimum(best, np.linalg.norm(q - t[:, None] * d, axis=1))
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
