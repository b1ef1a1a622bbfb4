"""A discrepancy seen by a running camera, in a real browser: the runtime watches a folder of
rendered frames (``companion serve --camera FOLDER``) through the real camera adapter and
the real reconciler, behind a real server (uvicorn, as `companion serve` runs it). The frames show the game's table with
cubes on two action spaces that no legal action puts there, so a discrepancy is raised;
on the play page its card shows, for each differing region, the camera's crop of that
region (``/api/camera/crop.png?region=R``), loaded, and cut from the frame at that region."""

from __future__ import annotations

import random
import re
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from browserkit import BROWSER, PHONE, TABLET, TOKEN, Served, needs_playwright, open_page

import companion.village as v
from companion.runtime import Runtime
from companion.settings import Settings
from companion.sim.camera_game import table_view
from companion.village.picture import picture
from vision.layout import load
from vision.render import Scene, render

pytestmark = BROWSER
needs_playwright()

LAYOUT = load()
MARGIN_MM = 15.0  # the adapter's crop margin around a region (CameraAdapter.crop)
FRAMES = 10  # one pass of the folder: enough frame time (10 fps) for a reading to settle
# cubes the camera sees that the game does not have: no legal action puts cubes on a space
EXTRA = {"space:market": {"pink": 2}, "space:church": {"green": 2}}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Runtime, str, Path]]:
    """A runtime whose camera is the (not yet existing) folder ``frames``, served."""
    from web import create_app

    folder = tmp_path / "frames"
    rt = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "boxcheck.json", camera=str(folder)))
    rt.start()
    served = Served(create_app(rt))
    yield rt, served.url, folder
    served.close()
    rt.close()


def crops_loaded(page: Any, discrepancy: int, n: int) -> None:
    """Wait until the card of ``discrepancy`` holds ``n`` crop pictures, each loaded (a crop
    that failed to load removes itself)."""
    page.wait_for_function(
        """([id, n]) => {
             const c = document.querySelector(`.sensing-discrepancy[data-id="${id}"]`);
             const imgs = c ? [...c.querySelectorAll('img.sensing-crop')] : [];
             return imgs.length === n && imgs.every((i) => i.complete && i.naturalWidth > 0);
           }""",
        arg=[discrepancy, n],
        timeout=20_000,
    )


def until(check: Any, what: str, timeout: float = 20.0) -> None:
    """Poll `check()` until it is true; fail saying `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not so after {timeout} s: {what}"
        time.sleep(0.05)


def to_a_turn_with_cubes_out(rt: Runtime) -> v.GameState:
    """Play (as the tablet) until a player is to move with cubes on the action spaces."""
    svc, rng = rt.service, random.Random(5)
    svc.new_game(["red", "blue"])
    for _ in range(400):
        st = svc.state()
        on_spaces = sum(sum(c.values()) for r, c in picture(st).cubes.items()
                        if r.startswith("space:"))
        if v.pending(st).kind == "turn" and on_spaces:
            return st
        svc.submit(rng.choice(svc.legal()), "tablet")
    pytest.fail("no turn with cubes on the spaces came up")


def the_table_with_extra_cubes(st: v.GameState, folder: Path) -> Any:
    """Write the camera's folder: the table of `st` plus `EXTRA`; the rendered frame."""
    view = table_view(st, LAYOUT)
    for region, extra in EXTRA.items():
        counts = view.cubes.setdefault(region, {})
        for colour, n in extra.items():
            counts[colour] = counts.get(colour, 0) + n
    shown = render(LAYOUT, view, Scene(seed=1, camera=1, pieces=1))
    staging = folder.with_name("staging")
    staging.mkdir()
    for i in range(FRAMES):
        cv2.imwrite(str(staging / f"{i:03}.png"), shown.image)
    staging.rename(folder)  # the camera finds the whole pass at once
    return shown


def expected_box(shown: Any, region: str) -> tuple[int, int, int, int]:
    """Where the crop of `region` lies in the frame (x0, y0, x1, y1 pixels), from the
    renderer's own board → frame homography."""
    for board in LAYOUT.boards.values():
        rects = [r.rect for r in board.regions if r.name == region]
        if rects:
            x0 = min(r[0] for r in rects) - MARGIN_MM
            y0 = min(r[1] for r in rects) - MARGIN_MM
            x1 = max(r[2] for r in rects) + MARGIN_MM
            y1 = max(r[3] for r in rects) + MARGIN_MM
            corners = np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32)
            pts = cv2.perspectiveTransform(corners, shown.homographies[board.name])[0]
            h, w = shown.image.shape[:2]
            a0, b0 = np.clip(pts.min(axis=0), 0, [w, h]).astype(int)
            a1, b1 = np.clip(np.ceil(pts.max(axis=0)), 0, [w, h]).astype(int)
            return int(a0), int(b0), int(a1), int(b1)
    raise AssertionError(f"no region {region} in the layout")


def fetch_png(url: str, region: str) -> bytes:
    query = urllib.parse.urlencode({"region": region, "token": TOKEN})
    with urllib.request.urlopen(f"{url}/api/camera/crop.png?{query}", timeout=5) as r:
        assert r.headers["Content-Type"] == "image/png"
        return bytes(r.read())


def open_discrepancy(rt: Runtime) -> dict[str, Any] | None:
    return next((m for name, m in rt.sensing.open_messages() if name == "discrepancy"), None)


def test_the_discrepancy_card_shows_the_cameras_crops(served: Any, browser: Any,
                                                     shots: Path) -> None:
    rt, url, folder = served
    st = to_a_turn_with_cubes_out(rt)
    before = rt.service.seq()
    page = open_page(browser, f"{url}/play#token={TOKEN}", viewport=TABLET)
    page.locator("#live[data-state='live']").wait_for(state="attached")
    page.locator(f"#options[data-seq='{rt.service.seq()}']").wait_for(state="attached")

    # the camera comes on and sees cubes the game does not have: a discrepancy
    shown = the_table_with_extra_cubes(st, folder)
    until(lambda: open_discrepancy(rt) is not None, "the reconciler raised a discrepancy")
    found = open_discrepancy(rt)
    assert found is not None
    regions = sorted({i["region"] for i in found["items"]})
    assert regions == sorted(EXTRA), found["items"]  # exactly the regions the cubes are on
    assert rt.service.seq() == before  # nothing was made of it

    card = page.locator(f".sensing-discrepancy[data-id='{found['id']}']")
    card.wait_for(timeout=20_000)
    assert card.locator("li").count() == len(found["items"])
    crops = card.locator("img.sensing-crop")
    # one picture per differing region, each loaded (a crop that failed removes itself)
    crops_loaded(page, found["id"], len(regions))
    srcs = [urllib.parse.urlparse(s) for s in
            crops.evaluate_all("imgs => imgs.map((i) => i.getAttribute('src'))")]
    assert [s.path for s in srcs] == ["/api/camera/crop.png"] * len(regions)
    shown_regions = [urllib.parse.parse_qs(s.query)["region"][0] for s in srcs]
    assert sorted(shown_regions) == regions
    sizes = crops.evaluate_all("imgs => imgs.map((i) => [i.naturalWidth, i.naturalHeight])")

    # each picture is the camera's frame cut around its region
    for region, (nat_w, nat_h) in zip(shown_regions, sizes, strict=True):
        png = fetch_png(url, region)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        crop = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        assert crop is not None
        h, w = crop.shape[:2]
        x0, y0, x1, y1 = expected_box(shown, region)
        assert abs(w - (x1 - x0)) <= 4 and abs(h - (y1 - y0)) <= 4, (region, w, h,
                                                                       (x0, y0, x1, y1))
        assert abs(nat_w - w) <= 4 and abs(nat_h - h) <= 4, (region, nat_w, nat_h, w, h)
        # found in the frame where the region is, pixel for pixel
        match = cv2.matchTemplate(shown.image, crop, cv2.TM_SQDIFF_NORMED)
        best, _worst, at, _ = cv2.minMaxLoc(match)
        assert best < 1e-6 and abs(at[0] - x0) <= 4 and abs(at[1] - y0) <= 4, (region, best,
                                                                                at, x0, y0)

    # the sensors' health in words, not the device's id (here a folder's path)
    page.wait_for_function("() => document.querySelector('.sensing-health').textContent")
    words = page.locator(".sensing-health").inner_text()
    assert re.fullmatch(r"Camera: (working|connecting…|working, with read errors|"
                        r"not answering, retrying)", words), words
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "play-discrepancy-crops-tablet.png"))

    # a phone that opens the play page now is sent the open discrepancy, crops and all
    phone = open_page(browser, f"{url}/play#token={TOKEN}", viewport=PHONE)
    phone.locator("#live[data-state='live']").wait_for(state="attached")
    crops_loaded(phone, found["id"], len(regions))
    phone_card = phone.locator(f".sensing-discrepancy[data-id='{found['id']}']")
    # the pictures fit the phone's width
    widths = phone_card.locator("img.sensing-crop").evaluate_all(
        "imgs => imgs.map((i) => i.getBoundingClientRect().right)")
    assert all(0 < r <= PHONE["width"] for r in widths), widths
    phone_card.scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "play-discrepancy-crops-phone.png"))
    assert page.js_errors == [] and phone.js_errors == []
