"""A disc on a track cell near a board's edge is no hand.

The hand test (``docs/vision.md`` « How a frame is read », step 3) takes a blob of
difference that reaches a board's edge and covers 500 mm² for an arm coming from outside.
A disc's blurred rim, its shadow and the cell's printed border a pixel off differ from
the empty board, and so does the disc itself when the light takes its colour more than
20 Lab units from the colour the reader knows (a blue disc under a warm lamp: RGB 32, 73,
148): on a cell a few millimetres from the edge (a farm's time track, the prestige
track's corners) they made a blob of 512–560 mm² touching the edge, and the track, the
goods beside it and the prestige track were held back as under a hand (3 of 576 cube
regions and tracks on 36 real-ordinary renders of seed 5).

Such a blob is the disc's when it lies wholly within one track cell grown by ``MARGIN``
samples and spans the cell's centre, where a disc sits (a disc whose colour the reader
knows is no difference: its blob is then a ring around the centre): a hand reaching in
from outside is larger than a cell, and any blob of 2,500 mm² is still a hand wherever
it lies.
"""

from __future__ import annotations

import numpy as np

from .layout import Board

MARGIN = 2  # coarse samples (8 mm) a disc's rim, shadow and border reach past its cell


def cell_boxes(board: Board, step: float, shape: tuple[int, int]
               ) -> list[tuple[int, int, int, int, int, int]]:
    """The track cells of ``board`` on its coarse grid (``step`` mm, ``shape`` rows and
    columns): (row0, row1, col0, col1) slices of the cell grown by ``MARGIN``, and the
    (row, column) of its centre."""
    out = []
    h, w = shape
    for r in board.regions:
        if r.kind != "track":
            continue
        x0, y0, x1, y1 = r.rect
        cr = min(h - 1, int((y0 + y1) / 2 // step))
        cc = min(w - 1, int((x0 + x1) / 2 // step))
        out.append((*r.grown_box(step, shape, MARGIN), cr, cc))
    return out


def is_disc_blur(blob: np.ndarray, boxes: list[tuple[int, int, int, int, int, int]]) -> bool:
    """Whether ``blob`` (a boolean coarse grid) lies wholly within one track cell grown
    by ``MARGIN`` and spans that cell's centre (``boxes`` from `cell_boxes`)."""
    ys, xs = np.nonzero(blob)
    if ys.size == 0:
        return False
    top, bottom, left, right = ys.min(), ys.max(), xs.min(), xs.max()
    return any(r0 <= top <= cr <= bottom < r1 and c0 <= left <= cc <= right < c1
               for r0, r1, c0, c1, cr, cc in boxes)
