"""A farm's rotation from its outline, not its one marker alone (issue 16).

A farm lies in the table plane; its pose there (``geometry._rigid``: a rotation and a
translation) comes from its one 36 mm marker mapped into the main board's plane. The
translation is steady (the marker's centre), the rotation is not: a blurred marker's
corners lie 1.5–3 px from the true ones, and a farm's far corner, 280 mm from the marker's
centre, takes eleven times the rotation's error (up to 15 px on the real-hard renders).
The farm's own edges are 200 and 250 mm long: turned about the marker's centre, the
outline that separates the farm from what lies around it best (the mean grey difference
between points just inside and just outside its four edges) gives the rotation.
"""

from __future__ import annotations

import cv2
import numpy as np

from .lens import Lens

STEP_MM = 4.0  # between points along an edge
AWAY_MM = 3.0  # inside and outside an edge: clear of the edge's blur at 1 px/mm
# rotations tried about the marker's centre: every COARSE_DEG, then every STEP_DEG
# about the best
SPAN_DEG, COARSE_DEG, STEP_DEG = 4.0, 0.5, 0.1
MIN_CONTRAST = 10.0  # grey levels: an outline fainter than this says nothing (hands, table)


def _edge_points(size: tuple[float, float], inset: float) -> tuple[np.ndarray, np.ndarray]:
    """Points along the four edges of a w×h board, ``AWAY_MM`` inside and outside, the
    corners' ``inset`` mm left out (n×2 each, board mm)."""
    w, h = size
    ins, outs = [], []
    for (x0, y0), (x1, y1), (nx, ny) in (((0, 0), (w, 0), (0, 1)), ((w, 0), (w, h), (-1, 0)),
                                         ((w, h), (0, h), (0, -1)), ((0, h), (0, 0), (1, 0))):
        length = float(np.hypot(x1 - x0, y1 - y0))
        s = np.arange(inset, length - inset, STEP_MM, dtype=np.float64) / length
        px, py = x0 + (x1 - x0) * s, y0 + (y1 - y0) * s
        ins.append(np.stack([px + nx * AWAY_MM, py + ny * AWAY_MM], axis=1))
        outs.append(np.stack([px - nx * AWAY_MM, py - ny * AWAY_MM], axis=1))
    return np.concatenate(ins), np.concatenate(outs)


def _turn(centre: np.ndarray, deg: float) -> np.ndarray:
    """Rotation by ``deg`` about ``centre`` (board mm), 3×3."""
    c, s = np.cos(np.radians(deg)), np.sin(np.radians(deg))
    cx, cy = centre
    return np.array([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy], [0, 0, 1]])


def refine_rotation(gray: np.ndarray, main: np.ndarray, rigid: np.ndarray,
                    size: tuple[float, float], centre: tuple[float, float],
                    lens: Lens | None, inset: float = 50.0
                    ) -> tuple[np.ndarray, float, float]:
    """The farm's pose in the main board's plane (3×3, farm mm -> main mm) turned about
    the marker's ``centre`` (farm mm) to where its outline shows best, the turn (degrees)
    and the outline's contrast there (mean grey difference across the edges). ``main``:
    the main board's homography (mm -> ideal pixels); ``inset``: mm left out at each
    corner (the marker's corner, and corners where another board may lie close). When
    the outline is fainter than ``MIN_CONTRAST`` the pose is returned unturned."""
    inside, outside = _edge_points(size, inset)
    sides = np.concatenate([inside, outside])
    homog = np.concatenate([sides, np.ones((len(sides), 1))], axis=1)  # 2n×3
    c = np.asarray(centre, np.float64)
    n = len(inside)

    def contrast(turns: np.ndarray) -> np.ndarray:
        homs = np.stack([main @ rigid @ _turn(c, float(d)) for d in turns])
        p = np.einsum("tij,nj->tni", homs, homog)
        p = (p[..., :2] / p[..., 2:]).reshape(-1, 2)
        if lens is not None:
            p = lens.distort(p)
        p = p.reshape(len(turns) * 2, n, 2).astype(np.float32)  # a row per turn and side
        vals = cv2.remap(gray, p[..., 0].copy(), p[..., 1].copy(), cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_REFLECT).astype(np.float32)
        vals = vals.reshape(len(turns), 2, n)
        out: np.ndarray = np.abs(vals[:, 0] - vals[:, 1]).mean(axis=1)
        return out

    # coarse, then fine about the best coarse turn
    coarse = np.arange(-SPAN_DEG, SPAN_DEG + COARSE_DEG / 2, COARSE_DEG)
    got = contrast(coarse)
    mid = float(coarse[int(got.argmax())])
    fine = mid + np.arange(-COARSE_DEG, COARSE_DEG + STEP_DEG / 2, STEP_DEG)
    got = contrast(fine)
    best = int(got.argmax())
    if got[best] < MIN_CONTRAST:
        return rigid, 0.0, float(got[best])
    return rigid @ _turn(c, float(fine[best])), float(fine[best]), float(got[best])
