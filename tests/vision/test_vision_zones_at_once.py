"""A board's figure zones labelled at once read what they read zone by zone
(`PieceReading._zone_labels`, `vision/piece_differs.py`): a faster frame reads exactly
what the slower one read."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.layout import Layout
from vision.piece_differs import differs
from vision.read_parts import FIGURE_MM2, ZONE_STEP, Samples
from vision.region_light import region_gain


def test_a_boards_zones_at_once_give_each_zones_own_labels_and_differences(
        layout: Layout) -> None:
    # a real-table render with figures about: every zone of the main board, each under
    # its own light, labelled in one pass and zone by zone
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 1, 0)
    reader.read(shot.image)
    plan = reader._plan
    assert plan is not None
    samples = Samples(shot.image, plan)
    samples.fill()
    zones = [r for r in layout.boards["main"].regions if r.kind == "zone"]
    together = reader._zone_labels("main", zones, samples, plan)
    assert set(together) == {r.key for r in zones}
    white = reader._white.get("main")
    one = FIGURE_MM2 / ZONE_STEP ** 2
    gains = set()
    pieces = 0
    for r in zones:
        a, b, shape = plan.slices[("main", r.key)]
        labels, diff = reader._piece_labels("figures", "main", r, samples[a:b], shape, one,
                                            white)
        assert diff is not None
        assert np.array_equal(together[r.key][0], labels), r.name
        assert np.array_equal(together[r.key][1], diff), r.name
        pieces += int(np.count_nonzero(labels))
        ratio = (samples[a:b].astype(np.float32) + 1.0) / reader._empty[f"main/{r.key}"][0]
        gains.add(tuple(np.round(region_gain(ratio, reader._board_light["main"]), 3)))
    assert any(view.zones.values()) and pieces > 0  # figures were there to label
    assert len(gains) > 1  # the zones lie under lights of their own


def test_the_difference_test_under_one_light_or_one_light_a_sample_is_the_same() -> None:
    # `differs` under a region's gain (3 channels) and under that gain repeated for each
    # sample give the same arrays; the board is no piece, the board darkened evenly a
    # shadow, a sample of another colour a piece
    ref = np.full((4, 3), 101.0, np.float32)
    lo, hi = ref - 5, ref + 5
    raw = np.array([[100, 100, 100], [60, 60, 60], [20, 160, 40], [100, 99, 101]], np.uint8)
    cur = raw.astype(np.float32) + 1.0
    ratio = cur / ref
    gain = np.array([1.0, 1.0, 1.0], np.float32)
    one = differs(raw, cur, ratio, (ref, lo, hi), gain, None)
    each = differs(raw, cur, ratio, (ref, lo, hi), np.repeat(gain[None], 4, axis=0), None)
    for a, b in zip(one, each, strict=True):
        assert np.array_equal(a, b)
    assert one.piece.tolist() == [False, False, True, False]
    assert one.dark.tolist() == [False, True, False, False]
