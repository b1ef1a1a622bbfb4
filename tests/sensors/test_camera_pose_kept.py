"""The camera's health says when the board's pose is kept from the calibration and when
it is refused because the camera has moved (issue 16, seventeenth session)."""

from __future__ import annotations

import cv2
import numpy as np

from companion.reconcile.observations import CubeCounts, Observation
from companion.sensors.camera import CameraAdapter
from vision import calibration
from vision.layout import load
from vision.render import Scene, TableView, render
from vision.sources import SimSource
from vision.table import from_dict

cv2.setNumThreads(1)
LAYOUT = load()
VIEW = from_dict({"space:harvest": {"brown": 2}, "space:market": {"green": 1}})


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _without_two_markers(view: TableView, shift: int = 0) -> np.ndarray:
    """The table with two of the main board's corner markers unreadable (painted over,
    as a strong blur leaves them), the camera moved ``shift`` px to the side."""
    shot = render(LAYOUT, view, Scene(seed=1, camera=1, pieces=1))
    image = shot.image.copy()
    board = LAYOUT.boards["main"]
    for mid in (0, 2):
        x, y = board.markers[mid]
        m = board.marker_mm
        quad = shot.to_frame("main", np.array([[x, y], [x + m, y], [x + m, y + m],
                                               [x, y + m]], np.float32))
        cv2.fillConvexPoly(image, quad.round().astype(np.int32), (128, 128, 128))
    return np.roll(image, shift, axis=1)


def _adapter(frame: np.ndarray, seen: list[Observation], clock: Clock) -> CameraAdapter:
    empty = render(LAYOUT, TableView(), Scene(seed=2, camera=1, pieces=1)).image
    cal = calibration.capture_empty(calibration.default(), [empty])
    assert "main" in cal.poses
    return CameraAdapter(lambda: SimSource(lambda n: frame, fps=10.0), seen.append,
                         calibration=cal, clock=clock, settle_s=0.5)


def _run(adapter: CameraAdapter, clock: Clock, seconds: float) -> None:
    end = clock.t + seconds
    while clock.t < end:
        clock.t += 0.1
        adapter.step()


def test_the_health_says_the_calibrations_pose_is_kept() -> None:
    clock, seen = Clock(), []
    adapter = _adapter(_without_two_markers(VIEW), seen, clock)
    _run(adapter, clock, 1.5)
    health = adapter.health()
    # the calibration's pose at the first frame, then the frames' own (the same pose)
    assert "pose kept: 2 marker(s) seen" in health.detail, health.detail
    assert health.state == "up"
    cubes = {o.region: dict(o.counts) for o in seen if isinstance(o, CubeCounts)}
    assert cubes["space:harvest"] == {"brown": 2}


def test_the_health_says_a_moved_camera_loses_the_board() -> None:
    clock, seen = Clock(), []
    adapter = _adapter(_without_two_markers(VIEW, shift=8), seen, clock)
    _run(adapter, clock, 1.5)
    health = adapter.health()
    assert "board not found" in health.detail, health.detail
    assert "the camera has moved" in health.detail
    assert not any(isinstance(o, CubeCounts) for o in seen)
