"""The new-game page offers the Port box's expansions: ticked, they are in the record
header and the game starts with them (the deal comes before the first fill)."""

from __future__ import annotations

from typing import Any

from browserkit import BROWSER, TOKEN, Server, needs_playwright, open_page, settle
from test_browser_game import assert_plain

from companion import village as v
from companion.village.modules.life_goals import goals_of
from companion.village.modules.port import port_of
from companion.village.vocabulary import Cube, Space

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
    assert port_of(server.service.state()) is not None


def test_new_game_without_expansions_is_the_base_game(server: Server, browser: Any) -> None:
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    tablet.click("#start")
    tablet.locator("#player-links li").nth(1).wait_for()
    header = server.service.header()
    assert header["expansions"] == [] and "goal_claims" not in header


def test_the_private_page_shows_goals_and_claims_one(server: Server, browser: Any) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["life_goals"])
    svc.submit({"type": "virtual_draw"})
    for tier, hands in (
        ("silver", {"red": "aristocrat", "blue": "farmer"}),
        ("gold", {"red": "dealer", "blue": "saint"}),
    ):
        svc.submit({"type": "deal_goals", "tier": tier, "hands": hands})
    phone = open_page(browser, server.url + f"/me/red?token={svc.player_token('red')}")
    phone.locator("#me-goals [data-goal='dealer']").wait_for()
    text = phone.locator("#me-goals").inner_text()
    assert "Le Négociant" in text and "Still missing: 6 more customers served" in text
    assert phone.locator("[data-claim]").count() == 0  # nothing met yet
    assert "farmer" not in phone.locator("body").inner_text().lower()  # blue's goals stay hidden
    svc.state().p[v.Color.RED].customers.extend(f"c0{i}" for i in range(1, 7))  # as if served
    phone.reload()
    phone.locator("[data-claim='dealer']").click()
    phone.locator("#me-goals [data-goal='dealer']", has_text="claimed").wait_for()
    goals = goals_of(svc.state())
    assert goals is not None and goals.claimed[v.Color.RED] == frozenset({"dealer"})


def test_the_play_page_shows_the_sea(server: Server, browser: Any) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["port"])
    while svc.state().phase in ("reveal_customers", "fill_bag"):
        svc.submit({"type": "virtual_draw"})
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}")
    tablet.locator("#sea [data-ship='red']").wait_for()
    sea = tablet.locator("#sea").inner_text()
    assert "Red — in port" in sea and "Captains left: 15" in sea
    assert "Mission churches: B1 on island B free" in sea


def test_the_private_page_shows_a_treasure_s_value_and_cashes_it(
    server: Server, browser: Any
) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["port"])
    st = svc.state()
    assert port_of(st) is not None and port_of(st).data is not None
    port_of(st).ships[v.Color.RED].treasures = ["t6"]  # as if unloaded at port
    port_of(st).treasures.remove("t6")
    worth = port_of(st).data.treasures["t6"]
    coins = st.p[v.Color.RED].coins
    phone = open_page(browser, server.url + f"/me/red?token={svc.player_token('red')}")
    phone.locator("[data-cash='t6']").wait_for()
    assert f"A treasure worth {worth} coins" in phone.locator("#me-port").inner_text()
    other = open_page(browser, server.url + f"/me/blue?token={svc.player_token('blue')}")
    other.locator("#me-port p").first.wait_for()
    assert "worth" not in other.locator("body").inner_text()  # Red's treasure stays hidden
    phone.locator("[data-cash='t6']").click()
    phone.locator("#me-port", has_text="No treasure unloaded").wait_for()
    assert svc.state().p[v.Color.RED].coins == coins + worth


def test_the_play_page_sells_cocoa_at_the_market_day(server: Server, browser: Any) -> None:
    svc = server.service
    svc.new_game(["red", "blue"], modules=["port"])
    while svc.state().phase in ("reveal_customers", "fill_bag"):
        svc.submit({"type": "virtual_draw"})
    st = svc.state()
    assert port_of(st) is not None and v.pending(st).player == v.Color.RED
    # only a market cube and a church cube on the board, no customer on the stalls, and a
    # cocoa basket on Red's farm (as if brought home from a voyage)
    for cubes in st.spaces.values():
        for cube, n in cubes.items():
            st.bag[cube] += n
        cubes.clear()
    for space, cube in ((Space.MARKET, Cube.GREEN), (Space.CHURCH, Cube.BROWN)):
        st.bag[cube] -= 1
        st.spaces[space][cube] = 1
    st.market[:5] = [None] * 5
    port_of(st).ships[v.Color.RED].cocoa = 1
    port_of(st).cocoa -= 1
    svc.submit({"type": "take", "player": "red", "space": "market", "cube": "green"})
    prestige = svc.state().p[v.Color.RED].prestige
    tablet = open_page(browser, server.url + f"/play#token={TOKEN}")
    sell = tablet.locator("#options button", has_text="Sell a cocoa basket")
    sell.first.wait_for()
    settle(tablet, server)  # the log is drawn after the options
    assert_plain(tablet, "the market day with a cocoa basket to sell")
    before = svc.seq()
    sell.first.click()
    if tablet.locator("#options .crumbs").count():  # a second step: how to pay
        tablet.locator("#options button.option").first.click()
    tablet.wait_for_function(
        "n => { const d = document.querySelector('#done'); return d && d.dataset.seq === String(n); }",
        arg=before + 1,
    )
    assert "sells a cocoa basket at the market" in tablet.locator("#done").inner_text()
    assert svc.state().p[v.Color.RED].prestige == prestige + 7
