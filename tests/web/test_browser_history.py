"""The table's history page in Chromium: two finished games (golden records imported), the
per-player figures and each game's play-log links; the BG Stats file downloads. Screenshots
go to ``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, needs_playwright, open_page

pytestmark = BROWSER
needs_playwright()

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def test_the_history_page(server: Any, browser: Any, shots: Path) -> None:
    for name in ("four-players", "port-and-life-goals-four-players"):
        server.service.import_record((GOLDEN / f"{name}.jsonl").read_text())
    page = open_page(browser, server.url + "/history")
    rows = page.locator("table.history-table").first.locator("tbody tr")
    assert rows.count() == 4  # four families
    assert page.locator("#live").is_hidden()
    with page.expect_download() as got:
        page.locator("a", has_text="BG Stats").first.click()
    doc = json.loads(Path(got.value.path()).read_text())
    assert doc["plays"][0]["expansionPlays"]  # the newest game first: Port and life goals
    page.screenshot(path=str(shots / "history-tablet.png"), full_page=True)
    phone = open_page(browser, server.url + "/history", PHONE)
    phone.screenshot(path=str(shots / "history-phone.png"))
    assert page.js_errors == [] and phone.js_errors == []
