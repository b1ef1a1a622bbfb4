"""The play page's buttons stay where they are while a person looks at them: a tap draws the
next decision's options once, after the tap's confirmation is shown above them (drawn
earlier, they moved down or folded differently under the next tap: the whole-game test
then clicked a step where an option had been), and a change of the window's height alone
(a phone's address bar showing on a scroll) draws nothing again."""

from __future__ import annotations

import random
from typing import Any

from browserkit import (
    BROWSER,
    PHONE,
    TABLET,
    TOKEN,
    Server,
    needs_playwright,
    open_page,
    seq,
    settle,
)

pytestmark = BROWSER
needs_playwright()

# Each drawing of the options (one callback per task that rebuilt them), with the seq of
# the confirmation on show at that moment.
WATCH = """() => {
  window.__draws = [];
  new MutationObserver(() => {
    const done = document.getElementById("done");
    window.__draws.push(done && !done.hidden ? Number(done.dataset.seq) : null);
  }).observe(document.getElementById("options"), { childList: true });
}"""


def drawings(page: Any) -> list[int | None]:
    return list(page.evaluate("window.__draws.splice(0)"))


def test_a_tap_draws_the_next_options_once_under_its_confirmation(
        server: Server, browser: Any) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    page = open_page(browser, server.url + f"/play#token={TOKEN}", TABLET)
    settle(page, server)
    page.evaluate(WATCH)
    rng = random.Random(3)
    for tap in range(8):
        before = seq(server)
        leaves = page.locator("#options button.option")
        leaves.nth(rng.randrange(leaves.count())).click()
        page.locator(f"#done[data-seq='{before + 1}']").wait_for(state="attached")
        settle(page, server)
        page.wait_for_timeout(400)  # time for a second drawing, if the page made one
        assert drawings(page) == [before + 1], (
            f"tap {tap}: the options of seq {before + 1} were drawn with these confirmations "
            "on show (one drawing, under this tap's confirmation, is right)")
    assert page.js_errors == []


def test_a_height_change_alone_does_not_draw_the_options_again(
        server: Server, browser: Any) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    page = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
    settle(page, server)
    page.evaluate(WATCH)
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"] - 60})
    page.wait_for_timeout(400)
    assert drawings(page) == [], "the address bar showed: the buttons must not move"
    page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})  # turned
    page.locator("#options button").first.wait_for()
    page.wait_for_timeout(400)
    assert len(drawings(page)) == 1, "turned sideways: the options are fitted again, once"
    assert page.js_errors == []
