"""Items in hard light (issue 16, fourteenth session): told under the markers' paper as
fitted through the blur, lit up where their region lies in a shadow the markers do not
see."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.item_light import item_gain
from vision.layout import Layout
from vision.read_parts import ITEM_SHADE_MAX


def test_a_region_in_a_shadow_is_lit_up_and_one_brighter_is_not() -> None:
    white = np.array([1.5, 1.4, 1.3], np.float32)
    empty = np.full((50, 3), 100.0, np.float32)  # the empty board (+1, as the reader keeps it)
    shaded = np.full((50, 3), 59, np.uint8)  # the region (+1) at 0.6 of its empty board
    assert np.allclose(item_gain(white, empty, 1.0, shaded), white / 0.6)
    assert np.allclose(item_gain(white, empty, 1.2, shaded), white * ITEM_SHADE_MAX)
    lit = np.full((50, 3), 119, np.uint8)  # brighter than its board: left as it is
    assert np.allclose(item_gain(white, empty, 1.0, lit), white)
    assert item_gain(white, None, 1.0, shaded) is white
    assert item_gain(None, empty, 1.0, shaded) is None


def _read_right(layout: Layout, i: int, k: int, region: str) -> None:
    view, reading = bench.view_reading(layout, "real-hard", 1, i, k)
    want = {n: c for n, c in view.items[region].items() if c}
    assert reading.items[region] == want


def test_a_coin_in_hard_light_is_no_scroll(layout: Layout) -> None:
    # the bench's real-hard table 11 of seed 1 (σ 2.1 px): under the white ring's gain,
    # 1.36 times too high on that farm, the coin (a grey disc) came out as bright as a
    # scroll and was read as one
    _read_right(layout, 11, 0, "goods:yellow")


def test_scrolls_in_a_shadow_the_farms_marker_does_not_see_are_scrolls(
        layout: Layout) -> None:
    # table 1, its fourth contents: the red farm's items lie in a shadow its marker does
    # not; under the paper's white alone the two scrolls were read as coins
    _read_right(layout, 1, 3, "goods:red")
