"""A disc on a farm's edge cell blurred into the goods beside it is no hand.

The hand test (``docs/vision.md`` « How a frame is read », step 3) takes a blob of
difference that reaches a board's edge and covers 500 mm² for an arm coming from outside.
Two of its exceptions each hold alone: a disc's blob on a track cell at the edge
(`vision.disc_edge`), and goods heaped on a farm clear of the edge (`vision.goods_blob`).
A farm's time track runs along its bottom edge, below the goods; an item lying at the
goods region's lower edge and the disc on the cell below it, blurred (σ 2 px), touch
diagonally on the 4 mm grid and make one blob that reaches the edge: on the bench's
real-hard table 4 of seed 1 (yellow disc on cell 7, an item 4 mm above it; 992 mm²) the
farm's time track and goods were held back as under a hand where none was.

Such a blob is the disc and the goods when its part within one track cell grown by
`disc_edge.MARGIN` spans the cell's centre (where a disc sits) and the rest lies wholly
within the goods region grown by `goods_blob.MARGIN`, clear of the board's edge, and the
whole is under 2,500 mm² (``read.HAND_ANY_MM2``): an arm reaching in from outside crosses
the edge wider than a cell. Unchecked on a real table, as for the goods alone: a finger
entering through a disc's cell to the goods, and only there, would pass for them.
"""

from __future__ import annotations

import numpy as np

from .disc_edge import is_disc_blur
from .goods_blob import is_goods


def is_disc_and_goods(blob: np.ndarray, cells: list[tuple[int, int, int, int, int, int]],
                      goods: list[tuple[int, int, int, int]]) -> bool:
    """Whether ``blob`` (a boolean coarse grid of one board) is a disc's blob on one of
    the track ``cells`` (`disc_edge.cell_boxes`) joined to goods within one of the items
    regions ``goods`` (`goods_blob.goods_boxes`), each part as its own rule has it."""
    for r0, r1, c0, c1, cr, cc in cells:
        part = np.zeros_like(blob)
        part[r0:r1, c0:c1] = blob[r0:r1, c0:c1]
        if not part.any() or not is_disc_blur(part, [(r0, r1, c0, c1, cr, cc)]):
            continue
        rest = blob & ~part
        if rest.any() and is_goods(rest, goods):
            return True
    return False
