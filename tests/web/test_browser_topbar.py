"""The top bar in a real browser, for each game at table and phone sizes: the links of the
game being played (no "Green bag" during Colonia or Crecy), each reachable on the screen
(all in sight at once: on a phone in a menu that names the page in view), and Village's green bag opened
during another game saying which game is played, with a link to its page. Screenshots go
to ``VILLAGE_SCREENSHOTS`` (``topbar-<game>-<tablet|phone>.png``, ``topbar-<game>-phone-menu.png``,
``elsewhere-<game>-…``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browserkit import BROWSER, PHONE, TABLET, Server, needs_playwright, open_page

pytestmark = BROWSER
needs_playwright()

GAMES: dict[str, tuple[dict[str, Any], str, list[str]]] = {
    "village": ({"players": ["red", "blue"]}, "/play",
                ["Scoreboard", "Play", "Green bag", "Mass", "Tags", "New game", "History"]),
    "colonia": ({"game": "colonia", "players": ["yellow", "blue"]}, "/colonia",
                ["Table", "Scoreboard", "Phones", "New game", "History"]),
    "crecy": ({"game": "crecy", "players": ["red", "blue"], "options": {"families": {
        "red": {"head": "Rouge", "side": "matriarch"},
        "blue": {"head": "Bleu", "side": "patriarch"}}}}, "/crecy",
              ["Play", "Board", "Phones", "New game", "History"]),
}
LABELS = {"colonia": "Colonia", "crecy": "Le Testament du Duc de Crecy"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_top_bar_follows_the_game(server: Server, browser: Any, shots: Path,
                                      game: str) -> None:
    body, table, links = GAMES[game]
    server.post("/api/games", body)
    for size, viewport in (("tablet", TABLET), ("phone", PHONE)):
        page = open_page(browser, server.url + table, viewport)
        nav = page.locator("header.topbar nav a")
        assert nav.all_inner_texts() == links, size
        current = page.locator("header.topbar nav a[aria-current=page]")
        assert current.count() == 1 and current.get_attribute("href") == table, size
        page.wait_for_timeout(300)  # the page's first drawing, for the picture
        page.screenshot(path=str(shots / f"topbar-{game}-{size}.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        if size == "phone":  # the links are in a menu naming the page in view
            menu = page.locator("header.topbar .pages-menu")
            assert nav.first.is_hidden() and menu.locator("summary").inner_text().endswith(
                current.inner_text()), size
            menu.locator("summary").click()
            nav = menu.locator("a")
            assert nav.all_inner_texts() == links
            page.screenshot(path=str(shots / f"topbar-{game}-{size}-menu.png"))
        for i in range(nav.count()):  # each link in sight at once, inside the screen, tappable
            box = nav.nth(i).bounding_box()
            assert nav.nth(i).is_visible() and box is not None, (size, links[i])
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (size, links[i])
            assert box["y"] + box["height"] <= viewport["height"] and box["height"] >= 44, (
                size, links[i], box)
        assert page.js_errors == [], (size, page.js_errors)
        page.close()
        if game == "village":
            continue
        bag = open_page(browser, server.url + "/bag", viewport)
        said = bag.locator("#elsewhere")
        assert f"The current game is {LABELS[game]}" in said.inner_text()
        bag.screenshot(path=str(shots / f"elsewhere-{game}-{size}.png"))
        bag.locator("#elsewhere a").click()
        bag.wait_for_url(server.url + table)
        assert bag.js_errors == []
        bag.close()


def test_an_open_page_follows_a_game_of_another_kind(server: Server, browser: Any) -> None:
    """The table display and the play page left open while Colonia is started load again with
    Colonia's bar; the new-game page keeps what is picked on it (its bar follows later)."""
    server.post("/api/games", GAMES["village"][0])
    board = open_page(browser, server.url + "/", TABLET)
    play = open_page(browser, server.url + "/play", PHONE)
    new = open_page(browser, server.url + "/new", TABLET)
    for page in (board, play, new):
        page.locator("#live[data-state=live]").wait_for()
    new.check("input[name=count][value='2']", force=True)
    server.post("/api/games", GAMES["colonia"][0])
    for page in (board, play):
        page.locator("nav[data-game=colonia]").wait_for(state="attached")
        assert page.locator("header.topbar nav a").all_inner_texts() == GAMES["colonia"][2]
        assert page.js_errors == []
    # The reloaded play page fills #pending once its state request answers; wait for it.
    play.locator("#pending", has_text="The current game is Colonia").wait_for()
    new.wait_for_timeout(500)
    assert new.locator("nav").get_attribute("data-game") == "village"
    assert new.locator("input[name=count][value='2']").is_checked()
