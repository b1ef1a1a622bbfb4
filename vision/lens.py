"""A camera's lens: intrinsics and radial/tangential distortion (OpenCV's model).

``Lens.undistort`` takes frame pixels to where an ideal pinhole camera with the same
intrinsics would have seen them; ``Lens.distort`` goes back. The reader fits its board
homographies in the ideal pixels and samples the raw frame through ``distort``, so no
whole frame is ever undistorted. The renderer uses the same model to draw distorted
frames (``distortion_map``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

_CRITERIA = (cv2.TERM_CRITERIA_COUNT + cv2.TERM_CRITERIA_EPS, 40, 1e-7)


class LensError(ValueError):
    """A saved lens that is not one."""


@dataclass(frozen=True)
class Lens:
    """Camera matrix ``k`` (3×3), distortion ``dist`` (k1, k2, p1, p2, k3), frame size."""

    k: np.ndarray
    dist: np.ndarray
    size: tuple[int, int]  # width, height the calibration was made at
    rms: float = 0.0  # reprojection error of the calibration, px
    views: int = 0  # photos it was computed from

    @staticmethod
    def from_fov(size: tuple[int, int], hfov_deg: float, k1: float = 0.0,
                 k2: float = 0.0) -> Lens:
        """A centred lens of horizontal field of view ``hfov_deg`` and radial k1, k2."""
        w, h = size
        f = w / 2 / math.tan(math.radians(hfov_deg) / 2)
        k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]], np.float64)
        return Lens(k, np.array([k1, k2, 0, 0, 0], np.float64), size)

    def undistort(self, pts: np.ndarray) -> np.ndarray:
        """Frame pixels (n×2) -> ideal pixels (n×2, float32)."""
        src = np.asarray(pts, np.float64).reshape(-1, 1, 2)
        if not len(src):
            return np.zeros((0, 2), np.float32)
        out = cv2.undistortPoints(src, self.k, self.dist, P=self.k, criteria=_CRITERIA)
        return out.reshape(-1, 2).astype(np.float32)

    def distort(self, pts: np.ndarray) -> np.ndarray:
        """Ideal pixels (n×2) -> frame pixels (n×2, float32)."""
        p = np.asarray(pts, np.float64).reshape(-1, 2)
        if not len(p):
            return np.zeros((0, 2), np.float32)
        norm = (p - self.k[:2, 2]) / np.array([self.k[0, 0], self.k[1, 1]])
        obj = np.concatenate([norm, np.ones((len(norm), 1))], axis=1).reshape(-1, 1, 3)
        out, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), self.k, self.dist)
        return out.reshape(-1, 2).astype(np.float32)

    def hfov(self) -> float:
        """Horizontal field of view in degrees."""
        return math.degrees(2 * math.atan(self.size[0] / 2 / self.k[0, 0]))

    def to_json(self) -> dict[str, Any]:
        return {"k": [[round(float(v), 4) for v in row] for row in self.k],
                "dist": [round(float(v), 6) for v in self.dist.ravel()],
                "size": list(self.size), "rms": round(self.rms, 4), "views": self.views}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Lens:
        """Raises LensError for a form that is not a lens."""
        try:
            k = np.array(data["k"], np.float64)
            dist = np.array(data["dist"], np.float64).ravel()
            size = (int(data["size"][0]), int(data["size"][1]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise LensError(f"not a lens: {exc}") from None
        if k.shape != (3, 3) or len(dist) not in (4, 5, 8, 12, 14) or k[0, 0] <= 0:
            raise LensError("not a lens: k is 3×3 with a positive focal length, dist 4–14 values")
        return Lens(k, dist, size, float(data.get("rms", 0.0)), int(data.get("views", 0)))


_MAPS: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}


def distortion_map(lens: Lens) -> tuple[np.ndarray, np.ndarray]:
    """For ``cv2.remap``: each frame pixel's place in the ideal image (cached per lens)."""
    key = lens.k.tobytes() + lens.dist.tobytes() + bytes(str(lens.size), "ascii")
    hit = _MAPS.get(key)
    if hit is not None:
        return hit
    w, h = lens.size
    step = 4  # the map is smooth: computed every 4 px, then interpolated
    xs = np.arange(0, w + step, step, dtype=np.float32)
    ys = np.arange(0, h + step, step, dtype=np.float32)
    gx, gy = np.meshgrid(xs, ys)
    ideal = lens.undistort(np.stack([gx.ravel(), gy.ravel()], axis=1)).reshape(*gx.shape, 2)
    # bilinear over the coarse grid: coarse (i, j) sits at pixel (j*step, i*step)
    px = np.arange(w, dtype=np.float32) / step
    py = np.arange(h, dtype=np.float32) / step
    qx, qy = np.meshgrid(px, py)
    mx = cv2.remap(np.ascontiguousarray(ideal[..., 0]), qx, qy, cv2.INTER_LINEAR)
    my = cv2.remap(np.ascontiguousarray(ideal[..., 1]), qx, qy, cv2.INTER_LINEAR)
    if len(_MAPS) > 8:
        _MAPS.clear()
    _MAPS[key] = (mx, my)
    return mx, my


def ideal_canvas(lens: Lens) -> tuple[tuple[int, int], tuple[int, int]]:
    """((x, y) offset, (width, height)) of an ideal picture holding every point the
    distorted frame looks at: a barrel lens (k1 < 0) bends points from beyond the pinhole
    frame's edges into the picture (with the 90° lens, k1 −0.3, the frame's left column
    looks at ideal x ≈ −210 px), so a renderer that draws the ideal picture only as large
    as the frame leaves those parts of the table unseen. The offset is added to the
    ideal pixels (``distortion_map`` + offset samples the canvas)."""
    mx, my = distortion_map(lens)
    w, h = lens.size
    x0, y0 = min(0, math.floor(float(mx.min())) - 2), min(0, math.floor(float(my.min())) - 2)
    x1 = max(w, math.ceil(float(mx.max())) + 3)
    y1 = max(h, math.ceil(float(my.max())) + 3)
    return (-x0, -y0), (x1 - x0, y1 - y0)
