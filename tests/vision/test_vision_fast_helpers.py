"""The reader's cheaper forms of numpy's reductions give numpy's own numbers: a faster
frame must read exactly what the slower one read."""

from __future__ import annotations

import numpy as np

from vision.colour import UNKNOWN, classify
from vision.cube_tint import _cell_box3
from vision.layout import Layout
from vision.read import BoardReader
from vision.read_parts import Samples, _fold, _mean3, _sum3, median0, per_channel, within
from vision.render import Scene, render
from vision.table import TableView


def test_the_channel_mean_and_sum_are_numpys_to_the_last_bit() -> None:
    g = np.random.default_rng(5)
    for shape in [(7, 3), (4, 6, 3), (1000, 3)]:
        a = g.uniform(0.01, 4.0, shape).astype(np.float32)
        assert np.array_equal(_mean3(a), a.mean(axis=-1))
        assert np.array_equal(_sum3(a), a.sum(axis=-1))
        assert _mean3(a).dtype == np.float32


def test_brown_or_orange_keeps_its_distances_with_the_sums_written_out() -> None:
    # the ray test's distances (a sample's mean colour to the nearest point of the ray from
    # the board through a cube colour) equal numpy's norm of the same differences
    g = np.random.default_rng(7)
    off = g.uniform(-90, 90, (500, 3)).astype(np.float32)
    assert np.array_equal(np.sqrt(_sum3(off * off)), np.linalg.norm(off, axis=1))


def test_the_median_over_the_first_axis_of_a_stack_is_numpys() -> None:
    # a track board's cells: (samples, cells, channels), an even and an odd sample count,
    # and ties (a JPEG's flat blocks give many equal samples)
    g = np.random.default_rng(6)
    for n in (144, 143):
        a = np.round(g.uniform(0.2, 2.0, (n, 9, 3)), 2).astype(np.float32)
        assert np.array_equal(median0(a), np.median(a, axis=0))
        cells = np.ascontiguousarray(a.swapaxes(0, 1))  # (cells, samples, channels)
        assert np.array_equal(median0(cells.swapaxes(0, 1)), np.median(cells, axis=1))


def test_classify_gives_the_first_of_equally_near_prototypes_and_none_far() -> None:
    protos = np.array([[50, 128, 128], [120, 150, 90], [120, 150, 90], [200, 128, 128]],
                      np.float32)
    lab = np.array([[52, 128, 128], [120, 150, 90], [199, 129, 127], [120, 20, 240]],
                   np.float32)
    got = classify(lab, protos, max_dist=40.0, l_weight=0.5)
    assert got.tolist() == [0, 1, 3, UNKNOWN]
    assert got.dtype == np.uint8


def test_a_boards_track_cells_are_remapped_at_once_to_the_same_samples(layout: Layout) -> None:
    # the track cells of a board are one part of the sampling plan (one remap, not one a
    # cell); a cell's samples taken from that block are those of its own remap
    reader = BoardReader(layout)
    frame = render(layout, TableView(), Scene(seed=5, camera=1, pieces=1)).image
    reader.read(frame)
    plan = reader._plan
    assert plan is not None
    for name, board in layout.boards.items():
        cells = [r for r in board.regions if r.kind == "track"]
        if not cells or (name, "#tracks") not in plan.slices:
            assert not cells
            continue
        a0, b0, _shape = plan.slices[(name, "#tracks")]
        block = Samples(frame, plan)[a0:b0]
        for r in cells:
            a, b, _s = plan.slices[(name, r.key)]
            assert a0 <= a < b <= b0
            assert np.array_equal(block[a - a0:b - a0], Samples(frame, plan)[a:b])


def test_within_every_channel_is_the_three_comparisons_joined() -> None:
    # `within` (one pass of OpenCV's range test) gives the booleans of comparing each
    # channel against its bounds, ends included, and joining the three; bounds of
    # another type take numpy's way
    g = np.random.default_rng(8)
    a = np.round(g.uniform(0, 60, (7700, 3))).astype(np.float32)
    lo = np.round(g.uniform(0, 30, (7700, 3))).astype(np.float32)
    hi = lo + np.round(g.uniform(0, 30, (7700, 3))).astype(np.float32)
    a[:50] = lo[:50]  # on the bounds: inside
    a[50:100] = hi[50:100]
    both = (a >= lo) & (a <= hi)
    want = both[:, 0] & both[:, 1] & both[:, 2]
    assert want.any() and not want.all()
    assert np.array_equal(within(a, lo, hi), want)
    assert np.array_equal(within(a, lo.astype(np.float64), hi), want)


def test_a_stack_of_cells_is_summed_over_3x3_as_numpys_padded_sum() -> None:
    # each cell's edge repeated (np.pad's "edge"), the nine neighbours added in one order:
    # the same float32 sums to the last bit, and no cell reaches into the next
    g = np.random.default_rng(9)
    stack = g.uniform(-30, 30, (6, 12, 12, 3)).astype(np.float32)
    padded = np.pad(stack, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="edge")
    want = np.asarray(sum(padded[:, dy:dy + 12, dx:dx + 12]
                          for dy in range(3) for dx in range(3)))
    got = _cell_box3(stack)
    assert got.dtype == np.float32
    assert np.array_equal(got, want)
    ones = np.zeros((2, 5, 5), np.uint8)
    ones[0, 4, 4] = 1  # a corner: counted four times over its own repeated edge
    assert _cell_box3(ones)[0, 4, 4] == 4 and not _cell_box3(ones)[1].any()


def test_a_gain_taken_channel_by_channel_or_folded_gives_numpys_numbers() -> None:
    # `per_channel` folds a region's samples into rows of a divisor of their count
    # (7,700 into rows of 220; a prime count has none and goes channel by channel)
    assert _fold(7700) == 220 and _fold(9072) == 252 and _fold(7919) == 0
    g = np.random.default_rng(10)
    for shape in [(7700, 3), (7919, 3), (60, 70, 3), (1200, 3)]:
        a = g.uniform(0.5, 256.0, shape).astype(np.float32)
        gain = g.uniform(0.3, 3.0, 3).astype(np.float32)
        for op in (np.multiply, np.divide):
            got = per_channel(op, a, gain)
            assert got.dtype == np.float32 and got.shape == a.shape
            assert np.array_equal(got, op(a, gain))
    cells = g.uniform(0.5, 256.0, (50, 144, 3)).astype(np.float32)
    each = g.uniform(0.3, 3.0, (50, 1, 3)).astype(np.float32)  # a gain a cell
    assert np.array_equal(per_channel(np.multiply, cells, each), cells * each)
