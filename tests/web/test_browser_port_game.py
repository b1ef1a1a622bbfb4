"""A whole 3-player game with Le Port and Objectifs de vie played through the play page in
a real browser, options tapped at random as a person would (issue 18): at every step no
visible text holds a developer artefact or a tile id, on the tablet, the scoreboard and a
player's phone; every decision fits the 1280×800 tablet without scrolling, and all but a
few (at most 1 %) a 390×844 phone, where one taller keeps its heading in view as it scrolls
(measured and printed: which do not, and by how much); the move's result is in view after a
tap; every event's narration comes with moves that rebuild the table after it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from appkit import fixed_draw_seeds
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

# The decisions measured, at every step (a decision in steps, or with a row folded into a
# step to fit, is measured at each step taken).
FIT = {"turn", "action", "market", "privilege", "death", "buyout", "church_move", "voyage"}


def decision_height(page: Any) -> float:
    """From the top of the decision's heading to the bottom of its last option, with the
    page's menu bar above it: what must fit the screen to see the whole decision at once
    (in the page's own coordinates: the same however it is scrolled, the heading being
    held under the menu on a phone)."""
    return float(
        page.evaluate(
            "(() => { const y = window.scrollY;"
            " const top = document.querySelector('.play-main').getBoundingClientRect().top + y;"
            " const bar = document.querySelector('.topbar').getBoundingClientRect().height;"
            " const last = Math.max(0, ...[...document.querySelectorAll('#options button')]"
            ".map(b => b.getBoundingClientRect().bottom + y));"
            " return last - top + bar; })()"
        )
    )


def heading_kept_in_view(page: Any) -> None:
    """A decision taller than a phone: scrolled down to its last option, its heading is
    still on screen, whole, under the menu bar (then the page goes back to the top)."""
    # in one script: the options may be drawn again (same decision) between two calls
    bar, head, last = page.evaluate(
        "(() => { const bs = document.querySelectorAll('#options button');"
        " bs[bs.length - 1].scrollIntoView({block: 'end'});"
        " const r = (e) => { const b = e.getBoundingClientRect(); return [b.top, b.bottom]; };"
        " return [r(document.querySelector('.topbar')), r(document.getElementById('pending')),"
        " r(bs[bs.length - 1])]; })()"
    )
    assert head[0] >= bar[1] - 1, (head, bar)  # under the menu, not behind it
    assert head[1] <= last[0], (head, last)  # and not over the option
    page.evaluate("window.scrollTo(0, 0)")


@pytest.mark.slow
def test_a_port_and_life_goals_game_through_the_pages(
    server: Server, browser: Any, shots: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(18)
    # the virtual draws' seeds from a fixed sequence, so that every run plays the same game
    # (with fresh seeds each run was another game, and a rare position could pass or fail
    # the limits below by chance); the draws themselves run unchanged
    fixed_draw_seeds(monkeypatch, 1818)
    server.post(
        "/api/games",
        {"players": ["red", "yellow", "blue"], "modules": ["port", "life_goals"]},
    )
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}", TABLET)
    # the same play page on a phone (390×844): taps alternate between the two, so that
    # every decision is measured on both as it shows there (with the result of the last
    # tap above it on the page that made it)
    small = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
    board = open_page(browser, server.url + "/", TABLET)
    phone = open_page(
        browser, server.url + f"/me/blue?token={server.service.player_token('blue')}", PHONE
    )
    st = server.service.state()
    events = 0
    too_tall: list[str] = []
    too_tall_phone: list[str] = []
    seen: dict[int, set[tuple[int, str]]] = {id(tablet): set(), id(small): set()}
    decisions = {id(tablet): 0, id(small): 0}
    while True:
        kind = settle(tablet, server)
        settle(small, server)
        st = server.service.state()  # a chance draw may have been made between taps
        if kind == "over" or not tablet.locator("#options button").count():
            break
        assert_plain(tablet, f"play, {kind}")
        assert_plain(small, f"play on a phone, {kind}")
        now = seq(server)
        for page, size, tall in ((tablet, TABLET, too_tall), (small, PHONE, too_tall_phone)):
            # each decision (and each of its steps) once on each page: the page that did
            # not tap still shows the first step of the one the other is taking in steps
            at = (now, " ".join(page.locator("#options .crumb-path").all_inner_texts()))
            if kind not in FIT or at in seen[id(page)]:
                continue
            seen[id(page)].add(at)
            decisions[id(page)] += 1
            # no button smaller than a fingertip (44 px), however tight the rows
            low = page.evaluate("Math.min(...[...document.querySelectorAll('#options button')]"
                                ".map(b => b.getBoundingClientRect().height))")
            assert low >= 44, f"{kind}: a button {low} px high"
            # nothing wider than the screen (the page would scroll sideways)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= size["width"], f"{kind}: {wide} px wide"
            if (height := decision_height(page)) > size["height"]:
                tall.append(f"{kind} ({height:.0f} px): {page.locator('#pending').inner_text()}")
                name = "tablet" if page is tablet else "phone"
                page.screenshot(path=str(shots / f"play-too-tall-{len(tall)}-{name}.png"))
                if page is small:
                    heading_kept_in_view(small)
        # taps alternate between the tablet and the phone, one decision each
        taps = tablet if events % 2 == 0 else small
        buttons = taps.locator("#options button.option, #options button.step")
        before = seq(server)
        pick = buttons.nth(rng.randrange(buttons.count()))
        is_step = "step" in (pick.get_attribute("class") or "")
        pick.click()
        if is_step:
            taps.locator("#options .crumbs").wait_for()
            continue
        taps.wait_for_function(
            "n => { const d = document.querySelector('#done');"
            " return d && !d.hidden && d.dataset.seq === String(n); }",
            arg=before + 1,
        )
        # the move's result in view after the tap, however low the option was
        done = taps.locator("#done").bounding_box()
        assert done and 0 <= done["y"] < taps.viewport_size["height"] - 40, done
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
    # measured: before issue 18's rows a cube take alone was ~1,900 px tall; then 51 of 696
    # decisions (7 %) did not fit, most of them a Crafts action with several members to
    # train (850-950 px); with members folded into one row, costs under each pick and two
    # cubes of a privilege as chips: see docs/pages.md for the last runs
    n_tablet, n_phone = decisions[id(tablet)], decisions[id(small)]
    print(f"{len(too_tall)} of {n_tablet} decisions taller than the tablet:", too_tall)
    print(f"{len(too_tall_phone)} of {n_phone} decisions taller than a phone:", too_tall_phone)
    assert too_tall == []
    assert len(too_tall_phone) <= n_phone // 100, too_tall_phone
    assert tablet.js_errors == [] and board.js_errors == [] and phone.js_errors == []
    assert small.js_errors == []
