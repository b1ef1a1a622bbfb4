"""A disc on a farm's edge cell blurred into the goods beside it is no hand (issue 16,
seventeenth session; ``vision/disc_beside_goods.py``)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.disc_edge import cell_boxes
from vision.goods_blob import goods_boxes
from vision.layout import Layout
from vision.read import BoardReader
from vision.read_parts import COARSE_STEP


def test_a_disc_and_an_item_touching_at_the_farms_edge_are_read(layout: Layout) -> None:
    # the bench's real-hard table 4 of seed 1 (blur σ 1.9 px, light 0.70): the yellow
    # disc on time cell 7, at the farm's bottom edge, and an item 4 mm above it made one
    # blob of 992 mm² reaching the edge; the time track and the goods were held back as
    # under a hand, and no hand was there
    view, shot, reading = bench.case(layout, "real-hard", 1, 4)
    assert not shot.covered
    assert "time:yellow" not in reading.occluded
    assert "goods:yellow" not in reading.occluded
    assert reading.tracks["time:yellow"] == view.tracks["time:yellow"]


def _farm_grid(layout: Layout) -> tuple[np.ndarray, list, list]:
    board = layout.boards["farm:yellow"]
    w, h = board.size_mm
    shape = (int(np.ceil(h / COARSE_STEP)), int(np.ceil(w / COARSE_STEP)))
    return (np.zeros(shape, bool), cell_boxes(board, COARSE_STEP, shape),
            goods_boxes(board, COARSE_STEP, shape))


def _mm(y0: float, y1: float, x0: float, x1: float) -> tuple[slice, slice]:
    s = COARSE_STEP
    return slice(int(y0 // s), int(np.ceil(y1 / s))), slice(int(x0 // s), int(np.ceil(x1 / s)))


def test_a_disc_joined_to_goods_is_no_hand_and_a_finger_elsewhere_is(layout: Layout) -> None:
    diff, cells, goods = _farm_grid(layout)
    rows = diff.shape[0]
    # a disc's blur on time cell 7 (128-154, 218-244 mm) to the edge, and an item above it
    diff[_mm(222, rows * COARSE_STEP, 130, 152)] = True
    diff[_mm(190, 222, 136, 160)] = True
    hand, _faint = BoardReader._hand_blobs(diff, cells, goods)
    assert not hand.any()
    # the same disc joined to a streak running up into the supply (20-104, 46-154 mm),
    # out of the goods: a finger from the edge, still a hand
    finger = diff.copy()
    finger[_mm(120, 222, 136, 148)] = True
    hand, _faint = BoardReader._hand_blobs(finger, cells, goods)
    assert hand.any()
    # wider than a cell where it crosses the edge (an arm): still a hand
    arm = diff.copy()
    arm[_mm(222, rows * COARSE_STEP, 90, 190)] = True
    hand, _faint = BoardReader._hand_blobs(arm, cells, goods)
    assert hand.any()
