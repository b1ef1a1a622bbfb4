"""A round with a voyage and a goal claim played through the pages, in a real browser: the
box check says both boxes are owned, the new-game page offers both modules, the play page
takes the Travel space, hires a captain, loads the ship and sails in steps, the scoreboard
shows the sea board, and a player claims a life goal on their private page. At every step
no visible text may hold developer artefacts. Screenshots go to ``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page, seq, settle
from test_browser_game import assert_plain

from companion.village.modules.life_goals import goals_of
from companion.village.modules.module_data import shipped_values
from web import runtime_of

pytestmark = BROWSER
needs_playwright()


def choose(page: Any, server: Server, *texts: str) -> None:
    """Click, on the play page, the step or option button holding each text in turn; the
    last click must record exactly one event. Waits first for the options of the server's
    current seq: the confirmation of the previous event can show before they are drawn."""
    settle(page, server)
    before = seq(server)
    for n, wanted in enumerate(texts):
        kind = "button.option" if n == len(texts) - 1 else "button.step"
        # a row's small pick is named in full by its aria-label ("Travel: take a green cube")
        found = page.evaluate(
            "([sel, re]) => [...document.querySelectorAll(sel)].findIndex("
            "b => new RegExp(re).test(b.getAttribute('aria-label') || b.innerText))",
            [f"#options {kind}", wanted],
        )
        assert found >= 0, (wanted, page.locator("#options").inner_text())
        page.locator(f"#options {kind}").nth(found).click()
        if n < len(texts) - 1:
            page.locator("#options .crumbs").wait_for()
    page.wait_for_function(
        "n => { const d = document.querySelector('#done');"
        " return d && !d.hidden && d.dataset.seq === String(n); }",
        arg=before + 1,
    )
    assert seq(server) == before + 1


def test_a_round_with_a_voyage_and_a_goal_claim(server: Server, browser: Any, shots: Path) -> None:
    # the box check: both boxes owned; the silver goals as the owner reads them (here: a
    # card asking for nothing, so the claim can be made in the first round)
    box = open_page(browser, server.url + f"/boxcheck#token={TOKEN}")
    for name in ("port", "life_goals"):
        box.check(f"#boxes input[name=box][value='{name}']")
    with box.expect_navigation():  # the page reloads once the answer is saved
        box.click("#save-boxes")
    # the page reloaded with the box (one value on show at a time: the others are there)
    box.locator("section[data-key='port.sea']").wait_for(state="attached")
    box.wait_for_load_state()  # and all of it is there
    assert runtime_of(server.app).boxes.boxes_answer == ("port", "life_goals")
    assert box.locator("section[data-key='goals.prestige']").get_attribute("data-box") == (
        "Objectifs de vie (life goals)"
    )
    assert_plain(box, "box check with the Port and Life goals boxes")
    silver = {goal: {} for goal in shipped_values("life_goals")["goals.silver.items"]}
    server.post("/api/boxcheck", {"key": "goals.silver.items", "value": silver})

    new = open_page(browser, server.url + f"/new#token={TOKEN}")
    new.check("input[name=count][value='2']", force=True)
    new.check("input[name=module][value='port']", force=True)
    new.check("input[name=module][value='life_goals']", force=True)
    assert_plain(new, "new game with modules")
    new.locator("fieldset.modules").scroll_into_view_if_needed()
    new.screenshot(path=str(shots / "new-modules-tablet.png"))
    phone_new = open_page(browser, server.url + f"/new#token={TOKEN}", PHONE)
    for name in ("port", "life_goals"):
        phone_new.check(f"input[name=module][value='{name}']", force=True)
    phone_new.locator("fieldset.modules").scroll_into_view_if_needed()
    phone_new.screenshot(path=str(shots / "new-modules-phone.png"))
    new.click("#start")
    new.locator("#player-links li").nth(1).wait_for()
    header = server.service.header()
    assert header["expansions"] == ["port", "life_goals"]
    assert header["data"]["goals.silver.items"] == silver  # the owner's answer is used

    tablet = open_page(browser, server.url + f"/play#token={TOKEN}")
    board = open_page(browser, server.url + "/")
    # the customers, the two goal deals and the bag: virtual draws from the play page
    while (kind := settle(tablet, server)) != "turn":
        assert_plain(tablet, f"play, {kind}")
        choose(tablet, server, ".")
    assert server.get("/api/state")["pending"]["player"] == "red"
    choose(tablet, server, "Travel: take a (?!plague)|Travel: take")
    choose(tablet, server, "any cube \\+ any cube")
    settle(tablet, server)  # the confirmation shows before the loading options are drawn
    assert_plain(tablet, "play, the voyage: load")
    choose(tablet, server, "^Load Red 1a(: |, )nothing more")
    tablet.locator("#sea [data-ship='red']", has_text="Red 1a").wait_for()
    settle(tablet, server)  # the sea is drawn before the log and the options' mark
    assert_plain(tablet, "play, the voyage: sail")
    assert "sail on, stop or land" in tablet.locator("#pending").inner_text()
    tablet.screenshot(path=str(shots / "play-voyage-tablet.png"), full_page=True)
    phone_play = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
    phone_play.locator("#sea [data-ship='red']").wait_for()
    settle(phone_play, server)  # the log too, for the screenshot
    phone_play.screenshot(path=str(shots / "play-voyage-phone.png"), full_page=True)
    choose(tablet, server, "Sail to time zone D")
    state = server.get("/api/state")
    assert state["port"]["ships"]["red"]["zone"] == "D"
    assert state["port"]["ships"]["red"]["hold"] == ["red-1a"]

    now = seq(server)
    board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=now)
    sea = board.locator("#sea").inner_text()
    # the sea panel in the words of the buttons and the log (issue 18 item 4)
    assert "Red — at sea, time zone D, captain hired" in sea and "hires a captain (any cube" in (
        board.locator("#log").inner_text()
    )
    assert "Hold: Red 1a" in sea
    assert "Captains left: 14" in sea and "Sea cemetery: 0 of" in sea
    assert "Mission churches: B1 on island B free" in sea
    assert "cocoa baskets on island B" in sea and "sails to time zone D" in (
        board.locator("#log").inner_text()
    )
    assert_plain(board, "scoreboard with the sea")
    board.locator("#sea-panel").scroll_into_view_if_needed()
    board.screenshot(path=str(shots / "scoreboard-sea-tablet.png"))
    phone_board = open_page(browser, server.url + "/", PHONE)
    phone_board.locator("#sea [data-ship='red']").wait_for()
    phone_board.locator(f"body[data-seq='{now}']").wait_for(state="attached")  # the log too
    phone_board.screenshot(path=str(shots / "scoreboard-sea-phone.png"), full_page=True)

    # Red claims the silver goal on their own phone; the other player's page never shows it
    goals = server.service.private_view("red")["life_goals"]["players"]["red"]
    mine = goals["silver"]
    name = goals["names"][mine]
    me = open_page(browser, server.url + f"/me/red?token={server.service.player_token('red')}",
                   PHONE)
    me.locator(f"[data-claim='{mine}']").wait_for()
    assert_plain(me, "private page with goals")
    other = header["players"][1]
    blue = open_page(browser, server.url + f"/me/{other}?token={server.service.player_token(other)}")
    blue.locator("#me-goals .goal").first.wait_for()
    assert name not in blue.locator("body").inner_text()  # Red's goal stays hidden from the other
    me.screenshot(path=str(shots / "me-goals-phone.png"), full_page=True)
    me_tablet = open_page(browser, me.url)
    me_tablet.locator(f"[data-claim='{mine}']").wait_for()
    me_tablet.screenshot(path=str(shots / "me-goals-tablet.png"))
    me.locator(f"[data-claim='{mine}']").click()
    me.locator(f"#me-goals [data-goal='{mine}']", has_text="claimed").wait_for()
    assert_plain(me, "private page after the claim")
    claimed = goals_of(server.service.state())
    assert claimed is not None and mine in {str(g) for g in claimed.claimed[v_red()]}
    board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=seq(server))
    assert name in board.locator("#log").inner_text()  # a claimed goal is public
    assert_plain(board, "scoreboard after the claim")
    for page in (box, new, tablet, board, me, blue):
        assert page.js_errors == [], page.js_errors


def v_red() -> Any:
    from companion.village import Color

    return Color.RED
