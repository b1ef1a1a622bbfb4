"""A real browser (Debian's Chromium driven by Playwright) plays through the pages against a
real server (uvicorn, as `companion serve` runs it) on 127.0.0.1: new game, customer tiles and the green-bag virtual draw,
several actions, a refusal, a stale button, undo with confirmation, the private view, and
the scoreboard following live. Screenshots at tablet and phone sizes go to a temporary
folder (``VILLAGE_SCREENSHOTS=docs/screenshots`` writes them there instead)."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from browserkit import (
    BROWSER,
    PHONE,
    TABLET,
    TOKEN,
    Server,
    needs_playwright,
    open_page,
    play_options,
    seq,
    wait_drawn,
)

pytestmark = BROWSER
needs_playwright()


def test_a_round_through_the_pages(server: Server, browser: Any, shots: Path) -> None:
    # The table display is open before any game exists.
    board = open_page(browser, server.url + "/")
    board.locator("#message", has_text="No game yet").wait_for()

    # New game: 3 players, blue starts; the player links appear.
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    assert "token=" not in tablet.url, "the token leaves the address bar"
    tablet.check("input[name=count][value='3']", force=True)
    tablet.locator(".seat").nth(2).locator("input[name=first]").check()
    tablet.screenshot(path=str(shots / "new-tablet.png"), full_page=True)
    tablet.click("#start")
    tablet.locator("#player-links li").nth(2).wait_for()
    links = tablet.locator("#player-links a").all_inner_texts()
    assert [link.split("/me/")[1].split("?")[0] for link in links] == ["red", "yellow", "blue"]
    st = server.get("/api/state")
    assert list(st["players"]) == ["red", "yellow", "blue"]

    # The scoreboard followed live, without a reload.
    board.locator("#family-blue").wait_for()
    assert board.locator(".family-card").count() == 3

    # Play: customer tiles are a chance point; the page offers the virtual draw.
    tablet.goto(server.url + "/play")
    tablet.locator("#pending", has_text="customers").wait_for()
    assert play_options(tablet, 1, server) == ["Turn up customer tiles at the market"]

    # Green bag: the commitment is shown before the draw, the seed after, and they match.
    tablet.goto(server.url + "/bag")
    tablet.locator("#virtual-panel").wait_for()
    commitment = tablet.locator("#commitment").text_content()
    assert len(commitment) == 64
    assert tablet.locator("#reveal-panel").is_hidden()
    assert tablet.locator("#hand-panel").is_visible(), "the hand-draw mode is on offer"
    tablet.screenshot(path=str(shots / "bag-before-tablet.png"), full_page=True)
    tablet.click("#draw")
    tablet.locator("#verify.ok").wait_for()
    seed = tablet.locator("#seed").inner_text()
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    assert "shown here before the draw" in tablet.locator("#verify").inner_text()
    draws = server.get("/api/draws")["draws"]
    assert draws[-1]["seed"] == seed and draws[-1]["kind"] == "fill_bag"
    # Where to put each cube: the placement equals the draw. The seed shows first; the
    # placement of the drawn cubes only once the page has redrawn from the new state.
    tablet.locator("#placement[data-source=virtual]").wait_for()
    drawn = draws[-1]["action"]["spaces"]
    for space, cubes in drawn.items():
        place = tablet.locator(f"#placement > .placement .place[data-space={space}]")
        text = place.inner_text()
        for cube, n in cubes.items():
            assert f"{n} {cube}" in text, (space, text)
    tablet.screenshot(path=str(shots / "bag-after-tablet.png"), full_page=True)

    # Several actions through the play page, by their human labels.
    tablet.goto(server.url + "/play")
    tablet.locator("#pending", has_text="Blue").wait_for()
    legal = server.get("/api/legal")["actions"]
    assert tablet.locator("button.option").count() == len(legal)
    clicked = play_options(tablet, 4, server)
    assert ": take a" in clicked[0], clicked
    done = tablet.locator("#done").inner_text()
    assert done.startswith(clicked[-1].split(":")[0]) or "Now " in done, done
    tablet.screenshot(path=str(shots / "play-tablet.png"), full_page=True)

    # The scoreboard is live: same seq as the server, turn shown.
    now = seq(server)
    board.wait_for_function("n => document.body.dataset.seq == String(n)", arg=now)
    st = server.get("/api/state")
    if st["current_player"]:
        board.locator(f"#family-{st['current_player']}.current").wait_for()

    # A refusal through the manual-entry box: the 422 message naming the rule is shown.
    wrong = next(c for c in ("red", "yellow", "blue") if c != st["current_player"])
    tablet.click(".manual summary")
    tablet.fill("#manual", json.dumps({"type": "harvest", "player": wrong}))
    tablet.click("#manual-form button[type=submit]")
    refusal = tablet.locator("#refusal")
    refusal.wait_for()
    shown = refusal.inner_text()
    assert "Refused by the rules" in shown
    assert f"decision, not {wrong}'s" in shown and "null" not in shown, shown
    assert "not_your_turn" not in shown, "codes are for programs, not people"
    assert seq(server) == now, "the state is untouched"
    tablet.screenshot(path=str(shots / "refusal-tablet.png"))

    # A stale button: a second controller misses the live feed while the first one acts.
    stale = browser.new_page(viewport=TABLET)
    stale.route("**/api/events*", lambda route: route.abort())
    stale.goto(server.url + f"/play#token={TOKEN}")
    stale.locator("button.option").first.wait_for()
    play_options(tablet, 1, server)
    stale.locator("button.option").first.click()
    stale.locator("#refusal", has_text="Someone else acted first").wait_for()
    assert seq(server) == now + 1
    stale.close()

    # Undo asks first; "Keep it" keeps, "Undo" reverts the last action.
    before = server.get("/api/state")
    tablet.click("#undo")
    tablet.locator("#undo-dialog[open]").wait_for()
    tablet.click("#undo-dialog button[value=cancel]")
    assert seq(server) == now + 1
    tablet.click("#undo")
    tablet.click("#undo-confirm")
    tablet.locator("#done", has_text="undone").wait_for()
    after = server.get("/api/state")
    assert after["seq"] == now + 2  # the revert is an event too
    assert after["pending"] != before["pending"] or after["players"] != before["players"]

    # The private view of the player who starts.
    me = open_page(browser, links[2])
    me.locator("#me-score tr[data-score=total]").wait_for()
    assert "only you see this page" in me.locator("#me-status").inner_text()
    me.close()

    for page in (board, tablet):
        assert page.js_errors == [], page.js_errors


def test_pages_fit_tablet_and_phone(server: Server, browser: Any, shots: Path) -> None:
    """Each page at tablet and phone size in the middle of a game: no script error, no
    sideways scrolling on the phone, and touch targets at least 44 px high."""
    server.post("/api/games", {"players": ["red", "yellow", "blue", "white"]})
    rng = random.Random(3)
    while seq(server) < 60:
        legal = server.get("/api/legal")["actions"]
        server.post("/api/actions", rng.choice(legal))
    red = server.service.player_token("red")
    pages = {
        "scoreboard": "/",
        "play": f"/play#token={TOKEN}",
        "bag": "/bag",
        "mass": "/mass",
        "new": "/new",
        "boxcheck": "/boxcheck",
        "me-red": f"/me/red?token={red}",
    }
    for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
        for name, path in pages.items():
            page = open_page(browser, server.url + path, viewport)
            page.wait_for_function(
                "() => document.querySelector('#live').hidden"
                " || document.querySelector('#live').dataset.state === 'live'"
            )
            wait_drawn(page, server)  # the state is drawn in full
            page.screenshot(path=str(shots / f"{name}-{size}.png"), full_page=name != "boxcheck")
            assert page.js_errors == [], (name, page.js_errors)
            shown = page.inner_text("main")
            junk = ["undefined", "NaN", "[object Object]"]
            junk.append("null")
            for word in junk:
                assert word not in shown, (name, size, word)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= viewport["width"], f"{name} scrolls sideways at {size}: {width}px"
            small = page.evaluate(
                """() => [...document.querySelectorAll('button.option, .btn, nav a')]
                .filter(b => b.offsetParent !== null && b.getBoundingClientRect().height < 44)
                .map(b => b.textContent.trim())"""
            )
            assert small == [], (name, size, small)
            page.close()


def reloaded(page: Any, key: str) -> None:
    """Wait for the box-check page that an answer reloads: the value shows verified and the
    page has loaded, so its script (the form handlers) runs; until then a submit would be
    the browser's own, not an answer."""
    page.locator(f'section[data-key="{key}"].verified').wait_for(state="attached")
    page.wait_for_load_state()


def show_value(page: Any, key: str) -> Any:
    """Bring one value of the box check on show (one at a time) with "Go to"."""
    page.select_option("#bc-jump", key)
    value = page.locator(f'section[data-key="{key}"]')
    value.wait_for()
    return value


def test_box_check_answers_are_saved(server: Server, browser: Any, shots: Path) -> None:
    """Fill the box-check forms as an owner would: confirm one value, type a number (one out
    of range is refused in words), add a grave and choose its number; the API then reports
    exactly those answers. No JSON, no key is shown."""
    page = open_page(browser, server.url + f"/boxcheck#token={TOKEN}")
    shown = page.inner_text("main")
    for artefact in ("null", "{", "chronicle.sections", "time_track"):
        assert artefact not in shown, artefact
    value = show_value(page, "mass.grain_costs")
    assert value.get_attribute("class") == "bc-value unverified"
    value.locator("button[data-confirm]").click()
    reloaded(page, "mass.grain_costs")

    # after an answer the next value to check is on show, alone (issue 18 item 9)
    shown = page.locator("section.bc-value:visible")
    assert shown.count() == 1 and shown.get_attribute("data-key") != "mass.grain_costs"
    value = show_value(page, "time_track.length")
    field = value.locator("input[type=number]")
    field.fill("100")
    value.locator("button[type=submit]").click()
    value.locator(".bc-error", has_text="a number from 4 to 40").wait_for()
    assert field.get_attribute("aria-invalid") == "true"
    # a word where a number is asked: said at the field, which is marked; no banner
    field.press_sequentially("e")
    field.evaluate("el => { el.value = ''; }")
    field.focus()
    page.keyboard.type("e")
    value.locator("button[type=submit]").click()
    value.locator(".bc-error", has_text="a whole number").wait_for()
    assert field.get_attribute("aria-invalid") == "true"
    assert page.locator("#refusal").is_hidden()
    page.screenshot(path=str(shots / "boxcheck-error-tablet.png"))
    page.set_viewport_size(PHONE)
    value.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "boxcheck-error-phone.png"))
    page.set_viewport_size(TABLET)
    field.fill("12")
    value.locator("button[type=submit]").click()
    reloaded(page, "time_track.length")

    graves = show_value(page, "graves.marks")
    graves.locator("button[data-more]").click()
    graves.locator("select").nth(8).select_option(label="4 (used with 4 players only)")
    graves.locator("select").nth(0).select_option(label="3 (used with 3 or 4 players)")
    graves.locator("button[type=submit]").click()
    reloaded(page, "graves.marks")

    values = {v["key"]: v for v in server.get("/api/boxcheck")["values"]}
    assert values["time_track.length"]["value"] == 12
    assert values["time_track.length"]["verified"] is True
    assert values["mass.grain_costs"]["verified"] is True
    assert values["graves.marks"]["value"] == [3, None, None, None, 3, 3, 4, 4, 4]
    assert page.js_errors == []
