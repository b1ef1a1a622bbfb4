"""The new-game page offers the Port box's expansions: ticked, they are in the record
header and the game starts with them (the deal comes before the first fill)."""

from __future__ import annotations

from typing import Any

from browserkit import BROWSER, TOKEN, Server, needs_playwright, open_page

pytestmark = BROWSER
needs_playwright()


def test_new_game_with_port_and_life_goals(server: Server, browser: Any) -> None:
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    tablet.check("input[name=count][value='2']", force=True)
    tablet.check("input[name=module][value='port']", force=True)
    tablet.check("input[name=module][value='life_goals']", force=True)
    tablet.check("input[name=goal_claims]", force=True)
    tablet.click("#start")
    tablet.locator("#player-links li").nth(1).wait_for()
    header = server.service.header()
    assert header["expansions"] == ["port", "life_goals"]
    assert header["goal_claims"] == "auto"
    assert server.service.state().port is not None


def test_new_game_without_expansions_is_the_base_game(server: Server, browser: Any) -> None:
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    tablet.click("#start")
    tablet.locator("#player-links li").nth(1).wait_for()
    header = server.service.header()
    assert header["expansions"] == [] and "goal_claims" not in header
