"""The rectified board with the layout drawn over it (calibration page and CLI)."""

from __future__ import annotations

import cv2
import numpy as np

from .layout import Board

KIND_COLOUR = {"cubes": (0, 200, 255), "track": (255, 160, 0), "zone": (180, 180, 180),
               "area": (120, 120, 120)}


def rectify(frame: np.ndarray, hom: np.ndarray, board: Board, px_per_mm: float) -> np.ndarray:
    """The board seen from straight above, ``px_per_mm`` pixels per board millimetre."""
    scale = np.diag([px_per_mm, px_per_mm, 1.0])
    size = (int(board.size_mm[0] * px_per_mm), int(board.size_mm[1] * px_per_mm))
    out: np.ndarray = cv2.warpPerspective(frame, scale @ np.linalg.inv(hom), size)
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
