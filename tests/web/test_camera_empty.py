"""The calibration page's empty-board step: frames kept one by one from the running camera,
the boards found in none named, each board learned from the frames that found it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from flask import Flask

from tests.vision.test_vision_empty_frames import covered_frame
from tests.web.conftest import AUTH
from vision import calibration
from vision.layout import load
from web import runtime_of


class Camera:
    """A running camera whose next frame is ``frame``."""

    def __init__(self) -> None:
        self.frame = np.full((720, 1280, 3), 90, np.uint8)

    def last_frame(self) -> np.ndarray:
        return self.frame

    def close(self) -> None:
        """Nothing to release."""


@pytest.fixture
def camera(app: Flask) -> Camera:
    cam = Camera()
    runtime_of(app).adapters.append(cam)
    return cam


def test_frames_kept_boards_named_then_learned(app: Flask, camera: Camera,
                                               tmp_path: Path) -> None:
    layout = load()
    client = app.test_client()
    state = client.get("/api/camera/empty").get_json()
    assert state["frames"] == 0 and not state["ready"] and "Take every piece off" in state["say"]
    assert client.post("/api/camera/empty/frame").status_code == 401  # the table token
    res = client.post("/api/camera/empty/frame", headers=AUTH)  # no board in view
    assert res.status_code == 422 and res.get_json()["code"] == "not_in_view"
    assert client.get("/api/camera/empty").get_json()["frames"] == 0
    # a farm hidden in the first frame, another in the second; one farm in none
    camera.frame = covered_frame(layout, 1, cover=("farm:red", "farm:white"))
    state = client.post("/api/camera/empty/frame", headers=AUTH).get_json()
    assert state["frames"] == 1 and state["missing"] == ["farm:red", "farm:white"]
    assert "farm:red, farm:white" in state["say"] and "Take 2 more" in state["say"]
    camera.frame = covered_frame(layout, 2, cover=("farm:blue", "farm:white"))
    state = client.post("/api/camera/empty/frame", headers=AUTH).get_json()
    assert state["missing"] == ["farm:white"] and state["found"]["main"] == 2
    camera.frame = covered_frame(layout, 3, cover=("farm:red", "farm:white"))
    state = client.post("/api/camera/empty/frame", headers=AUTH).get_json()
    assert state["enough"] and "Learn the empty boards now" in state["say"]
    camera.frame = np.full((720, 1280, 3), 90, np.uint8)  # learned from the kept frames
    res = client.post("/api/camera/empty", headers=AUTH)
    assert res.status_code == 200, res.get_json()
    body = res.get_json()
    assert body["steps"][-1] == "empty"
    assert "Not learned: farm:white" in body["empty"]["say"]
    saved = calibration.from_json(json.loads((tmp_path / "games.camera.json").read_text()))
    assert calibration.not_learned(saved) == ["farm:white"]
    assert {"main", "farm:red", "farm:blue", "farm:yellow"} <= calibration.learned_boards(saved)
    assert client.get("/api/camera/empty").get_json()["frames"] == 0  # forgotten once learned


def test_start_again_and_the_oldest_frames_dropped(app: Flask, camera: Camera) -> None:
    client = app.test_client()
    camera.frame = covered_frame(load(), 4)
    for _ in range(10):
        state = client.post("/api/camera/empty/frame", headers=AUTH).get_json()
    assert state["frames"] == 8 and state["missing"] == []
    assert "Every board found" in state["say"]
    assert client.delete("/api/camera/empty/frames").status_code == 401
    state = client.delete("/api/camera/empty/frames", headers=AUTH).get_json()
    assert state["frames"] == 0
