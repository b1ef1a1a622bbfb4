"""A whole 3-player Colonia game through the pages in a real browser: started on the
new-game page (`/new`, Colonia chosen, a house rule ticked), the table page (`/colonia`) turns up every card by name, answers the box's question for a card it does not
know, draws the stalls and the die virtually, and picks each day's options; the three
phones (`/answer/<colour>`) answer every family card and vote; the public scoreboard (`/`)
shows Colonia's board, never a screen, and the final scoring only at the end. Screenshots go
to ``VILLAGE_SCREENSHOTS``."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TABLET, Server, needs_playwright, open_page, seq

sys.path.insert(0, str(Path(__file__).parent.parent / "colonia"))
from colonia_kit import learned

from companion.colonia.cards import TYPES

pytestmark = BROWSER
needs_playwright()

PLAYERS = ["red", "blue", "green"]
DECKS = {"ship": ("S", 16), "relic": ("R", 48), "extra_relic": ("R", 48), "week": ("W", 14),
         "decree": ("D", 18)}


def _moved(server: Server, before: int, page: Any) -> None:
    end = time.monotonic() + 20
    while seq(server) == before:
        assert time.monotonic() < end, "the action was not taken"
        time.sleep(0.05)
    page.locator(f"#col-now[data-seq='{seq(server)}']").wait_for(state="attached")


def test_a_whole_game_through_the_pages(server: Server, browser: Any, shots: Path) -> None:
    rng = random.Random(21)
    cards = learned(3)
    del cards["colonia.ship"]["S1"]  # the box does not know this one: the page asks for it
    for kind, known in cards.items():  # what this table's box learned in earlier games
        for card, values in known.items():
            server.runtime.cards.save(TYPES[kind], card, values)
    new = open_page(browser, f"{server.url}/new#token=browser-test-token", TABLET)
    new.locator("#game-choice input[value=colonia]").check()
    new.locator("#other-rules input[value=tied_vote_mayors_side]").check()
    new.locator("#counts input[value='3']").check(force=True)
    for i, colour in enumerate(PLAYERS):
        new.locator(f"select[name=seat-{i}]").select_option(colour)
    assert new.locator("#counts input").count() == 5  # Colonia: 2 to 6 players
    assert new.locator(".village-only").first.is_hidden()
    new.screenshot(path=str(shots / "colonia-new-game-tablet.png"), full_page=True)
    new.set_viewport_size(PHONE)
    # three games' names wrap on a phone, never widen the page
    assert new.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    new.screenshot(path=str(shots / "colonia-new-game-phone.png"), full_page=True)
    new.set_viewport_size(TABLET)
    new.locator("#start").click()
    new.locator("#player-links li").nth(2).wait_for()
    hrefs = new.locator("#player-links a").evaluate_all("els => els.map(e => e.href)")
    assert [h.split("/answer/")[1].split("?")[0] for h in hrefs] == PLAYERS
    assert new.locator("#table-page").get_attribute("href") == "/colonia"
    new.screenshot(path=str(shots / "colonia-new-game-started-tablet.png"), full_page=True)
    state = server.get("/api/state")
    assert state["game"] == "colonia" and state["house_rules"] == ["tied_vote_mayors_side"]
    tokens = {h.split("/answer/")[1].split("?")[0]: h.split("token=")[1] for h in hrefs}
    table = open_page(browser, f"{server.url}/colonia#token=browser-test-token", TABLET)
    board = open_page(browser, f"{server.url}/", TABLET)
    phones = {c: open_page(browser, f"{server.url}/answer/{c}?token={tokens[c]}", PHONE)
              for c in PLAYERS}
    table.locator(f"#col-now[data-seq='{seq(server)}']").wait_for(state="attached")
    used = {"S": 0, "R": 0, "W": 0, "D": 0}
    shot: set[str] = set()
    for _ in range(2000):
        st = server.get("/api/state")
        kind = st["pending"]["kind"]
        if kind == "over":
            break
        before = seq(server)
        if st["draw"]:
            table.locator("#col-draw").click()
        elif kind == "card_values":
            form = table.locator("#col-question")
            form.locator("select[name=city]").select_option("bruges")
            form.locator("input[name=hold_1]").fill("painting=9")
            form.locator("input[name=hold_2]").fill("saddle+shoes=7")
            form.locator("input[name=hold_3]").fill("clothing=4")
            if "question" not in shot:
                shot.add("question")
                table.screenshot(path=str(shots / "colonia-table-question-tablet.png"),
                                 full_page=True)
            form.locator("button[type=submit]").click()
        elif kind in DECKS:
            prefix, n = DECKS[kind]
            shown = {r["name"] for r in st["display"]} | {m["ship"] for m in st["moorings"]}
            while True:
                used[prefix] = used[prefix] % n + 1
                if f"{prefix}{used[prefix]}" not in shown:
                    break
            table.locator("#col-card").fill(f"{prefix}{used[prefix]}")
            table.locator("#col-reveal").click()
        elif kind == "sealed":
            waiting = st["sealed"]["waiting"]
            if "sealed" not in shot and len(waiting) == 1:
                shot.add("sealed")
                table.screenshot(path=str(shots / "colonia-table-waiting-tablet.png"),
                                 full_page=True)
            color = waiting[0]
            phone = phones[color]
            phone.locator(f"#answer-status[data-seq='{before}']").wait_for(state="attached")
            options = phone.locator("[data-answer]")
            options.first.wait_for()
            pick = rng.randrange(options.count())
            options.nth(pick).click()
            if len(waiting) > 1:
                end = time.monotonic() + 20
                while color in server.get("/api/state")["sealed"]["waiting"]:
                    assert time.monotonic() < end
                    time.sleep(0.05)
                continue
        else:
            buttons = table.locator(".col-option")
            buttons.first.wait_for()
            labels = buttons.all_inner_texts()
            acts = [i for i, t in enumerate(labels) if not t.endswith("passes.")]
            i = rng.choice(acts) if acts and rng.random() < 0.8 else len(labels) - 1
            if st["day"] == "wednesday" and "market" not in shot:
                shot.add("market")
                table.screenshot(path=str(shots / "colonia-table-market-tablet.png"),
                                 full_page=True)
            if st["week"] == 2 and st["day"] == "friday" and "board" not in shot:
                shot.add("board")  # the public scoreboard mid-game: no screen, no final
                board.locator(f"body[data-seq='{before}']").wait_for(state="attached")
                assert board.locator("#colonia-scoreboard").is_visible()
                assert board.locator(".col-days li.today").inner_text() == "Fri"
                assert board.locator("#col-final").is_hidden()
                assert "VP" not in board.locator("#col-players").inner_text()
                assert "stained glass" not in board.locator("#col-players").inner_text()
                board.screenshot(path=str(shots / "colonia-scoreboard-tablet.png"),
                                 full_page=True)
            buttons.nth(i).click()
        _moved(server, before, table)
    st = server.get("/api/state")
    assert st["pending"]["kind"] == "over" and st["week"] == 6
    table.locator("#col-places").wait_for()
    table.screenshot(path=str(shots / "colonia-table-end-tablet.png"), full_page=True)
    small = open_page(browser, f"{server.url}/colonia", PHONE)
    small.locator("#col-places").wait_for()
    small.screenshot(path=str(shots / "colonia-table-end-phone.png"), full_page=True)
    assert all(p["screen"]["score"]["total"] >= 0 for p in st["players"])
    assert table.locator("#col-final").is_visible()
    lines = table.locator("#col-final-lines li").all_inner_texts()
    assert lines[0].startswith("Stained glass, pound:") and len(lines) >= 4 + 3 + 1
    # the scoreboard: Colonia's board, the final scoring told line by line
    board.locator(f"body[data-seq='{seq(server)}']").wait_for(state="attached")
    assert board.locator("#col-final-lines li").all_inner_texts() == lines
    board.locator("#col-log .narration").first.wait_for()
    assert board.locator("#message a[href='/colonia']").is_visible()
    board.screenshot(path=str(shots / "colonia-scoreboard-end-tablet.png"), full_page=True)
    small_board = open_page(browser, f"{server.url}/", PHONE)
    small_board.locator("#col-final-lines li").first.wait_for()
    small_board.locator("#col-log .narration").first.wait_for()
    small_board.screenshot(path=str(shots / "colonia-scoreboard-end-phone.png"), full_page=True)
    play = open_page(browser, f"{server.url}/play#token=browser-test-token", TABLET)
    play.locator("#options a[href='/colonia']").wait_for()
    links = open_page(browser, f"{server.url}/links#token=browser-test-token", TABLET)
    links.locator("#player-links a[href*='/answer/red?token=']").wait_for()  # the phone page
    for page in [new, table, small, board, small_board, play, links, *phones.values()]:
        assert page.js_errors == [], page.js_errors
