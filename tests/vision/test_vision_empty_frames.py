"""``calibrate empty`` from several frames: each board placed from whichever frame finds it,
the boards found in none named, and the reader holding back a board the model left out."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import calibration
from vision.layout import Layout
from vision.render import Scene, render
from vision.table import TableView, from_dict


def covered_frame(layout: Layout, seed: int, view: TableView | None = None,
           cover: tuple[str, ...] = ()) -> np.ndarray:
    """A rendered frame with every marker of the boards in ``cover`` hidden under a sheet
    of grey paper (as a hand or a box lid would hide them)."""
    r = render(layout, view or TableView(), Scene(seed=seed, camera=1, pieces=seed))
    img = r.image.copy()
    for name in cover:
        board = layout.boards[name]
        s = board.marker_mm
        for x, y in board.markers.values():
            square = np.array([[x - 2, y - 2], [x + s + 2, y - 2], [x + s + 2, y + s + 2],
                               [x - 2, y + s + 2]], np.float32)
            cv2.fillConvexPoly(img, r.to_frame(name, square).astype(np.int32), (90, 110, 120))
    return img


def test_each_board_is_placed_from_whichever_frame_finds_it(layout: Layout) -> None:
    frames = [covered_frame(layout, 1, cover=("farm:red",)), covered_frame(layout, 2, cover=("farm:blue",))]
    cal = calibration.default()
    found = calibration.find_boards(cal, frames)
    assert found["farm:red"] == [1] and found["farm:blue"] == [0] and found["main"] == [0, 1]
    cal = calibration.capture_empty(cal, frames)
    assert calibration.learned_boards(cal) == set(layout.boards)
    assert calibration.not_learned(cal) == []
    # the farm learnt from its one frame reads its cubes against the model
    view = from_dict({"supply:red": {"brown": 2}, "supply:blue": {"green": 1}})
    reading = cal.reader().read(covered_frame(layout, 5, view))
    assert reading.cubes["supply:red"] == {"brown": 2}
    assert reading.cubes["supply:blue"] == {"green": 1}


def test_a_board_found_in_no_frame_is_named_and_held_back(layout: Layout) -> None:
    frames = [covered_frame(layout, s, cover=("farm:red",)) for s in (1, 2, 3)]
    cal = calibration.capture_empty(calibration.default(), frames)
    assert calibration.not_learned(cal) == ["farm:red"]
    assert "farm:red" not in cal.references
    view = from_dict({"supply:red": {"brown": 2}, "supply:yellow": {"pink": 1},
                      "time:red": {"red": 3}})
    reading = cal.reader().read(covered_frame(layout, 6, view))
    assert reading.boards["farm:red"]  # in view now, but not in the model: not read
    assert {"supply:red", "time:red", "farm:red"} <= reading.uncertain
    assert "supply:red" not in reading.cubes and "time:red" not in reading.tracks
    assert reading.cubes["supply:yellow"] == {"pink": 1}


def test_the_main_board_must_be_found_in_some_frame(layout: Layout) -> None:
    frames = [covered_frame(layout, s, cover=("main",)) for s in (1, 2)]
    with pytest.raises(calibration.CalibrationError, match="any of the 2 frame"):
        calibration.capture_empty(calibration.default(), frames)
    with pytest.raises(calibration.CalibrationError, match="no frame"):
        calibration.capture_empty(calibration.default(), [])


def test_without_a_model_nothing_is_held_back(layout: Layout) -> None:
    assert calibration.not_learned(calibration.default()) == []
    view = from_dict({"supply:red": {"brown": 2}})
    reading = calibration.default().reader().read(covered_frame(layout, 7, view))
    assert reading.cubes["supply:red"] == {"brown": 2}
    assert not reading.uncertain & {"supply:red"}


def test_the_command_says_which_board_it_did_not_learn(layout: Layout, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    paths = []
    for k, cover in enumerate([("farm:red", "farm:white"), ("farm:white",)]):
        paths.append(tmp_path / f"e{k}.png")
        cv2.imwrite(str(paths[-1]), covered_frame(layout, 11 + k, cover=cover))
    cal = tmp_path / "cal.json"
    out = subprocess.run([sys.executable, "-m", "companion.cli", "calibrate", "--calibration",
                          str(cal), "empty", *map(str, paths)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(root)}, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "farm:red (1 of 2 frames)" in out.stdout and "main (2 of 2 frames)" in out.stdout
    assert "not learned (found in no frame): farm:white;" in out.stdout
    saved = calibration.from_json(json.loads(cal.read_text()))
    assert calibration.not_learned(saved) == ["farm:white"]
