"""Colonia's decree drawn by hand from the real bag, in a real browser: each of three phones
(390×844) taps the two materials its player drew on `/answer/<colour>`; until the last is in,
the other phones and the table page show only who has reported, never a material; the last
report stores the draw, and each phone's screen shows its own two. Screenshots go to
``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page, seq

sys.path.insert(0, str(Path(__file__).parent.parent / "colonia"))
from colonia_kit import learned

pytestmark = BROWSER
needs_playwright()

PLAYERS = ["red", "blue", "green"]


def _to_the_decree(server: Server) -> dict[str, str]:
    """A seeded random game through the real API until the decree's materials are waited
    for (every decree is the two materials each, on Thursday)."""
    from companion.colonia.game import GAME
    from companion.sim.colonia_games import pick

    box = learned(3)
    box["colonia.decree"] = {f"D{i}": {"day": 4, "text": "invented",
                                       "effect": "two_materials_each"} for i in range(1, 19)}
    made = server.post("/api/games", {"game": "colonia", "players": PLAYERS,
                                      "options": {"cards": box}})
    tokens = {c: t if isinstance(t, str) else t["token"] for c, t in made["players"].items()}
    rng, named = random.Random(5), {}  # type: ignore[var-annotated]
    for _ in range(3000):
        st = server.service.state()
        if st.step == "private_materials":
            return tokens
        if st.step == "vote":
            choice = GAME.sealed_choice(st)
            assert choice is not None
            server.post("/api/actions", choice.action(dict.fromkeys(choice.players, "yes")))
        elif GAME.chance_spec(st) is not None:
            server.post("/api/actions", {"type": "virtual_draw"})
        else:
            server.post("/api/actions", pick(st, rng, named))
    raise AssertionError("the decree was never adopted")


def test_three_phones_report_their_materials_sealed(server: Server, browser: Any,
                                                     shots: Path) -> None:
    tokens = _to_the_decree(server)
    phones = {c: open_page(browser, f"{server.url}/answer/{c}?token={tokens[c]}", PHONE)
              for c in PLAYERS}
    for page in phones.values():
        page.locator("[data-draw='leather,iron']").wait_for()
    before = {c: server.get(f"/api/state?viewer={c}&token={tokens[c]}")["screen"]["materials"]
              for c in PLAYERS}
    start = seq(server)
    phones["red"].locator("[data-draw='iron,wood']").click()
    phones["red"].locator("[data-draw='iron,wood'][aria-pressed='true']").wait_for()
    phones["red"].locator("[data-draw='wood,fur']").click()  # changed before the last
    phones["red"].locator("[data-draw='wood,fur'][aria-pressed='true']").wait_for()
    phones["blue"].locator("[data-draw='leather,linen']").click()
    phones["blue"].locator("[data-draw='leather,linen'][aria-pressed='true']").wait_for()
    green = phones["green"]
    green.locator("#draw-waiting", has_text="Waiting for Green.").wait_for()
    green.screenshot(path=str(shots / "colonia-hand-draw-phone.png"), full_page=True)
    phones["red"].evaluate("window.scrollTo(0, 0)")
    phones["red"].screenshot(path=str(shots / "colonia-hand-draw-sealed-phone.png"),
                             full_page=True)
    assert seq(server) == start  # nothing stored before the last report
    assert green.locator("[aria-pressed='true']").count() == 0  # no other share shown
    assert green.locator("#draw-mine").inner_text() == "You have not reported yet."
    table = open_page(browser, f"{server.url}/colonia#token={TOKEN}", PHONE)
    table.locator("#col-hand-draw", has_text="Still to report: Green.").wait_for()
    assert not any(m in table.locator("#col-controls").inner_text().lower()
                   for m in ("leather", "linen", "fur"))

    green.locator("[data-draw='iron,iron']").click()
    green.locator("#draw-panel").wait_for(state="hidden")
    assert seq(server) == start + 1
    drawn = {"red": {"wood": 1, "fur": 1}, "blue": {"leather": 1, "linen": 1},
             "green": {"iron": 2}}
    for c in PLAYERS:
        screen = server.get(f"/api/state?viewer={c}&token={tokens[c]}")["screen"]["materials"]
        assert {m: screen[m] - before[c][m] for m in screen if screen[m] != before[c][m]} \
            == drawn[c]
