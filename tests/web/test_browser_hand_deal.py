"""Life goals dealt by hand, through the pages in a real browser: each player draws their
tile at the table, taps it on their own private page and says yes; the play page says who
has still to report; the table may deal the rest virtually. Nobody else's page ever shows
a reported tile. Screenshots go to ``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page, seq, settle
from test_browser_game import assert_plain

from companion import village as v
from companion.village.modules.life_goals import goals_of
from companion.village.modules.port import Voyage, port_of

pytestmark = BROWSER
needs_playwright()


def report(page: Any, server: Server, goal: str, name: str, deals: bool,
           says: str | None = None) -> None:
    """Tap the tile ``goal`` on a private page, then "Yes": the report is sealed (nothing
    stored; the page then ``says`` so) or, being the last of the tier, ``deals`` the tier
    in one event."""
    before = seq(server)
    page.locator(f"[data-report-goal='{goal}']").click()
    confirm = page.locator(f"[data-report-confirm='{goal}']")
    confirm.wait_for()
    assert f"you drew {name}?" in page.locator("#me-goals").inner_text()
    assert seq(server) == before  # a tap alone reports nothing
    confirm.click()
    if deals:
        page.locator(f"#me-goals [data-goal='{goal}']").wait_for()
        assert seq(server) == before + 1
    else:
        page.locator("#me-goals", has_text=says or f"you reported {name}").wait_for()
        assert seq(server) == before


def test_goals_dealt_by_hand_reported_on_private_pages(
    server: Server, browser: Any, shots: Path
) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["life_goals"])
    svc.submit({"type": "virtual_draw"})  # the customers
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}")
    assert settle(tablet, server) == "deal_silver"
    hint = tablet.locator("#hand-deal")
    assert "Still to report: Red, Blue" in hint.inner_text()
    red = open_page(browser, server.url + f"/me/red?token={svc.player_token('red')}", PHONE)
    blue = open_page(browser, server.url + f"/me/blue?token={svc.player_token('blue')}")
    for page in (red, blue):
        page.locator("#me-goals [data-report='silver'] [data-report-goal]").first.wait_for()
    # the goal panel comes first while a report is due, with every silver tile to pick from
    tiles = red.locator("[data-report-goal]")
    assert tiles.count() == 6 and "L'Écrivain" in red.locator("#me-goals").inner_text()
    assert_plain(red, "private page, silver goal to report")
    red.screenshot(path=str(shots / "me-report-goal-phone.png"), full_page=True)

    # a change of mind before "yes" costs nothing
    red.locator("[data-report-goal='farmer']").click()
    red.locator("[data-report-confirm='farmer']").wait_for()
    red.screenshot(path=str(shots / "me-report-confirm-phone.png"))
    red.get_by_role("button", name="No, choose again").click()
    red.locator("[data-report-goal='writer']").wait_for()
    report(red, server, "writer", "L'Écrivain", deals=False)  # sealed until Blue reports
    assert "stays sealed until every player has reported" in red.locator("#me-goals").inner_text()
    red.screenshot(path=str(shots / "me-report-sealed-phone.png"))
    tablet.locator("#hand-deal", has_text="Still to report: Blue.").wait_for()
    tablet.screenshot(path=str(shots / "play-hand-deal-tablet.png"))

    # Blue's page still offers L'Écrivain (it must not tell who holds what); Blue misreads
    # it: the clash is found now that both have reported, nothing is stored, and both are
    # asked, in the same words, to look at their tile again
    before = seq(server)
    report(blue, server, "writer", "L'Écrivain", deals=False, says="name the same tile")
    for page in (red, blue):
        page.locator("#me-goals", has_text="name the same tile").wait_for()
    assert seq(server) == before
    tablet.locator("#hand-deal", has_text="Blue and Red, please look at your tiles again").wait_for()
    blue.screenshot(path=str(shots / "me-report-check-again-phone.png"))
    report(red, server, "writer", "L'Écrivain", deals=False)
    report(blue, server, "farmer", "Le Fermier", deals=True)
    red.locator("#me-goals", has_text="Silver: L'Écrivain").wait_for()
    red.locator("#me-goals", has_text="Gold goal: which tile did you draw?").wait_for()
    assert blue.locator("#refusal").is_hidden()
    assert "crivain" not in blue.locator("body").inner_text()

    # gold: Red reports, the table deals Blue's virtually
    red.locator("#me-goals [data-report='gold'] [data-report-goal='dealer']").wait_for()
    report(red, server, "dealer", "Le Négociant", deals=False)
    assert settle(tablet, server) == "deal_gold"
    tablet.locator("#hand-deal", has_text="Still to report: Blue.").wait_for()
    tablet.locator("#options button.option").first.click()
    blue.locator("#me-goals [data-goal-tier], #me-goals .goal").first.wait_for()
    assert settle(tablet, server) == "fill_bag"
    assert tablet.locator("#hand-deal").count() == 0
    goals = goals_of(svc.state())
    assert goals is not None
    assert goals.silver == {v.Color.RED: "writer", v.Color.BLUE: "farmer"}
    assert goals.gold[v.Color.RED] == "dealer" and v.Color.BLUE in goals.gold
    blue.locator("[data-report]").wait_for(state="detached")
    assert blue.locator("#me-goals .goal[data-goal]").count() == 2
    # nothing of either hand on the public pages
    board = open_page(browser, server.url + "/")
    board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=seq(server))
    public = board.locator("body").inner_text() + tablet.locator("body").inner_text()
    for name in ("L'Écrivain", "Le Fermier", "Le Négociant"):
        assert name not in public
    for page in (tablet, red, blue, board):
        assert page.js_errors == [], page.js_errors


def test_a_treasure_taken_by_hand_reported_by_its_taker(
    server: Server, browser: Any, shots: Path
) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["port"])
    st = svc.state()  # as if Red had just taken a treasure on an island
    assert port_of(st) is not None and port_of(st).data is not None
    port_of(st).voyage = Voyage(v.Color.RED, step="treasure")
    port_of(st).ships[v.Color.RED].zone = "G"  # Treasure Island in the worked voyage (X1–X4)
    port_of(st).ships[v.Color.RED].captain = "c3-5"
    st.phase = "draw_treasure"
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}")
    tablet.locator("#hand-deal", has_text="Red looks at it and taps its value").wait_for()
    red = open_page(browser, server.url + f"/me/red?token={svc.player_token('red')}", PHONE)
    blue = open_page(browser, server.url + f"/me/blue?token={svc.player_token('blue')}", PHONE)
    red.locator("[data-report-treasure]").first.wait_for()
    blue.locator("#me-port").wait_for()
    assert blue.locator("[data-report-treasure]").count() == 0  # only the taker
    values = [red.locator("[data-report-treasure]").nth(i).inner_text()
              for i in range(red.locator("[data-report-treasure]").count())]
    assert values == ["3 coins", "4 coins", "5 coins"]
    assert_plain(red, "private page, treasure to report")
    red.screenshot(path=str(shots / "me-report-treasure-phone.png"), full_page=True)
    tile = next(t for t, n in port_of(st).data.treasures.items() if n == 4)
    red.locator(f"[data-report-treasure='{tile}']").click()
    before = seq(server)
    red.locator(f"[data-report-confirm='{tile}']").click()
    red.locator("#me-port", has_text="On the hold: a treasure worth 4 coins").wait_for()
    assert seq(server) == before + 1
    after = port_of(svc.state())
    assert after is not None and after.ships[v.Color.RED].hold == [f"treasure:{tile}"]
    blue.reload()
    blue.locator("#me-port").wait_for()
    assert "4 coins" not in blue.locator("body").inner_text()
    for page in (tablet, red, blue):
        assert page.js_errors == [], page.js_errors
