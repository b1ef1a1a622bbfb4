"""A disc on a track cell at a board's edge is no hand (`vision.read`, « Hands »: its
blurred rim and shadow, and the cell's printed border a pixel off, reach the edge; each
case from a bench image read wrong)."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout


def test_a_disc_on_a_farms_corner_cell_hides_nothing(layout: Layout) -> None:
    # real-ordinary's seventeenth image of seed 5: the blue farm's time disc on cell 6,
    # 6 mm from the farm's edge, and the blue prestige disc on the main board's corner
    # cell: each a blob of difference of 32-35 coarse samples (512-560 mm²) touching
    # its board's edge, a hand by the edge rule; the time track, the goods beside it
    # and the prestige track were held back as under a hand
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 5, 16)
    reading = reader.read(shot.image)
    assert not reading.occluded
    assert reading.tracks.get("time:blue") == view.tracks["time:blue"]
    assert reading.tracks.get("prestige") == view.tracks["prestige"]


def test_a_disc_near_a_farms_edge_beside_its_goods_hides_nothing(layout: Layout) -> None:
    # real-ordinary's fifth image of seed 5: the blue farm's time disc on cell 6 again
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 5, 4)
    reading = reader.read(shot.image)
    assert "time:blue" not in reading.occluded
    assert reading.tracks.get("time:blue") == view.tracks["time:blue"]


def test_only_a_blob_within_one_cell_around_its_centre_is_a_discs() -> None:
    import numpy as np

    from vision.disc_edge import is_disc_blur

    # one track cell spanning rows 10-16, columns 20-26 once grown; its centre (13, 23)
    boxes = [(10, 17, 20, 27, 13, 23)]
    ring = np.zeros((40, 40), bool)
    ring[11:16, 21:26] = True
    ring[13, 23] = False  # a disc the reader knows is no difference: a ring around it
    assert is_disc_blur(ring, boxes)
    finger = np.zeros((40, 40), bool)
    finger[11:17, 24:26] = True  # inside the cell, but beside its centre
    assert not is_disc_blur(finger, boxes)
    arm = ring.copy()
    arm[14:30, 22:25] = True  # reaching out of the cell
    assert not is_disc_blur(arm, boxes)
