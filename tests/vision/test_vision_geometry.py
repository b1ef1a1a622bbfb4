"""Marker geometry: accurate, reused while nothing moves, following a moved farm."""

from __future__ import annotations

import cv2
import numpy as np

from vision.geometry import MarkerTracker
from vision.layout import Layout
from vision.read import BoardReader
from vision.render import POSES, Scene, render
from vision.table import from_dict


def _error(layout: Layout, name: str, got: np.ndarray, want: np.ndarray) -> float:
    w, h = layout.boards[name].size_mm
    pts = np.array([[(0, 0), (w, 0), (w, h), (0, h)]], np.float32)
    return float(np.abs(cv2.perspectiveTransform(pts, got)
                        - cv2.perspectiveTransform(pts, want)).max())


def test_homographies_match_the_truth(layout: Layout) -> None:
    for seed in range(3):
        shot = render(layout, from_dict({}), Scene(seed=seed, perspective=0.07, blur=1.0))
        boards = MarkerTracker(layout).update(shot.image).boards
        assert set(boards) == set(layout.boards)
        for name, hom in boards.items():
            # farms are placed from their one marker in the main board's plane: a few px
            # at their far corner (~4 mm here), well inside a 26 mm track cell
            limit = 2.0 if name == "main" else 5.0
            assert _error(layout, name, hom, shot.homographies[name]) < limit, (seed, name)


def test_geometry_is_reused_while_the_markers_stay(layout: Layout) -> None:
    tracker = MarkerTracker(layout, recheck_every=1000)
    frames = [render(layout, from_dict({}), Scene(seed=50 + i, camera=50)).image
              for i in range(3)]
    tracker.update(frames[0])
    first = tracker.detections
    version = tracker.geometry.version
    for i in range(20):
        tracker.update(frames[i % 3])
    assert tracker.detections == first  # no detection on steady frames
    assert tracker.geometry.version == version


def test_a_moved_farm_is_followed(layout: Layout) -> None:
    view = from_dict({"time:red": {"red": 6}})
    reader = BoardReader(layout)
    before = reader.read(render(layout, view, Scene(seed=5)).image)
    assert before.tracks["time:red"] == {"red": 6}
    x, y, _ = POSES["farm:red"]
    moved = Scene(seed=6, camera=5, poses={"farm:red": (x + 8, y + 25, 12.0)})
    shot = render(layout, view, moved)
    after = reader.read(shot.image)
    hom = reader.tracker.geometry.boards["farm:red"]
    assert _error(layout, "farm:red", hom, shot.homographies["farm:red"]) < 5.0
    assert after.tracks["time:red"] == {"red": 6}


def test_a_bumped_main_board_is_followed(layout: Layout) -> None:
    view = from_dict({"space:market": {"green": 2}})
    reader = BoardReader(layout)
    reader.read(render(layout, view, Scene(seed=7)).image)
    x, y, _ = POSES["main"]
    shot = render(layout, view, Scene(seed=8, camera=7, poses={"main": (x + 6, y - 4, 1.5)}))
    reading = reader.read(shot.image)
    assert _error(layout, "main", reader.tracker.geometry.boards["main"],
                  shot.homographies["main"]) < 2.0
    assert reading.cubes["space:market"] == {"green": 2}
