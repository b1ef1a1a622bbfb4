"""The tags page in Debian's Chromium, driven by real taps: a real pcscd with vpcd, the
PC/SC pad feeding the server as the runtime would (``runtime_of(app).running``), the page
enrolling the black monks tap by tap (a tag tapped twice and a tag of another piece caught,
skip, undo), the reader panel, an unknown tag enrolled on the spot; screenshots at
1280×800 and 390×844."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pcscdkit import READER_0, Pcscd
from vcard import VirtualTag

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from appkit import make_app
from browserkit import (
    BROWSER,
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    TABLET,
    needs_playwright,
    open_page,
)

from companion.sensors.pcsc_pad import PcscPad
from web import runtime_of

pytestmark = BROWSER
sync_api = needs_playwright()
TOKEN = "tags-browser-token"


class TagServer:
    """The app served as in production on 127.0.0.1 with the tap pad attached."""

    def __init__(self, db: Path) -> None:
        from browserkit import Served

        self.app = make_app(db_path=db, table_token=TOKEN, boxcheck_path=db.with_name("boxcheck.json"))
        self.runtime = runtime_of(self.app)
        self.service = self.runtime.service
        self.registry = self.runtime.registry
        running = self.runtime.running
        self.pad = PcscPad(running.observe, self.registry.lookup, name="pad")
        running.add(self.pad)
        self.pad.start()
        self.served = Served(self.app)
        self.url = self.served.url

    def close(self) -> None:
        self.pad.close()
        self.served.close()
        self.runtime.close()


@pytest.fixture
def server(pcscd: Pcscd, tmp_path: Path) -> Iterator[TagServer]:
    s = TagServer(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    import os

    path = Path(os.environ.get("VILLAGE_SCREENSHOTS") or tmp_path / "shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def tap(uid: str, port: int = 35963) -> None:
    """A tag held on the reader for a moment, then lifted."""
    with VirtualTag(uid, port):
        time.sleep(0.9)
    time.sleep(0.4)


def said(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('enrol-said').textContent.includes(t)", arg=text,
        timeout=8000)


def open_listening(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    """The tags page at `url`, once it listens for taps: its long poll from the last tap
    (``/api/tags/taps?after=…``) has started, which it does after loading the pieces and
    skipping the taps made before. A tap earlier than that is not handled."""
    page = open_page(browser, "about:blank", viewport)
    with page.expect_request(lambda r: "/api/tags/taps?after=" in r.url):
        page.goto(url)
    return page


def test_enrolment_by_taps(server: TagServer, browser: Any, shots: Path) -> None:
    server.registry.enrol("0A0B0C0D", "red-1a")
    page = open_listening(browser, f"{server.url}/tags#token={TOKEN}", TABLET)
    page.wait_for_selector(f"#reader-table tr[data-reader='{READER_0}']")
    page.select_option("#enrol-colour", "monk")
    page.click("#enrol-start")
    page.wait_for_function("document.getElementById('enrol-ask').textContent.includes('black monk 1')")

    tap("11111111")
    said(page, "monk-1 = 11111111")
    page.wait_for_function("document.getElementById('enrol-ask').textContent.includes('black monk 2')")
    tap("11111111")  # the same tag again
    said(page, "was just enrolled to monk-1")
    tap("0A0B0C0D", 35964)  # red-1a's tag
    said(page, "already enrolled to red-1a")
    page.click("#enrol-skip")
    said(page, "Skipped monk-2")
    tap("33333333")
    said(page, "monk-3 = 33333333")
    page.click("#enrol-undo")
    said(page, "Undone: monk-3 no longer 33333333")
    tap("33333333")
    said(page, "monk-3 = 33333333")
    # what was said shows first; the progress once the pieces are loaded again
    page.wait_for_function(
        "document.getElementById('enrol-progress').textContent.includes('Piece 4 of 4')")
    assert server.registry.enrolled() == {"red-1a": "0A0B0C0D", "monk-1": "11111111",
                                          "monk-3": "33333333"}
    # the reader panel saw the taps
    page.wait_for_function(
        f"document.querySelector(\"#reader-table tr[data-reader='{READER_0}']\").textContent.includes('s ago')")
    page.evaluate("window.scrollTo(0, 0)")  # the sticky bar stays on top in a full-page shot
    page.screenshot(path=str(shots / "tags-enrol-1280.png"), full_page=True)
    assert page.js_errors == []

    phone = open_page(browser, f"{server.url}/tags#token={TOKEN}", PHONE)
    phone.wait_for_selector(f"#reader-table tr[data-reader='{READER_0}']")
    phone.wait_for_selector(".tag-cell[data-piece='monk-3'] code")
    phone.select_option("#enrol-colour", "monk")
    phone.click("#enrol-start")  # only the monks without a tag are asked for
    phone.wait_for_function(
        "document.getElementById('enrol-ask').textContent.includes('black monk 2')")
    assert "Piece 1 of 2" in phone.inner_text("#enrol-progress")
    phone.screenshot(path=str(shots / "tags-enrol-390.png"))
    assert phone.js_errors == []


def test_unknown_tag_enrolled_on_the_spot(server: TagServer, browser: Any, shots: Path) -> None:
    page = open_listening(browser, f"{server.url}/tags#token={TOKEN}", PHONE)
    page.wait_for_selector(f"#reader-table tr[data-reader='{READER_0}']")
    tap("04A2B3C4D5E680")
    page.wait_for_selector("#unknown:not([hidden])", timeout=8000)
    assert page.inner_text("#unknown-uid") == "04A2B3C4D5E680"
    page.select_option("#unknown-piece", "white-2c")
    page.screenshot(path=str(shots / "tags-unknown-390.png"))  # what the phone shows
    page.click("#unknown-form button")
    said(page, "white-2c = 04A2B3C4D5E680")
    assert server.registry.lookup("04A2B3C4D5E680") == "white-2c"
    tap("04A2B3C4D5E680")  # now known: named, not asked
    said(page, "white-2c (white 2, third copy)")
    assert page.js_errors == []
