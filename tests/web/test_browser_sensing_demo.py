"""The sensing demo (``companion serve --demo --sensors sim``: a game played on a simulated
table, seen by simulated reader hub and camera, through the real reconciler) watched in a
real browser for a while, as issue 18 item 8 found it: the play page on a tablet and a phone,
the scoreboard, the Tags page and the box check never show a developer artefact (program
labels, tile ids, "seed 000"…); "What the sensors saw" lists readings in words; a prompt's
buttons each say what sets them apart, short."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, bound_socket, make_app
from browserkit import BROWSER, PHONE, TABLET, TOKEN, needs_playwright, open_page
from test_browser_game import assert_plain

from web import runtime_of

pytestmark = BROWSER
needs_playwright()

WATCH_SECONDS = 45.0


@pytest.mark.slow
def test_the_sensing_demo_through_the_pages(tmp_path: Path, browser: Any, shots: Path) -> None:
    sock, url = bound_socket()
    app = make_app(db_path=tmp_path / "demo.sqlite3", boxcheck_path=tmp_path / "boxcheck.json",
                   table_token=TOKEN, public_url=url, demo=True, sensors="sim")
    runtime = runtime_of(app)
    served = Served(app, sock)
    runtime.start()
    try:
        tablet = open_page(browser, url + f"/play#token={TOKEN}", TABLET)
        phone = open_page(browser, url + f"/play#token={TOKEN}", PHONE)
        board = open_page(browser, url + "/", TABLET)
        tags = open_page(browser, url + f"/tags#token={TOKEN}", TABLET)
        box = open_page(browser, url + f"/boxcheck#token={TOKEN}", TABLET)
        assert_plain(box, "box check")
        tablet.locator("#sensing-seen li").first.wait_for(state="attached", timeout=20_000)
        prompts = 0
        end = time.monotonic() + WATCH_SECONDS
        while time.monotonic() < end:
            for page, where in ((tablet, "play"), (phone, "play on a phone"), (board, "scoreboard"),
                                (tags, "tags")):
                assert_plain(page, f"sensing demo, {where}")
            assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            if tablet.locator(".sensing-prompt").count():
                prompts += 1
                if prompts == 1:
                    tablet.screenshot(path=str(shots / "play-sensing-demo-prompt-tablet.png"))
                    phone.screenshot(path=str(shots / "play-sensing-demo-prompt-phone.png"))
                words = tablet.locator(".sensing-prompt .sensing-choice").all_inner_texts()
                assert all(len(w) <= 120 for w in words), words  # its own words, not the move
            time.sleep(1.0)
        latest = tablet.locator("#sensing-seen summary").inner_text()
        assert latest.startswith("What the sensors saw: ") and len(latest) > 30, latest
        tablet.locator("#sensing-seen summary").click()  # opened: the last few readings
        seen = tablet.locator("#sensing-seen li").all_inner_texts()
        assert 1 <= len(seen) <= 6, seen
        # deaths and buy-outs are tapped on the pad in every setup (companion/sim/table.py)
        assert all(w.split(":", 1)[0].split(" (")[0] in ("Reader hub", "Camera", "Tag pad")
                   for w in seen), seen
        tablet.screenshot(path=str(shots / "play-sensing-demo-tablet.png"))
        phone.locator("#sensing-seen summary").click()
        phone.screenshot(path=str(shots / "play-sensing-demo-phone.png"))
        # the Tags page does not contradict the panel: no readers, the sensors simulated
        assert "Simulated" in tags.locator("main").inner_text()
        for page in (tablet, phone, board, tags, box):
            assert page.js_errors == [], page.js_errors
    finally:
        served.close()
        runtime.close()
