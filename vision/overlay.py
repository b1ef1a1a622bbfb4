"""The rectified board with the layout drawn over it (calibration page and CLI)."""

from __future__ import annotations

import cv2
import numpy as np

from .geometry import project
from .layout import Board
from .lens import Lens

KIND_COLOUR = {"cubes": (0, 200, 255), "track": (255, 160, 0), "zone": (180, 180, 180),
               "area": (120, 120, 120)}


def rectify(frame: np.ndarray, hom: np.ndarray, board: Board, px_per_mm: float,
            lens: Lens | None = None) -> np.ndarray:
    """The board seen from straight above, ``px_per_mm`` pixels per board millimetre (the
    lens's distortion removed when it is calibrated)."""
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    size = (int(board.size_mm[0] * px_per_mm), int(board.size_mm[1] * px_per_mm))
    if lens is None:
        out: np.ndarray = cv2.warpPerspective(frame, scale @ np.linalg.inv(hom), size)
        return out
    xs = (np.arange(size[0], dtype=np.float32) + 0.5) / px_per_mm
    ys = (np.arange(size[1], dtype=np.float32) + 0.5) / px_per_mm
    gx, gy = np.meshgrid(xs, ys)
    pts = project(hom, np.stack([gx.ravel(), gy.ravel()], axis=1), lens)
    m = pts.reshape(size[1], size[0], 2)
    out = cv2.remap(frame, np.ascontiguousarray(m[..., 0]), np.ascontiguousarray(m[..., 1]),
                    cv2.INTER_LINEAR)
    return out


def draw_layout(image: np.ndarray, board: Board, px_per_mm: float,
                labels: bool = True) -> np.ndarray:
    """A copy of a rectified board image with every region outlined (and named)."""
    out = image.copy()
    for r in board.regions:
        x0, y0, x1, y1 = (round(v * px_per_mm) for v in r.rect)
        colour = KIND_COLOUR[r.kind]
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, 1, cv2.LINE_AA)
        if labels and r.kind != "track":
            cv2.putText(out, r.name, (x0 + 2, y0 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.35, colour,
                        1, cv2.LINE_AA)
        elif labels and r.cell is not None and r.cell % 5 == 0:
            cv2.putText(out, str(r.cell), (x0 + 2, y0 + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                        colour, 1, cv2.LINE_AA)
    return out
