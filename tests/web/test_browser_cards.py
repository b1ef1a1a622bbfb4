"""The box check page's learned cards in a real browser (Debian's Chromium, Playwright,
the app under uvicorn): a card learned at the table is listed with its type's form,
corrected, then forgotten. Screenshots at tablet and phone sizes
(``VILLAGE_SCREENSHOTS=docs/screenshots`` keeps them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page

pytestmark = BROWSER
needs_playwright()

FRIEND = {"sex": "female", "nationality": "Prussian", "activity": "artist", "gold": 1,
          "income": 0, "friends": 1, "prestige": 1, "effect": "gold3_if_same_nationality"}


def test_a_learned_card_is_corrected_then_forgotten(server: Server, browser: Any,
                                                    shots: Path) -> None:
    server.post("/api/cards", {"card_type": "crecy.friend", "card": "Gertrude",
                               "values": FRIEND})
    server.post("/api/cards", {"card_type": "crecy.head", "card": "Rouge/matriarch",
                               "values": {"income": 2, "gold": 6, "friends": 3,
                                          "prestige": 0, "extra": "yellow"}})
    page = open_page(browser, server.url + f"/boxcheck#token={TOKEN}")
    form = page.locator("form.learned-card[data-card='Gertrude']")
    form.scroll_into_view_if_needed()
    page.locator("#learned-cards").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "cards-learned-tablet.png"))
    form.locator("[data-name=prestige]").fill("2")
    # the page posts the values, then loads itself again: wait for the server's answer (the
    # old page's form is still there until the reload, so waiting for it proves nothing)
    with page.expect_response(lambda r: r.url.endswith("/api/cards")
                              and r.request.method == "POST") as answer:
        form.locator("button[type=submit]").click()
    assert answer.value.ok
    page.wait_for_load_state("load")
    page.locator("form.learned-card[data-card='Gertrude'] [data-name=prestige]").wait_for()
    assert server.get("/api/cards")["learned"]["crecy.friend"]["Gertrude"]["prestige"] == 2
    phone = open_page(browser, server.url + "/boxcheck", PHONE)
    phone.locator("#learned-cards").scroll_into_view_if_needed()
    phone.screenshot(path=str(shots / "cards-learned-phone.png"))
    page.locator("form.learned-card[data-card='Gertrude'] [data-forget]").click()
    page.locator("form.learned-card[data-card='Gertrude']").wait_for(state="detached")
    assert "crecy.friend" not in server.get("/api/cards")["learned"]
    # the page loads again after the answer: Gertrude's form is gone with the old page,
    # the other card's is back once the new one is drawn
    page.wait_for_load_state("load")
    page.locator("form.learned-card[data-card='Rouge/matriarch']").wait_for()
    assert page.locator("form.learned-card").count() == 1
