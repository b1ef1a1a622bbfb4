"""The pages redraw from the live events alone: while another tablet plays, the play page,
the scoreboard and the mass page follow each event without asking for ``/api/state`` or
``/api/legal`` again (Chromium against a real server (uvicorn, as `companion serve` runs it)); after the stream
reconnects they do ask once."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from browserkit import BROWSER, TOKEN, Server, needs_playwright, open_page

pytestmark = BROWSER
needs_playwright()

PAGES = {
    "play": ("/play", "() => document.querySelector('#options').dataset.seq"),
    "scoreboard": ("/", "() => document.body.dataset.seq"),
    "mass": ("/mass", "() => document.querySelector('#options').dataset.seq"),
}


def _watch(page: Any) -> list[str]:
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.split("?")[0].rsplit("/api", 1)[-1])
            if "/api/state" in r.url or "/api/legal" in r.url else None)
    return asked


def _shows(page: Any, probe: str, n: int) -> None:
    page.wait_for_function(f"n => String(({probe})()) === String(n)", arg=n, timeout=10_000)


def test_pages_redraw_from_events_without_refetching(
    server: Server, browser: Any, shots: Path
) -> None:
    server.post("/api/games", {"players": ["red", "blue", "white"]})
    pages, asked = {}, {}
    for name, (path, _) in PAGES.items():
        page = open_page(browser, f"{server.url}{path}#token={TOKEN}")
        asked[name] = _watch(page)
        pages[name] = page
    n = server.get("/api/state")["seq"]
    for name, page in pages.items():
        _shows(page, PAGES[name][1], n)
    for log in asked.values():
        log.clear()

    rng = random.Random(4)
    for _ in range(12):
        action = rng.choice(server.get("/api/legal")["actions"])
        n = server.post("/api/actions", action)["seq"]
        for name, page in pages.items():
            _shows(page, PAGES[name][1], n)
    play = pages["play"]
    # what the play page shows is the legal actions of now, from the event
    legal = server.get("/api/legal")
    assert play.locator("#options").get_attribute("data-kind") == (legal["pending"] or {}).get(
        "kind", "")
    assert play.locator("#options button").count() > 0
    play.screenshot(path=str(shots / "play-live.png"), full_page=True)
    assert asked == {"play": [], "scoreboard": [], "mass": []}

    # a reconnect (the page becomes visible again counts the same) asks once more
    with play.expect_request(lambda r: "/api/state" in r.url), play.expect_request(
        lambda r: "/api/legal" in r.url
    ):
        play.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert sorted(set(asked["play"])) == ["/legal", "/state"]
    for page in pages.values():
        assert page.js_errors == []
