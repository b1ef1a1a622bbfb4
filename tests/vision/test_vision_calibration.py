"""Calibration steps, saving, and the marker sheet; the CLI commands end to end."""

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
from vision.markers_sheet import sheet
from vision.render import Scene, render
from vision.table import TableView, from_dict

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_capture_learn_move_save_load(layout: Layout, tmp_path: Path) -> None:
    cal = calibration.default()
    empty = render(layout, TableView(), Scene(seed=1, light=(1.1, 1.0, 0.8))).image
    cal = calibration.capture_empty(cal, empty)
    assert set(cal.references) == set(layout.boards)
    harvest = next(r for r in cal.layout_data["boards"]["main"]["regions"]
                   if r["name"] == "space:harvest")
    assert harvest["print"] != [214, 196, 120]  # measured under the warm light
    cubes = render(layout, from_dict({"space:church": {"brown": 3},
                                      "space:crafts": {"pink": 2}}), Scene(seed=2)).image
    cal = calibration.learn_cubes(cal, cubes, {"space:church": ("brown", 3),
                                               "space:crafts": ("pink", 2)})
    brown = cal.layout_data["colours"]["cubes"]["brown"]
    assert np.abs(np.array(brown) - [120, 72, 40]).max() < 40
    assert 1.0 < cal.area_factor < 1.7
    cal = calibration.move_region(cal, "farm", "time:red#3", (90, 8, 118, 34))
    assert cal.layout.boards["farm:blue"].region("time:blue#3").rect == (90, 8, 118, 34)
    path = tmp_path / "games.camera.json"
    calibration.save(path, cal)
    again = calibration.load(path)
    assert again.steps == ["empty", "cubes", "moved farm/time:red#3"]
    assert again.area_factor == cal.area_factor
    assert np.array_equal(again.references["main"], cal.references["main"])


def test_a_calibrated_reader_reads_under_its_light(layout: Layout) -> None:
    warm = (1.15, 1.0, 0.65)
    cal = calibration.capture_empty(calibration.default(),
                                    render(layout, TableView(), Scene(seed=3, light=warm)).image)
    view = from_dict({"space:market": {"green": 2, "orange": 1}, "time:red": {"red": 5}})
    reading = cal.reader().read(render(layout, view, Scene(seed=4, light=warm)).image)
    assert reading.cubes["space:market"] == {"green": 2, "orange": 1}
    assert reading.tracks["time:red"] == {"red": 5}


def test_steps_that_cannot_be_done(layout: Layout) -> None:
    blank = np.full((720, 1280, 3), 80, np.uint8)
    with pytest.raises(calibration.CalibrationError, match="markers"):
        calibration.capture_empty(calibration.default(), blank)
    img = render(layout, TableView(), Scene(seed=5)).image
    with pytest.raises(calibration.CalibrationError, match="stands out"):
        calibration.learn_cubes(calibration.default(), img, {"space:church": ("brown", 1)})
    with pytest.raises(calibration.CalibrationError, match="no region"):
        calibration.move_region(calibration.default(), "main", "space:nowhere", (1, 1, 2, 2))
    with pytest.raises(calibration.CalibrationError):
        calibration.from_json({"layout": {}})


def test_marker_sheet_holds_every_marker_at_size(layout: Layout) -> None:
    img = sheet(layout)
    assert img.shape == (3508, 2480)
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = det.detectMarkers(img)
    assert sorted(int(i) for i in ids.ravel()) == [0, 1, 2, 3, 10, 11, 12, 13]
    side_px = np.linalg.norm(corners[0][0][0] - corners[0][0][1])
    mm = side_px / 300 * 25.4
    want = {0: 28, 10: 36}[0 if int(ids.ravel()[0]) < 10 else 10]
    assert abs(mm - want) < 0.5


def test_cli_read_board_and_calibrate(layout: Layout, tmp_path: Path) -> None:
    view = from_dict({"space:council": {"green": 2}, "prestige": {"blue": 12}})
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), render(layout, view, Scene(seed=9)).image)
    cal = tmp_path / "cal.json"
    out = _cli("read-board", str(image), "--json", "--calibration", str(cal))
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["board_found"] is True and data["occluded"] == []
    assert data["spaces"]["council"] == {"green": 2}
    assert data["tracks"]["prestige"] == {"blue": 12}
    assert 0 <= data["confidence"] <= 1
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), render(layout, TableView(), Scene(seed=9)).image)
    assert _cli("calibrate", "--calibration", str(cal), "empty", str(empty)).returncode == 0
    assert json.loads(cal.read_text())["steps"] == ["empty"]
    sheet_png = tmp_path / "markers.png"
    assert _cli("calibrate", "--calibration", str(cal), "markers", str(sheet_png)).returncode == 0
    assert sheet_png.stat().st_size > 10_000
    bad = _cli("read-board", str(tmp_path / "missing.png"), "--calibration", str(cal))
    assert bad.returncode == 2 and "cannot read" in bad.stderr
