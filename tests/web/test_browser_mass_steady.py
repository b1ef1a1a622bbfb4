"""The mass page's buttons stay put: a move in the church, made on the page, draws the next
decision's options once (the live feed and the tap's own answer each redrew them: a
button replaced under a finger between press and release is a tap lost)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import BROWSER, TABLET, TOKEN, Server, needs_playwright, open_page, seq, settle

pytestmark = BROWSER
needs_playwright()

GOLDEN = Path(__file__).parents[1] / "golden" / "four-players.jsonl"
# Action 200 of the golden four-player game: white moves two members in the church, one
# after the other (200, 201); then the mass is over.
BEFORE_MOVES = 200

WATCH = """() => {
  window.__draws = 0;
  new MutationObserver(() => { window.__draws += 1; })
    .observe(document.getElementById("options"), { childList: true });
}"""


def test_a_church_move_draws_the_next_options_once(server: Server, browser: Any) -> None:
    lines = GOLDEN.read_text().splitlines()
    server.service.import_record("\n".join(lines[: 1 + BEFORE_MOVES]) + "\n")
    page = open_page(browser, server.url + f"/mass#token={TOKEN}", TABLET)
    assert settle(page, server) == "church_move"
    page.evaluate(WATCH)
    for step in range(2):
        move = json.loads(lines[1 + BEFORE_MOVES + step])
        buttons = page.locator("#options button.option")
        actions = [json.loads(str(b.get_attribute("data-action")))
                   for b in buttons.element_handles()]
        before = seq(server)
        buttons.nth(actions.index(move)).click()
        page.locator(f"#options[data-seq='{before + 1}']").wait_for(state="attached")
        page.wait_for_timeout(500)  # time for a second drawing, if the page made one
        draws = page.evaluate("window.__draws")
        page.evaluate("window.__draws = 0")
        deciding = server.get("/api/state")["pending"]["kind"] == "church_move"
        assert draws == int(deciding), (
            f"move {step + 1}: the next options were drawn {draws} times "
            f"({'once' if deciding else 'never'}: the church decision is "
            f"{'still open' if deciding else 'over'})")
    assert page.js_errors == []
