"""The camera calibration page and API, with a folder of rendered frames as the camera."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import AUTH
from vision.layout import load
from vision.render import Scene, render
from vision.table import TableView, from_dict
from web import runtime_of


@pytest.fixture
def camera_app(app: Flask, tmp_path: Path) -> Flask:
    frames = tmp_path / "frames"
    frames.mkdir()
    layout = load()
    cv2.imwrite(str(frames / "a.png"), render(layout, TableView(), Scene(seed=1)).image)
    rt = runtime_of(app)
    rt.settings = rt.settings.with_(camera_source=str(frames))
    return app


def test_page_links_and_layout(camera_app: Flask) -> None:
    client = camera_app.test_client()
    page = client.get("/calibrate")
    assert page.status_code == 200 and b"calibrate.js" in page.data
    assert b"/calibrate" in client.get("/boxcheck").data
    data = client.get("/api/camera/calibration").get_json()
    assert data["file"].endswith("games.camera.json")
    keys = {r["key"] for r in data["boards"]["main"]["regions"]}
    assert "space:harvest" in keys and "prestige#49" in keys
    assert "time:{colour}#9" in {r["key"] for r in data["boards"]["farm"]["regions"]}


def test_rectified_picture(camera_app: Flask) -> None:
    client = camera_app.test_client()
    assert client.get("/api/camera/rectified.png?board=main").status_code == 401  # a picture
    res = client.get("/api/camera/rectified.png?board=main", headers=AUTH)
    assert res.status_code == 200 and res.data.startswith(b"\x89PNG")
    img = cv2.imdecode(__import__("numpy").frombuffer(res.data, "uint8"), cv2.IMREAD_COLOR)
    assert img.shape[1] == 960 and img.shape[0] == 672  # 600 x 420 mm at 1.6 px/mm
    assert client.get("/api/camera/rectified.png?board=moon", headers=AUTH).status_code == 400


def test_changes_need_the_token_and_are_saved(camera_app: Flask, tmp_path: Path) -> None:
    client = camera_app.test_client()
    body = {"board": "main", "key": "space:harvest", "rect": [40, 40, 150, 112]}
    assert client.post("/api/camera/region", json=body).status_code == 401
    res = client.post("/api/camera/region", json=body, headers=AUTH)
    assert res.status_code == 200, res.get_json()
    saved = json.loads((tmp_path / "games.camera.json").read_text())
    harvest = next(r for r in saved["layout"]["boards"]["main"]["regions"]
                   if r["name"] == "space:harvest")
    assert harvest["rect"] == [40, 40, 150, 112]
    bad = client.post("/api/camera/region", json={**body, "key": "space:moon"}, headers=AUTH)
    assert bad.status_code == 422
    assert client.post("/api/camera/empty", headers=AUTH).status_code == 200
    assert client.get("/api/camera/calibration").get_json()["steps"][-1] == "empty"


def test_learn_cubes_from_the_camera(camera_app: Flask, tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    cv2.imwrite(str(frames / "a.png"),
                render(load(), from_dict({"space:church": {"green": 3}}), Scene(seed=2)).image)
    client = camera_app.test_client()
    res = client.post("/api/camera/cubes", json={"placed": {"space:church": ["green", 3]}},
                      headers=AUTH)
    assert res.status_code == 200, res.get_json()
    green = res.get_json()["colours"]["green"]
    assert abs(green[1] - 150) < 40 and green[1] > green[0] and green[1] > green[2]


def test_no_camera(client: FlaskClient) -> None:
    res = client.get("/api/camera/rectified.png", headers=AUTH)
    assert res.status_code == 404 and res.get_json()["code"] == "no_camera"


def test_frames_come_from_the_running_camera(app: Flask) -> None:
    from companion.sensors.camera import CameraAdapter
    from vision.sources import SimSource

    layout = load()
    image = render(layout, TableView(), Scene(seed=4)).image
    adapter = CameraAdapter(lambda: SimSource(lambda n: image), lambda o: None)
    adapter.step()
    runtime_of(app).adapters.append(adapter)
    res = app.test_client().get("/api/camera/rectified.png?board=farm:blue", headers=AUTH)
    assert res.status_code == 200 and res.data.startswith(b"\x89PNG")
