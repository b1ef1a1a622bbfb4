"""Helpers for the real-browser tests: the app served as in production on 127.0.0.1,
opening a page that records script errors, and clicking legal options. The fixtures that use them
(``server``, ``browser``, ``shots``) are in ``conftest.py``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, bound_socket, make_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-dev-shm-usage"]
TOKEN = "browser-test-token"
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

# Every browser test module: `pytestmark = BROWSER` (then `sync_api = needs_playwright()`).
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is not installed"),
]


def needs_playwright() -> Any:
    """Playwright's sync API, or skip the module when it is not installed."""
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


class Server:
    """The app served as in production (`Served`) in a thread; `url`, and JSON helpers
    that use the real API."""

    def __init__(self, db: Path) -> None:
        from web import runtime_of

        sock, url = bound_socket()
        # links for phones: given explicitly here (a loopback address is otherwise replaced
        # by the host's LAN address, where this test server does not listen)
        self.app = make_app(db_path=db, boxcheck_path=db.with_name("boxcheck.json"),
                            table_token=TOKEN, public_url=url)
        self.runtime = runtime_of(self.app)
        self.service = self.runtime.service
        self.served = Served(self.app, sock)
        self.url = self.served.url

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return json.loads(r.read())

    def post(self, path: str, body: dict[str, Any]) -> Any:
        req = urllib.request.Request(
            self.url + path,
            data=json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=5) as r:
            return json.loads(r.read())

    def close(self) -> None:
        self.served.close()
        self.runtime.close()


def open_page(browser: Any, url: str, viewport: dict[str, int] = TABLET) -> Any:
    """A new page at `url`; `page.js_errors` collects uncaught script errors."""
    page = browser.new_page(viewport=viewport)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


def seq(server: Server) -> int:
    return int(server.get("/api/state")["seq"])


def settle(page: Any, server: Server) -> str:
    """Wait until the play page (or the mass page) shows the options of the server's
    current seq (``#options[data-seq]``, set once they are drawn); returns their kind.
    The confirmation of an event (``#done``) shows before the options are redrawn."""
    now = seq(server)
    page.locator(f"#options[data-seq='{now}']").wait_for(state="attached")
    return str(page.locator("#options").get_attribute("data-kind"))


def _all_draws_listed(page: Any, server: Server) -> None:
    """After a page showed a draw's seed: wait for its list of every draw of the game
    (``#all-draws``), which it fetches afterwards."""
    n = len(server.get("/api/draws")["draws"])
    page.wait_for_function("n => document.querySelectorAll('#all-draws li').length === n", arg=n)


def wait_drawn(page: Any, server: Server) -> None:
    """Wait until a page just opened shows the server's current state in full, by what the
    page does last when it draws it (the server must not move on meanwhile). A fixed pause
    is no such condition: on a loaded machine a page draws later."""
    name = page.locator("body").get_attribute("data-page")
    if name == "pages.scoreboard":
        page.locator(f"body[data-seq='{seq(server)}']").wait_for(state="attached")
    elif name == "pages.play":
        settle(page, server)
    elif name == "pages.mass":
        settle(page, server)  # the black bag, the church, the story, the options
        # then, with no draw on offer or under way, the seed of the last mass's draw
        st = server.get("/api/state")
        offered = (st.get("draw") or {}).get("draw") == "mass_draw"
        drawing = (st.get("pending") or {}).get("kind") == "mass_draw"
        last = server.get("/api/draws")["latest"].get("mass_draw")
        if not offered and not drawing and last and last["virtual"]:
            page.locator("#verify:is(.ok, .bad)").wait_for(state="attached")
            _all_draws_listed(page, server)
    elif name == "pages.green_bag":
        # the placement is drawn last (after the draw it comes from is fetched), in the same
        # step as the seed of a virtual draw
        page.locator("#placement .placement").first.wait_for(state="attached")
        if page.locator("#reveal-panel").is_visible():
            _all_draws_listed(page, server)
    elif name == "pages.answer":
        page.locator(f"#answer-status[data-seq='{seq(server)}']").wait_for(state="attached")
    elif name == "pages.player_view":
        page.locator("#me-score tr[data-score=total]").wait_for(state="attached")
    elif name == "pages.links":
        # its status line says what it shows (the game's links, or that it needs the table
        # token), in the same step as the links
        page.wait_for_function(
            "() => document.getElementById('links-status').textContent !== 'Loading…'"
        )
    elif name == "pages.new_game":
        try:
            st = server.get("/api/state")
        except urllib.error.HTTPError:
            st = None  # no game: the page has nothing to fetch and show
        if st is not None and not st["over"]:
            page.locator("#in-progress").wait_for()  # the note that a game is in progress
    elif name != "pages.box_check":  # the box check is drawn by the server
        raise ValueError(f"no way known to tell when {name} has drawn the state")


def click_and_wait(page: Any, button: Any, server: Server) -> str:
    """Click an option button on the play page; wait until the page confirms the new event
    (its narration in ``#done``, marked with the event's seq) and check the game moved on
    by exactly one event. Returns the button's label (without its cost line; a row's pick
    by its full name). Waits first
    for the options of the server's current seq, so that `button` is not one left over
    from the previous event (its label would be stale, its click refused as out of date)."""
    settle(page, server)
    before = seq(server)
    button.wait_for()
    label_el = button.locator(".option-label")
    named = button.get_attribute("aria-label")  # a row's small pick, named in full
    label = str(named or (label_el.inner_text() if label_el.count() else button.inner_text()))
    button.click()
    page.wait_for_function(
        "n => { const d = document.querySelector('#done');"
        " return d && !d.hidden && d.dataset.seq === String(n); }",
        arg=before + 1,
    )
    assert seq(server) == before + 1
    return label


def play_options(page: Any, count: int, server: Server) -> list[str]:
    """Click the first legal option `count` times (a virtual draw at a chance point);
    returns the labels clicked. Each click must move the game on by one event."""
    return [click_and_wait(page, page.locator("button.option").first, server) for _ in range(count)]
