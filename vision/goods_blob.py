"""Goods heaped on a farm are no hand.

The hand test (``docs/vision.md`` « How a frame is read », step 3) takes any blob of
difference from the empty board of 2,500 mm² or more for a hand. A farm's goods region
(148 × 50 mm) holding six or seven items (grain, coins, tiles) lying edge to edge differs
from the empty board over most of its area: in hard light, blurred, the items, their
rims and the gaps between them made one blob of about 9,000 mm² (the bench's real-hard
table 5, third contents: a wagon, four scrolls, grain and a plough), and the farm's
figures, supply and goods were held back as under a hand where none was.

Such a blob is the goods when it lies wholly within one items region grown by ``MARGIN``
coarse samples and does not reach the board's edge: a hand over a farm comes with its
arm, which crosses the rest of the board to its edge (a farm lies at the table's edge,
its goods between its supply and its time track), so a hand's blob reaches farther. A
blob that reaches the board's edge or spills out of the region is still a hand.
Unchecked on a real table: a hand seen only where it covers the goods (a sleeve the
colour of the farm's print, its arm lost in it) would be taken for goods.
"""

from __future__ import annotations

import numpy as np

from .layout import Board

MARGIN = 3  # coarse samples (12 mm: blur, a piece's shadow and its rim) past the region


def goods_boxes(board: Board, step: float, shape: tuple[int, int]
                ) -> list[tuple[int, int, int, int]]:
    """The items regions of ``board`` on its coarse grid (``step`` mm, ``shape`` rows
    and columns), grown by ``MARGIN``: (row0, row1, col0, col1) slices."""
    return [r.grown_box(step, shape, MARGIN) for r in board.regions if r.kind == "items"]


def is_goods(blob: np.ndarray, boxes: list[tuple[int, int, int, int]]) -> bool:
    """Whether ``blob`` (a boolean coarse grid of one board) lies wholly within one of
    ``boxes`` (`goods_boxes`) without reaching the board's edge (its outer ring of
    samples)."""
    ys, xs = np.nonzero(blob)
    if ys.size == 0:
        return False
    h, w = blob.shape
    top, bottom, left, right = ys.min(), ys.max(), xs.min(), xs.max()
    if top <= 1 or left <= 1 or bottom >= h - 2 or right >= w - 2:
        return False
    return any(r0 <= top and bottom < r1 and c0 <= left and right < c1
               for r0, r1, c0, c1 in boxes)
