"""Colonia's secret choices on three phones in a real browser: Tuesday's family cards and a
vote, each player tapping on their own sealed-choice page (`/answer/<colour>`); the others'
pages say whom they wait for and never show an answer before the reveal. Screenshots go to
``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TABLET, Server, needs_playwright, open_page, seq

sys.path.insert(0, str(Path(__file__).parent.parent / "colonia"))
from colonia_kit import learned

pytestmark = BROWSER
needs_playwright()

PLAYERS = ["red", "blue", "green"]


def _to_tuesday(server: Server) -> dict[str, str]:
    made = server.post("/api/games", {"game": "colonia", "players": PLAYERS,
                                      "options": {"cards": learned(3)}})
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in made["players"].items()}
    for i in range(1, 5):
        server.post("/api/actions", {"type": "reveal", "deck": "ship", "card": f"S{i}"})
    for i in range(1, 11):
        server.post("/api/actions", {"type": "reveal", "deck": "relic", "card": f"R{i}"})
    server.post("/api/actions", {"type": "reveal", "deck": "week", "card": "W1"})
    server.post("/api/actions", {"type": "virtual_draw"})
    for i in (1, 2, 3):
        server.post("/api/actions", {"type": "reveal", "deck": "decree", "card": f"D{i}"})
    return tokens


def _tap(page: Any, value: str, last: bool = False) -> None:
    """Tap an answer; unless it is the last one (which opens them all), wait until the
    page shows it as this player's sealed answer."""
    page.locator(f"[data-answer='{value}']").click()
    if not last:
        page.locator(f"[data-answer='{value}'][aria-pressed='true']").wait_for()


def test_family_cards_and_a_vote_on_three_phones(server: Server, browser: Any,
                                                  shots: Path) -> None:
    tokens = _to_tuesday(server)
    phones = {c: open_page(browser, f"{server.url}/answer/{c}?token={tokens[c]}", PHONE)
              for c in PLAYERS}
    for page in phones.values():
        page.locator("[data-answer='3']").wait_for()
    start = seq(server)

    _tap(phones["red"], "8")
    _tap(phones["red"], "5")  # changed before the last answer is in
    _tap(phones["blue"], "7")
    green = phones["green"]
    green.locator("#answer-waiting", has_text="Waiting for Green.").wait_for()
    green.screenshot(path=str(shots / "colonia-answer-family-phone.png"), full_page=True)
    phones["red"].screenshot(path=str(shots / "colonia-answer-sealed-phone.png"), full_page=True)
    assert seq(server) == start  # nothing stored before the last answer
    for c in ("blue", "green"):  # nothing of red's or blue's answer on the others' phones
        body = phones[c].locator("body").inner_text()
        assert "Your answer: 5" not in body and ("Your answer: 7" not in body or c == "blue")

    _tap(green, "3", last=True)
    # one event: the cards revealed, the order set; now Wednesday's vote on the same pages
    green.locator("#answer-question", has_text="Do you vote").wait_for()
    state = server.get("/api/state")
    assert seq(server) == start + 1
    assert state["order"] == ["blue", "red", "green"]
    assert [p["card"] for p in state["players"]] == [5, 7, 3]

    _tap(phones["red"], "yes")
    _tap(phones["blue"], "no")
    tablet = open_page(browser, f"{server.url}/answer/green?token={tokens['green']}", TABLET)
    tablet.locator("#answer-waiting", has_text="Waiting for Green.").wait_for()
    tablet.screenshot(path=str(shots / "colonia-answer-vote-tablet.png"))
    _tap(green, "yes", last=True)
    green.locator("#answer-panel").wait_for(state="hidden")
    decree = [d for d in server.get("/api/state")["decrees"] if d["adopted"] is not None]
    assert decree and decree[0]["adopted"] is True  # red 5 + green 3 against blue 7
    green.locator("#screen-panel").wait_for()
    green.screenshot(path=str(shots / "colonia-answer-screen-phone.png"), full_page=True)
    for page in [*phones.values(), tablet]:
        assert page.js_errors == [], page.js_errors
