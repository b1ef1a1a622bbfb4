"""The camera's health panel names a farm of the game it cannot place (its marker out of
view or not decoded): its regions are hidden from the reconciler, so the people at the
table should know why nothing on that farm is read (issue 16)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.reconcile.observations import Observation
from companion.runtime import Runtime
from companion.sensors.camera import CameraAdapter, unplaced_farms
from companion.settings import Settings
from vision import calibration
from vision.layout import load
from vision.render import Scene, TableView, render
from vision.sources import SimSource
from vision.table import from_dict

cv2.setNumThreads(1)
LAYOUT = load()
VIEW = from_dict({"space:harvest": {"brown": 2}})


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _without_farm_markers(*colours: str) -> np.ndarray:
    """The table with the markers of these farms painted over (covered by a cup, say)."""
    shot = render(LAYOUT, VIEW, Scene(seed=1, camera=1, pieces=1))
    image = shot.image.copy()
    for colour in colours:
        board = LAYOUT.boards[f"farm:{colour}"]
        m = board.marker_mm
        for x, y in board.markers.values():
            quad = shot.to_frame(f"farm:{colour}", np.array(
                [[x, y], [x + m, y], [x + m, y + m], [x, y + m]], np.float32))
            cv2.fillConvexPoly(image, quad.round().astype(np.int32), (128, 128, 128))
    return image


def _health(frame: np.ndarray, in_play: frozenset[str] | None) -> tuple[str, str]:
    clock, seen = Clock(), []  # type: ignore[var-annotated]
    empty = render(LAYOUT, TableView(), Scene(seed=2, camera=1, pieces=1)).image
    cal = calibration.capture_empty(calibration.default(), [empty])
    adapter = CameraAdapter(lambda: SimSource(lambda n: frame, fps=10.0), seen.append,
                            calibration=cal, clock=clock, settle_s=0.5)
    adapter.farms_in_play = None if in_play is None else (lambda: in_play)
    while clock.t < 1.5:
        clock.t += 0.1
        adapter.step()
    h = adapter.health()
    return h.state, h.detail


def test_a_farm_of_the_game_not_placed_is_named_and_degrades_the_camera() -> None:
    state, detail = _health(_without_farm_markers("blue", "white"),
                            frozenset({"red", "blue"}))
    assert "the blue farm (its marker is not seen)" in detail, detail
    # the white farm is not in the game: off the table on purpose, not named
    assert "not placed, its regions hidden: the blue farm (its marker is not seen);" in detail
    assert "white farm" not in detail, detail
    assert state == "degraded"


def test_without_the_games_families_every_missing_farm_is_named_as_a_note() -> None:
    state, detail = _health(_without_farm_markers("white"), None)
    assert "farms not seen (fine if not in the game): white" in detail, detail
    assert state == "up"


def test_every_farm_placed_says_nothing_of_farms() -> None:
    state, detail = _health(_without_farm_markers(), frozenset({"red", "blue"}))
    assert "not placed" not in detail and "farms not seen" not in detail, detail
    assert state == "up"


def test_unplaced_farms_gives_the_refusal_or_an_unseen_marker() -> None:
    boards = {"main": True, "farm:red": False, "farm:blue": False, "farm:white": True}
    refused = {"farm:red": "fit error 4.1 px (above 3.0 px)"}
    assert unplaced_farms(boards, refused) == {
        "red": "fit error 4.1 px (above 3.0 px)", "blue": "its marker is not seen"}


def test_the_runtime_tells_the_camera_the_games_families(tmp_path: Path) -> None:
    seen: list[Observation] = []
    adapter = CameraAdapter(lambda: SimSource(lambda n: None, fps=1.0), seen.append)
    rt = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token="t"), adapters=[adapter])
    try:
        assert adapter.farms_in_play is not None
        assert adapter.farms_in_play() is None  # no game yet
        rt.service.new_game(["red", "blue"])
        assert adapter.farms_in_play() == {"red", "blue"}
    finally:
        rt.close()
