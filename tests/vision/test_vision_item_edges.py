"""A piece at the edge of a blob of several (issue 16, thirteenth session): a grain sack
beside an ox tile is counted, though few of its samples lie inside the blob's outline."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.layout import ITEM_NAMES, Layout
from vision.read_parts import ITEM_STEP, count_blobs

# the labels the reader gave the bench's real-hard table 5 (seed 1, fourth contents),
# yellow farm, where an ox tile (O) and a grain sack (g) below it touch: their blurred
# meeting reads brown (H, a horse's colour) and their rim on the green farm grey (c, a
# coin's); each rim sample goes to the nearest core, the sack keeps 30 of its own but
# only 8 inside the blob's eroded outline, which is three fifths of the blob: the inside
# alone voted the sack out
GRID = """
.....ccccc.......
....cHOOOHcc.....
...cHOOOOOcccc...
..ccOOOOOOOOHcc..
..ccOOOOOOOOOccc.
..cOOOOOOOOOOOHc.
.ccOOOOOOOOOOOHc.
.cHOOOOOOOOOOOc..
.cHOOOOOOOOOOHc..
.ccHOOOOOOOOHc...
..ccHHHOOOOOcc...
...gHHHOOOOOc....
.....gHHOOOcc....
.....ggHHHHc.....
..gggggggg.......
..ggggg..........
..ggggg..........
..ggggg..........
...ggg...........
"""
KEYS = ".gcsHOPW"  # 0 the board, then ITEM_NAMES in order


def _grid() -> np.ndarray:
    rows = [r for r in GRID.strip("\n").splitlines()]
    out = np.zeros((len(rows) + 2, max(map(len, rows)) + 2), np.int32)
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            out[y + 1, x + 1] = KEYS.index(ch)
    return out


def test_a_grain_sack_at_the_edge_of_an_ox_tiles_blob_is_counted(layout: Layout) -> None:
    assert ITEM_NAMES[0] == "grain" and ITEM_NAMES[4] == "ox"
    one = [layout.item_area_mm2(k) / ITEM_STEP ** 2 for k in ITEM_NAMES]
    assert count_blobs(_grid(), ITEM_NAMES, one, cores=True) == {"ox": 1, "grain": 1}


def test_grain_beside_an_ox_is_counted_on_a_real_table(layout: Layout) -> None:
    # that table, read whole: three grain sacks, one beside the ox
    view, reading = bench.view_reading(layout, "real-hard", 1, 5, 3)
    assert view.items["goods:yellow"]["grain"] == 3
    assert reading.items["goods:yellow"].get("grain") == 3
