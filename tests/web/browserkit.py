"""Helpers for the real-browser tests: the app under waitress on 127.0.0.1, opening a page
that records script errors, and clicking legal options. The fixtures that use them
(``server``, ``browser``, ``shots``) are in ``conftest.py``."""

from __future__ import annotations

import json
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

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
    """The app under waitress in a thread; `url`, and JSON helpers that use the real API."""

    def __init__(self, db: Path) -> None:
        import waitress

        from web import create_app, table_service

        # short keep-alives: a stream notices a closed browser soon, so shutdown is quick
        self.app = create_app(
            {
                "DB_PATH": db,
                "BOXCHECK_PATH": str(db.with_name("boxcheck.json")),
                "TABLE_TOKEN": TOKEN,
                "SSE_KEEPALIVE": 0.3,
            }
        )
        self.service = table_service(self.app)
        self.server = waitress.create_server(self.app, host="127.0.0.1", port=0, threads=32)
        self.url = f"http://127.0.0.1:{self.server.effective_port}"  # type: ignore[union-attr]
        # links for phones: given explicitly here (a loopback address is otherwise replaced
        # by the host's LAN address, where this test server does not listen)
        self.app.config["PUBLIC_URL"] = self.url
        self.closing = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except OSError:
            # closing the listening socket under the running loop (a stream still open
            # pulls the loop's trigger) may end the loop with EBADF: expected while closing
            if not self.closing:
                raise

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
        self.closing = True
        self.server.close()
        self.server.task_dispatcher.shutdown(timeout=3)  # type: ignore[union-attr]
        self.thread.join(timeout=5)
        self.service.store.close()


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


def click_and_wait(page: Any, button: Any, server: Server) -> str:
    """Click an option button on the play page; wait until the page confirms the new event
    (its narration in ``#done``, marked with the event's seq) and check the game moved on
    by exactly one event. Returns the button's label (without its cost line)."""
    before = seq(server)
    button.wait_for()
    label_el = button.locator(".option-label")
    label = str(label_el.inner_text() if label_el.count() else button.inner_text())
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
