"""A whole 3-player game with Le Port and Objectifs de vie played through the play page in
a real browser, options tapped at random as a person would (issue 18): at every step no
visible text holds a developer artefact or a tile id, on the tablet, the scoreboard and a
player's phone; at least 90 % of the decisions fit the 1280×800 tablet without scrolling
(measured and printed: which do not, and by how much); every event's narration comes with
moves that rebuild the table after it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
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
from test_browser_game import assert_plain

from companion.village.moves import apply_moves, moves, table

pytestmark = BROWSER
needs_playwright()

# Decisions that must fit the tablet at their first step (crafts and a voyage's load may
# go in steps: their first step fits, checked the same way).
FIT = {"turn", "action", "market", "privilege", "death", "buyout", "church_move", "voyage"}


def decision_height(page: Any) -> float:
    """From the top of the decision's heading to the bottom of its last option, with the
    page's menu bar above it: what must fit the screen to see the whole decision at once."""
    return float(
        page.evaluate(
            "(() => { const top = document.querySelector('.pending-box').getBoundingClientRect().top;"
            " const bar = document.querySelector('.topbar').getBoundingClientRect().height;"
            " const last = Math.max(0, ...[...document.querySelectorAll('#options button')]"
            ".map(b => b.getBoundingClientRect().bottom));"
            " return last - top + bar; })()"
        )
    )


@pytest.mark.slow
def test_a_port_and_life_goals_game_through_the_pages(
    server: Server, browser: Any, shots: Path
) -> None:
    rng = random.Random(18)
    server.post(
        "/api/games",
        {"players": ["red", "yellow", "blue"], "modules": ["port", "life_goals"]},
    )
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}", TABLET)
    board = open_page(browser, server.url + "/", TABLET)
    phone = open_page(
        browser, server.url + f"/me/blue?token={server.service.player_token('blue')}", PHONE
    )
    st = server.service.state()
    events = 0
    too_tall: list[str] = []
    decisions = 0
    while True:
        kind = settle(tablet, server)
        st = server.service.state()  # a chance draw may have been made between taps
        if kind == "over" or not tablet.locator("#options button").count():
            break
        assert_plain(tablet, f"play, {kind}")
        bottom = decision_height(tablet)
        decisions += kind in FIT
        if kind in FIT and bottom > TABLET["height"]:
            too_tall.append(f"{kind} ({bottom:.0f} px): {tablet.locator('#pending').inner_text()}")
            tablet.screenshot(path=str(shots / f"play-too-tall-{len(too_tall)}-tablet.png"))
        buttons = tablet.locator("#options button.option, #options button.step")
        before = seq(server)
        pick = buttons.nth(rng.randrange(buttons.count()))
        is_step = "step" in (pick.get_attribute("class") or "")
        pick.click()
        if is_step:
            tablet.locator("#options .crumbs").wait_for()
            continue
        tablet.wait_for_function(
            "n => { const d = document.querySelector('#done');"
            " return d && !d.hidden && d.dataset.seq === String(n); }",
            arg=before + 1,
        )
        # the event the tap made: its moves rebuild the table after it
        after = server.service.state()
        assert apply_moves(table(st), moves(st, after)) == table(after)
        st = after
        events += 1
        if events % 20 == 0:
            board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=before + 1)
            assert_plain(board, f"scoreboard at event {events}")
            # the scoreboard's chart whole at table size, its place labels readable
            # (issue 18 item 12)
            plot = board.locator("#plot svg").bounding_box()
            assert plot and plot["y"] + plot["height"] <= TABLET["height"], plot
            sizes = board.locator(".family-card .chip small").evaluate_all(
                "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
            )
            assert min(sizes, default=14) >= 13, sizes
            phone.locator("#me-score tr[data-score=total]").wait_for(state="attached")
            assert_plain(phone, f"phone at event {events}")
            # no travel map with Le Port: no cities on the phone (issue 18 item 13)
            assert "Cities visited" not in phone.locator("main").inner_text()
        assert events < 2000, "the game does not end"
    assert server.get("/api/state")["over"]
    tablet.screenshot(path=str(shots / "play-port-over-tablet.png"))
    assert_plain(board, "scoreboard, game over")
    # measured: before issue 18's rows a cube take alone was ~1,900 px tall; in the last
    # full run 51 of 696 decisions (7 %) did not fit, most of them a Crafts action with
    # several members to train (850-950 px), a few turns by a line or two
    print(f"{len(too_tall)} of {decisions} decisions taller than the tablet:", too_tall)
    assert len(too_tall) <= decisions // 10, too_tall
    assert tablet.js_errors == [] and board.js_errors == [] and phone.js_errors == []
