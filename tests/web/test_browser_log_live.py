"""The table log on the scoreboard and the play page grows from the live events' own
narration: while a game goes on (an undo included) the pages do not ask ``/api/log`` again,
and what they show is the server's log entry for entry; after missed events (a burst the
page folds into one redraw) they fetch it and still agree (Chromium, real server)."""

from __future__ import annotations

import random
from typing import Any

from browserkit import BROWSER, TABLET, TOKEN, Server, needs_playwright

pytestmark = BROWSER
needs_playwright()

PAGES = {"scoreboard": "/", "play": "/play"}
SHOWN = "() => [...document.querySelectorAll('#log .log-entry')].map(e => e.dataset.seq).join()"


def _expected(server: Server) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = server.get("/api/log?limit=6")["entries"]
    return entries[::-1]  # newest first, as shown


def _agrees(page: Any, server: Server) -> None:
    """Wait until the page's log lists the server's latest six entries, then compare them."""
    want = _expected(server)
    page.wait_for_function(f"s => ({SHOWN})() === s", arg=",".join(str(e["seq"]) for e in want),
                           timeout=10_000)
    items = page.locator("#log .log-entry")
    for i, entry in enumerate(want):
        item = items.nth(i)
        assert item.locator(".said").inner_text() == entry["narration"][0]
        assert ("undone" in (item.get_attribute("class") or "")) == entry["undone"], entry
        assert ("revert" in (item.get_attribute("class") or "")) == (entry["kind"] == "revert")


def test_the_log_grows_from_the_events_without_asking_again(server: Server, browser: Any) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    pages, asked, errors = {}, {}, []
    for name, path in PAGES.items():
        page = browser.new_page(viewport=TABLET)  # listening before the page loads
        asked[name] = []
        page.on("request", lambda r, log=asked[name]: log.append(r.url) if "/api/log" in r.url
                else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}{path}#token={TOKEN}")
        pages[name] = page
    for name, page in pages.items():
        # a page asks for the log as it opens: when it loads, and when its live stream opens
        # (as after any reconnect) — once only when the second redraw starts before the
        # first has asked (the newer one wins; about 4 runs in 10 on the play page, so an
        # exact count of two failed as often); the test counts what comes after
        page.locator("#live[data-state='live']").wait_for()
        _agrees(page, server)
        page.wait_for_timeout(300)  # the second redraw's request, if it makes one
        assert 1 <= len(asked[name]) <= 2, (name, asked[name])
    for log in asked.values():
        log.clear()

    rng = random.Random(11)
    for step in range(9):
        if step == 6:
            server.post("/api/undo", {})
        else:
            action = rng.choice(server.get("/api/legal")["actions"])
            server.post("/api/actions", action)
        for page in pages.values():
            _agrees(page, server)
    assert any(e["undone"] for e in _expected(server))  # the undo shows as taken back
    assert asked["scoreboard"] == []
    # the play page asks for the log only to confirm its own taps, and none were made here
    assert asked["play"] == []

    # a burst: the page folds the events into one redraw, sees a gap and fetches the log
    for _ in range(3):
        server.post("/api/actions", rng.choice(server.get("/api/legal")["actions"]))
    for page in pages.values():
        _agrees(page, server)
    assert errors == []
