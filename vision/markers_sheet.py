"""One printable sheet (A4 at 300 dpi, PNG) with every marker at its true size.

Print at 100 % (no "fit to page"); the 100 mm ruler on the sheet checks the scale. Each
marker is labelled with its id and where it goes: ids 0–3 on the main board's corners
(0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, as the layout places them),
10–13 on the farms (red, yellow, blue, white) at the farm's top-left corner.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .geometry import DICTIONARY
from .layout import Layout

DPI = 300
A4_MM = (210.0, 297.0)
MARGIN_MM = 5.0  # white quiet zone printed around each marker (cut along the outer line)


def _px(mm: float) -> int:
    return round(mm / 25.4 * DPI)


def sheet(layout: Layout) -> np.ndarray:
    """The sheet as a grey image (A4 portrait, 300 dpi)."""
    w, h = _px(A4_MM[0]), _px(A4_MM[1])
    img = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    font = cv2.FONT_HERSHEY_SIMPLEX
    cv2.putText(img, "Village companion - camera markers (print at 100 %, 300 dpi)",
                (_px(12), _px(14)), font, 1.3, 0, 3, cv2.LINE_AA)
    cv2.line(img, (_px(12), _px(22)), (_px(112), _px(22)), 0, 4)
    cv2.putText(img, "100 mm", (_px(116), _px(24)), font, 1.0, 0, 2, cv2.LINE_AA)
    where = {0: "main: top-left", 1: "main: top-right", 2: "main: bottom-right",
             3: "main: bottom-left"}
    for colour, board in layout.boards.items():
        if colour.startswith("farm:"):
            for mid in board.markers:
                where[mid] = f"{colour}: top-left"
    x, y = _px(12), _px(34)
    row_h = 0
    for name, board in layout.boards.items():
        for mid, _pos in sorted(board.markers.items()):
            side = _px(board.marker_mm)
            margin = _px(MARGIN_MM)
            box = side + 2 * margin
            if x + box > w - _px(10):
                x, y = _px(12), y + row_h + _px(14)
                row_h = 0
            cv2.rectangle(img, (x, y), (x + box, y + box), 160, 1)
            img[y + margin:y + margin + side, x + margin:x + margin + side] = \
                cv2.aruco.generateImageMarker(dictionary, mid, side)
            label = f"id {mid}  {board.marker_mm:g} mm  {where.get(mid, name)}"
            cv2.putText(img, label, (x, y + box + _px(5)), font, 0.75, 0, 2, cv2.LINE_AA)
            x += max(box, _px(58)) + _px(8)
            row_h = max(row_h, box)
    return img


def write_sheet(layout: Layout, path: Path) -> Path:
    """Write the sheet as PNG; raises OSError if it cannot be written."""
    if not cv2.imwrite(str(path), sheet(layout)):
        raise OSError(f"cannot write {path}")
    return path
