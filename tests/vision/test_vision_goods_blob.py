"""Goods heaped on a farm are no hand (issue 16, fifteenth session; `vision/goods_blob.py`)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.goods_blob import goods_boxes, is_goods
from vision.layout import Layout
from vision.read_parts import COARSE_STEP


def _farm_grid(layout: Layout) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    farm = layout.boards["farm:red"]
    shape = (int(farm.size_mm[1] // COARSE_STEP), int(farm.size_mm[0] // COARSE_STEP))
    return np.zeros(shape, bool), goods_boxes(farm, COARSE_STEP, shape)


def test_a_blob_within_the_goods_is_goods_but_an_arm_reaching_them_is_not(
        layout: Layout) -> None:
    blob, boxes = _farm_grid(layout)
    blob[38:54, 3:38] = True  # the goods region (y 162-212 mm, x 16-164), blurred
    assert is_goods(blob, boxes)
    arm = blob.copy()
    arm[50:, 20:30] = True  # the same with an arm from the farm's bottom edge
    assert not is_goods(arm, boxes)
    spill = blob.copy()
    spill[25:38, 10:20] = True  # reaching 40 mm up over the supply: not the goods alone
    assert not is_goods(spill, boxes)


def test_a_farm_full_of_goods_is_read_not_held_back_as_under_a_hand(layout: Layout) -> None:
    # the bench's real-hard table 5 of seed 1, third contents: the red farm's goods (a
    # wagon, four scrolls, grain and a plough) made one blob of about 9,000 mm², taken for
    # a hand: the farm's figures and goods were held back where no hand was
    view, reading = bench.view_reading(layout, "real-hard", 1, 5, 2)
    assert "goods:red" not in reading.occluded and "farm:red" not in reading.occluded
    assert reading.items["goods:red"] == view.items["goods:red"]
    assert reading.figures["farm:red"] == {"red": 3}
