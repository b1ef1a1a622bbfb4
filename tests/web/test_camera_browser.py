"""The calibration page in Chromium: the rectified board appears with the layout over it;
dragging a region saves its new place."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
from browserkit import BROWSER, TOKEN, Server, open_page

from vision.layout import load
from vision.render import Scene, render
from vision.table import TableView
from web import runtime_of

pytestmark = BROWSER


def test_drag_a_region_and_it_is_saved(server: Server, browser: Any, shots: Path,
                                       tmp_path: Path) -> None:
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), render(load(), TableView(), Scene(seed=1)).image)
    server.runtime.settings = server.runtime.settings.with_(camera_source=str(frames))
    page = open_page(browser, server.url + f"/calibrate#token={TOKEN}")
    region = page.locator('.cal-region[data-key="space:harvest"]')
    region.wait_for()
    page.wait_for_function("document.getElementById('cal-image').naturalWidth > 0")
    page.screenshot(path=str(shots / "calibrate.png"))
    region.scroll_into_view_if_needed()  # the lens step comes first, above the board
    box = region.bounding_box()
    assert box is not None
    k = page.evaluate("document.getElementById('cal-image').clientWidth") / 600
    page.mouse.move(box["x"] + 30, box["y"] + 30)
    page.mouse.down()
    page.mouse.move(box["x"] + 30 + 10 * k, box["y"] + 30 + 5 * k, steps=4)
    page.mouse.up()
    page.wait_for_function("document.getElementById('cal-steps').textContent.includes('moved')")
    saved = json.loads(Path(runtime_of(server.app).store.path).with_suffix(".camera.json")
                       .read_text())
    harvest = next(r for r in saved["layout"]["boards"]["main"]["regions"]
                   if r["name"] == "space:harvest")
    assert abs(harvest["rect"][0] - 56) < 1.5 and abs(harvest["rect"][1] - 45) < 1.5
    assert page.js_errors == []


def test_the_lens_step_guides_the_sheet_and_computes_the_lens(server: Server, browser: Any,
                                                              shots: Path) -> None:
    """Photos taken with the button while the sheet is held where the page says; the
    coverage picture and the words follow; shot at tablet and phone size."""
    from browserkit import PHONE
    from test_camera_lens import Held

    held = Held()
    server.runtime.adapters.append(held)  # the running camera the page shows
    page = open_page(browser, server.url + f"/calibrate#token={TOKEN}")
    page.wait_for_function("document.getElementById('lens-say').textContent.includes('middle')")
    for n in range(7):
        held.n = n
        page.click("#lens-photo")
        page.wait_for_function(
            f"document.getElementById('lens-state').textContent.startsWith('{n + 1} photos')")
    assert page.locator("#lens-compute").is_enabled()
    page.wait_for_function("document.getElementById('lens-coverage').naturalWidth > 0")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(shots / "calibrate-lens-tablet.png"), full_page=True)
    phone = open_page(browser, server.url + f"/calibrate#token={TOKEN}", PHONE)
    phone.wait_for_function("document.getElementById('lens-coverage').naturalWidth > 0")
    phone.wait_for_function("document.getElementById('lens-state').textContent.startsWith('7')")
    phone.screenshot(path=str(shots / "calibrate-lens-phone.png"), full_page=True)
    page.click("#lens-compute")
    page.wait_for_function(
        "document.getElementById('lens-state').textContent.includes('lens in force')")
    assert "field of view" in page.locator("#lens-state").inner_text()
    assert page.js_errors == [] and phone.js_errors == []


def test_the_empty_boards_step_takes_frames_and_names_what_it_did_not_find(
        server: Server, browser: Any, shots: Path) -> None:
    """Frames of the empty table taken with the button (a farm hidden in each, one in
    all); the words name it; learned; shot at tablet and phone size."""
    from browserkit import PHONE
    from test_camera_empty import Camera

    from tests.vision.test_vision_empty_frames import covered_frame

    layout = load()
    cam = Camera()
    server.runtime.adapters.append(cam)
    page = open_page(browser, server.url + f"/calibrate#token={TOKEN}")
    page.wait_for_function("document.getElementById('empty-say').textContent.includes('Take')")
    assert page.locator("#cal-empty").is_disabled()
    for n, cover in enumerate([("farm:red", "farm:white"), ("farm:blue", "farm:white")]):
        cam.frame = covered_frame(layout, 1 + n, cover=cover)
        page.click("#empty-frame")
        page.wait_for_function(
            f"document.getElementById('empty-state').textContent.startsWith('{n + 1} frames')")
    assert "farm:white in none" in page.locator("#empty-state").inner_text()
    say = page.locator("#empty-say").inner_text()
    assert "Not found in any frame yet: farm:white" in say and "Take 1 more" in say
    page.wait_for_function("document.getElementById('cal-image').naturalWidth > 0")
    up = "window.scrollTo(0, document.getElementById('empty-step').offsetTop - 60)"
    page.evaluate(up)
    page.screenshot(path=str(shots / "calibrate-empty-tablet.png"))
    phone = open_page(browser, server.url + f"/calibrate#token={TOKEN}", PHONE)
    phone.wait_for_function(
        "document.getElementById('empty-state').textContent.startsWith('2 frames')")
    phone.evaluate(up)
    phone.screenshot(path=str(shots / "calibrate-empty-phone.png"))
    page.click("#cal-empty")
    page.wait_for_function(
        "document.getElementById('empty-say').textContent.includes('Empty boards learned')")
    assert "Not learned: farm:white" in page.locator("#empty-say").inner_text()
    assert "empty" in page.locator("#cal-steps").inner_text()
    page.evaluate(up)
    page.screenshot(path=str(shots / "calibrate-empty-learned-tablet.png"))
    assert page.js_errors == [] and phone.js_errors == []
