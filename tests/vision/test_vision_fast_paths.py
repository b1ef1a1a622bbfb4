"""The fifteenth session's cheaper forms of the reader's arithmetic give the numbers of
the forms they replace, to the last bit: a faster frame must read exactly what the slower
one read (docs/history/vision-measured.md « Fifteenth session: speed »)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.colour import UNKNOWN, classify
from vision.layout import Layout
from vision.read import BoardReader
from vision.read_parts import (
    PER_CHANNEL_FROM,
    count_blobs,
    median0,
    per_channel,
    soft_areas,
    upper_quartile,
)


def test_per_channel_gives_numpys_broadcast_numbers_and_type() -> None:
    g = np.random.default_rng(11)
    cases = [
        (g.uniform(1, 256, (7700, 3)), g.uniform(0.5, 2, 3)),  # a cube region, a gain
        (g.uniform(1, 256, (50, 144, 3)), g.uniform(0.5, 2, (50, 1, 3))),  # track cells
        (g.uniform(1, 256, (40, 70, 3)), g.uniform(0.5, 2, 3)),  # a hand grid
        (g.uniform(1, 256, (90, 3)), g.uniform(0.5, 2, 3)),  # too small: numpy's own
        (g.uniform(1, 256, (7700, 3)), g.uniform(0.5, 2, (7700, 1))),  # per sample
    ]
    for a, gain in cases:
        for a_type, g_type in [(np.float32, np.float32), (np.float32, np.float64),
                               (np.float64, np.float32)]:
            x, y = a.astype(a_type), gain.astype(g_type)
            for op in (np.multiply, np.divide, np.add, np.subtract):
                want, got = op(x, y), per_channel(op, x, y)
                assert got.dtype == want.dtype
                assert np.array_equal(got, want)
    assert PER_CHANNEL_FROM > 270  # the small case above takes numpy's own path


def test_the_upper_quartile_is_numpys_percentile() -> None:
    # the markers' fitted whites (a few) and a white ring's samples (hundreds), with ties
    g = np.random.default_rng(12)
    for n in [1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 96, 193]:
        for ties in (False, True):
            a = g.uniform(20, 260, (n, 3)).astype(np.float32)
            if ties:
                a = np.round(a / 9) * 9
            want = np.percentile(a, 75, axis=0)
            got = upper_quartile(a)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want)


def test_the_median_of_an_even_count_with_ties_is_numpys() -> None:
    # a region's samples (n×3) after a JPEG's flat blocks: many equal values
    g = np.random.default_rng(13)
    for n in (2, 4, 340, 7700, 9072):
        a = (np.round(g.uniform(0.2, 2.0, (n, 3)), 2)).astype(np.float32)
        assert np.array_equal(median0(a), np.median(a, axis=0))
        assert np.array_equal(median0(a[:, 1].copy()), np.median(a[:, 1]))


def test_classify_is_the_nearest_prototype_by_the_weighted_squares() -> None:
    g = np.random.default_rng(14)
    lab = g.uniform(0, 255, (2000, 3)).astype(np.float32)
    protos = g.uniform(0, 255, (6, 3)).astype(np.float32)
    lab[:6] = protos  # exactly on a prototype
    w = np.array([0.5, 1.0, 1.0], np.float32)
    d = ((lab[:, None, :] - protos[None, :, :]) * w) ** 2
    dist = d[..., 0] + d[..., 1] + d[..., 2]
    want = dist.argmin(axis=1).astype(np.uint8)
    want[dist.min(axis=1) > 60.0 ** 2] = UNKNOWN
    assert np.array_equal(classify(lab, protos, 60.0, 0.5), want)


def _blobs() -> tuple[np.ndarray, np.ndarray]:
    """Labels of three kinds on a 30×40 grid, blobs touching the grid's edges and each
    other, and each sample's difference from the board."""
    labels = np.zeros((30, 40), np.uint8)
    labels[0:6, 0:7] = 1  # in a corner
    labels[10:18, 33:40] = 2  # at the right edge
    labels[20:30, 10:16] = 1  # at the bottom edge, beside another kind
    labels[22:30, 16:21] = 3
    g = np.random.default_rng(15)
    colours = np.array([[0, 0, 0], [-60, -20, 80], [30, 70, -40], [-90, -90, -90]], np.float32)
    diff = colours[labels] * g.uniform(0.6, 1.0, (30, 40, 1)).astype(np.float32)
    return labels, diff


def test_a_blobs_soft_area_in_its_box_is_the_whole_grids() -> None:
    # count_blobs measures each blob within its box and a sample's margin: the ring a
    # blurred edge falls in lies there, at the grid's edges too
    labels, diff = _blobs()
    fg = cv2.morphologyEx((labels != 0).astype(np.uint8), cv2.MORPH_OPEN,
                          np.ones((3, 3), np.uint8))
    k, lab, stats, _c = cv2.connectedComponentsWithStats(fg, connectivity=8)
    inner = cv2.erode(fg, np.ones((3, 3), np.uint8)) > 0
    assert k == 4
    for i in range(1, k):
        x, y, w, h = (int(v) for v in stats[i, :4])
        box = (slice(max(y - 1, 0), y + h + 1), slice(max(x - 1, 0), x + w + 1))
        blob = lab == i
        kinds = [int(v) for v in np.unique(labels[blob]) if v]
        whole = soft_areas(diff, labels, blob, blob & inner, lab, kinds)
        part = soft_areas(diff[box], labels[box], blob[box], (blob & inner)[box], lab[box],
                          kinds)
        assert part == whole
    found = count_blobs(labels, ("a", "b", "c"), [20.0, 20.0, 20.0], diff=diff, cores=True)
    assert set(found) == {"a", "b", "c"}


def test_every_regions_touch_at_once_is_each_regions_own(layout: Layout) -> None:
    reader = BoardReader(layout)
    g = np.random.default_rng(16)
    for board in layout.boards.values():
        shape = reader._track_mask(board).shape
        for share in (0.0, 0.002, 0.02, 0.3):
            mask = g.uniform(0, 1, shape) < share
            mask[-1, -1] = share > 0  # the grid's last cell
            got = reader._touching(board, mask)
            assert got.tolist() == [BoardReader._touches(r, mask) for r in board.regions]
