"""The calibration page's lens step: photos of the ChArUco sheet taken from the camera,
guidance on where to hold it next with a coverage picture, the lens computed and saved."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from flask import Flask

from tests.web.conftest import AUTH
from vision import charuco
from vision.render import Scene, render_sheet
from web import runtime_of

SCENE = Scene(seed=4, real=True, fov=70.0, k1=-0.18, k2=0.05, blur=0.9, noise=2.5, jpeg=85)


class Held:
    """A camera in front of which a person holds the sheet: photo ``n`` as the page asks
    (``render_sheet`` goes round the 3×3 places of the view, tilted)."""

    def __init__(self) -> None:
        self.n = 0
        self.blank = False
        self.page = charuco.sheet()

    def last_frame(self) -> np.ndarray:
        if self.blank:
            return np.full((720, 1280, 3), 90, np.uint8)
        return render_sheet(SCENE, self.n, self.page, charuco.PAGE_MM)


@pytest.fixture
def held(app: Flask) -> Held:
    camera = Held()
    runtime_of(app).adapters.append(camera)  # the running camera the page shows
    return camera


def test_photos_guided_then_the_lens_computed_and_saved(app: Flask, held: Held,
                                                        tmp_path: Path) -> None:
    client = app.test_client()
    state = client.get("/api/camera/lens").get_json()
    assert state["photos"] == 0 and not state["ready"] and state["lens"] is None
    assert "in the middle" in state["say"] and state["place"] == [1, 1]
    assert client.post("/api/camera/lens/photo").status_code == 401  # the table token
    assert client.post("/api/camera/lens/compute", headers=AUTH).status_code == 422
    held.blank = True
    res = client.post("/api/camera/lens/photo", headers=AUTH)
    assert res.status_code == 422 and res.get_json()["code"] == "sheet_not_found", res.get_json()
    held.blank = False
    places = []
    for n in range(9):
        held.n = n
        state = client.post("/api/camera/lens/photo", headers=AUTH).get_json()
        places.append(state["place"])
    assert state["photos"] == 9 and state["ready"]
    assert len(state["covered"]) >= 7  # the photos went all over the view
    assert places[0] != places[1]  # it asks for another place once one is covered
    res = client.get("/api/camera/lens/coverage.png", headers=AUTH)
    assert res.status_code == 200 and res.data.startswith(b"\x89PNG")
    assert client.get("/api/camera/lens/coverage.png").status_code == 401
    state = client.post("/api/camera/lens/compute", headers=AUTH).get_json()
    assert state["lens"] is not None and state["lens"]["rms_px"] < 0.5
    assert abs(state["lens"]["fov_deg"] - 70.0) < 2.0
    saved = json.loads((tmp_path / "games.camera.json").read_text())
    assert saved["lens"] is not None and "lens" in saved["steps"]
    state = client.delete("/api/camera/lens/photos", headers=AUTH).get_json()
    assert state["photos"] == 0 and state["lens"] is not None  # the lens stays in force


def test_the_page_has_the_lens_step(app: Flask) -> None:
    page = app.test_client().get("/calibrate").get_data(as_text=True)
    assert 'id="lens-step"' in page and "lens-coverage" in page and "Compute the lens" in page


def test_coverage_picture_marks_where_the_sheet_was_seen() -> None:
    from vision import lens_guide

    page = charuco.sheet()
    shots = [s for s in (lens_guide.shot(render_sheet(SCENE, n, page, charuco.PAGE_MM))
                         for n in range(3)) if s is not None]
    assert len(shots) == 3
    img = lens_guide.picture(np.full((720, 1280, 3), 100, np.uint8), shots)
    assert img.shape == (360, 640, 3)
    green = (img[..., 1].astype(int) - img[..., 2].astype(int)) > 40
    assert green.any()
    assert cv2.countNonZero(green.astype(np.uint8)) < green.size  # not everywhere
