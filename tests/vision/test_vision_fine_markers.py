"""A small blurred marker is looked for on the frame enlarged (issue 16, fifteenth
session; ``geometry.FINE_SCALE``)."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout


def test_a_farm_whose_small_marker_blurs_is_found_on_the_enlarged_frame(
        layout: Layout) -> None:
    # the bench's real-hard table 3 of seed 1 (90° lens, light 0.64, blur σ 2.1 px, JPEG
    # 60): the yellow farm's 25 mm marker, about 20 px wide, was decoded in none of the
    # half, full, sharpened and low-threshold passes; its farm, supply, time track and
    # goods went unread
    *_rest, view, shot, reader = bench._table(layout, "real-hard", 1, 3)
    tracker = reader.tracker
    geometry = tracker.update(shot.image)
    assert 11 in tracker.corners
    assert "farm:yellow" in geometry.boards, geometry.refused
    reading = reader.read(shot.image)
    assert reading.boards["farm:yellow"]
    assert reading.items["goods:yellow"] == {k: n for k, n in view.items.get(
        "goods:yellow", {}).items() if n}
    assert reading.tracks["time:yellow"] == view.tracks["time:yellow"]


def test_the_enlarged_pass_runs_at_most_once_per_recheck(layout: Layout) -> None:
    # a farm out of the camera's view (a two-player game) misses its marker at every
    # detection: the dear pass is not repeated at each of them
    *_rest, shot, reader = bench._table(layout, "real-hard", 1, 3)
    tracker = reader.tracker
    frame = shot.image.copy()
    frame[:, :] = 0  # no marker at all: every pass runs while one is missing
    tracker.update(frame)
    first = tracker.detections
    for _ in range(tracker.recheck_every - 1):
        tracker.update(frame)
    per_frame = (tracker.detections - first) / (tracker.recheck_every - 1)
    assert first - per_frame == 1  # the first detection had one pass more: the enlarged one
