"""A whole game played through the pages in a real browser, and the pages' layout at table
sizes. At every step no visible text may hold developer artefacts (``{'``, ``null``,
``undefined``, ``NaN``, API paths, snake_case keys, tile ids such as ``c22`` or ``t3``); the scoreboard follows on a second
tab and is checked too. Screenshots go to ``VILLAGE_SCREENSHOTS`` (e.g. docs/screenshots).
"""

from __future__ import annotations

import os
import random
import re
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
    wait_drawn,
)

pytestmark = BROWSER
needs_playwright()

HD = {"width": 1920, "height": 1080}
ARTEFACTS = re.compile(
    r"\{'|\{\"|\bnull\b|\bundefined\b|\bNaN\b|/api/|\[object"
    r"|\b[A-Za-z]+_[A-Za-z]+(?:_[A-Za-z]+)*\b"  # snake_case and ALL_CAPS program names
    r"|\b[ct]\d{1,2}\b|\bc\d-\d\b"  # tile ids (customers c22, treasures t3, captains c1-2)
    r"|\bseed \d{3}\b"  # a rulebook's file number ("seed 000") said to players
)


def visible_text(page: Any) -> str:
    return str(page.evaluate("document.body.innerText"))


def assert_plain(page: Any, where: str) -> None:
    text = visible_text(page)
    found = ARTEFACTS.search(text)
    assert not found, (
        f"{where}: developer text {found.group(0)!r} in: …{text[max(0, found.start() - 80) : found.end() + 80]}…"
    )


@pytest.mark.slow
def test_a_whole_game_through_the_pages(server: Server, browser: Any, shots: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    # Another game each run: the virtual draws' seeds from a sequence started at a random
    # seed, printed (shown with a failure) and replayed with VILLAGE_DRAW_SEED=<seed>. With
    # fresh seeds, about half the runs once failed: the play page drew a decision's options
    # twice, folded for two heights, and the click landed on a step where an option had
    # been (tests/web/test_browser_play_steady.py).
    draw_seed = int(os.environ.get("VILLAGE_DRAW_SEED") or random.SystemRandom().randrange(10**6))
    print(f"virtual draws from seed {draw_seed} (replay: VILLAGE_DRAW_SEED={draw_seed})")
    fixed_draw_seeds(monkeypatch, draw_seed)
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    tablet.check("input[name=count][value='2']", force=True)
    assert_plain(tablet, "new game")
    tablet.click("#start")
    tablet.locator("#player-links li").nth(1).wait_for()
    assert_plain(tablet, "new game started")
    header_rules = server.service.header()["house_rules"]
    assert header_rules == {"well_coins": False, "final_seller_sells": True, "train_only": True}
    board = open_page(browser, server.url + "/")
    tablet.goto(server.url + "/play")

    steps = clicks = 0
    seen_kinds: set[str] = set()
    while True:
        kind = settle(tablet, server)
        seen_kinds.add(kind)
        assert_plain(tablet, f"play, {kind}")
        if kind == "over" or not tablet.locator("#options button").count():
            break
        # A step button (member → building → …) or an option: as a person would, at random.
        buttons = tablet.locator("#options button.option, #options button.step")
        before = seq(server)
        pick = buttons.nth(rng.randrange(buttons.count()))
        is_step = "step" in (pick.get_attribute("class") or "")
        pick.click()
        clicks += 1
        if is_step:
            tablet.locator("#options .crumbs").wait_for()
            continue
        tablet.wait_for_function(
            "n => document.querySelector('#done') && document.querySelector('#done').dataset.seq === String(n)",
            arg=before + 1,
        )
        steps += 1
        if steps % 25 == 0:
            board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=before + 1)
            assert_plain(board, f"scoreboard at step {steps}")
        assert steps < 1500, "the game does not end"
    st = server.get("/api/state")
    assert st["over"] and st["phase"] == "over"
    assert tablet.locator("#pending").inner_text() == "The game is over"
    log = server.get("/api/log")["entries"]
    assert log[-1]["narration"][-1].startswith("The game is over. Final totals:")
    assert any("Church majority" in s for e in log for s in e["narration"])
    # a buy-out depends on the virtual draws (another game each run), so it is not required
    # here; tests/web/test_browser_round.py makes one on /mass
    assert {"turn", "action", "mass_draw", "fill_bag"} <= seen_kinds
    tablet.screenshot(path=str(shots / "play-over-tablet.png"))
    board.wait_for_function("n => document.body.dataset.seq === String(n)", arg=st["seq"])
    assert_plain(board, "scoreboard, game over")
    board.screenshot(path=str(shots / "scoreboard-over-tablet.png"))
    for path in ("/mass", "/bag", "/links", f"/me/red?token={server.service.player_token('red')}"):
        page = open_page(browser, server.url + path)
        wait_drawn(page, server)
        assert_plain(page, path)
        assert page.js_errors == [], (path, page.js_errors)
        page.close()
    assert tablet.js_errors == [] and board.js_errors == []
    assert clicks >= steps


def play_api(server: Server, actions: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    while seq(server) < actions:
        legal = server.get("/api/legal")["actions"]
        if not legal:
            break
        server.post("/api/actions", rng.choice(legal))


def boxes(page: Any, selector: str) -> list[dict[str, float]]:
    return list(
        page.locator(selector).evaluate_all(
            "els => els.map(e => { const r = e.getBoundingClientRect();"
            " return {x: r.x, y: r.y, w: r.width, h: r.height}; })"
        )
    )


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (
        a["x"] + a["w"] <= b["x"]
        or b["x"] + b["w"] <= a["x"]
        or a["y"] + a["h"] <= b["y"]
        or b["y"] + b["h"] <= a["y"]
    )


@pytest.mark.parametrize("players", [2, 4])
def test_the_scoreboard_fits_a_table_display(
    server: Server, browser: Any, shots: Path, players: int
) -> None:
    colours = ["red", "yellow", "blue", "white"][:players]
    server.post("/api/games", {"players": colours})
    play_api(server, 160)
    for name, viewport in (("tablet", TABLET), ("hd", HD)):
        page = open_page(browser, server.url + "/", viewport)
        page.wait_for_function("n => document.body.dataset.seq === String(n)", arg=seq(server))
        page.wait_for_timeout(200)
        page.screenshot(path=str(shots / f"scoreboard-{players}p-{name}.png"))
        size = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert size == [viewport["width"], viewport["height"]], (name, size, "no scrolling")
        for card in boxes(page, ".family-card"):
            assert card["y"] + card["h"] <= viewport["height"], (name, "a family card is cut")
            assert card["x"] + card["w"] <= viewport["width"]
        assert page.locator(".family-card").count() == players
        labels = boxes(page, "#plot .end-label")
        assert len(labels) == players
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                assert not overlap(a, b), (name, "prestige labels overlap", a, b)
        log = boxes(page, "#log .log-entry")
        assert log and log[0]["y"] < viewport["height"], "the latest event is on screen"
        assert_plain(page, f"scoreboard {players}p {name}")
        assert page.js_errors == []
        page.close()


def test_tied_prestige_labels_do_not_overlap(server: Server, browser: Any) -> None:
    server.post("/api/games", {"players": ["red", "yellow", "blue", "white"]})
    page = open_page(browser, server.url + "/", TABLET)  # everyone at 0: a four-way tie
    page.locator("#plot .end-label").nth(3).wait_for(state="attached")
    labels = boxes(page, "#plot .end-label")
    assert [lab["h"] > 0 for lab in labels] == [True] * 4
    for i, a in enumerate(labels):
        for b in labels[i + 1 :]:
            assert not overlap(a, b), (a, b)


def test_play_page_steps_costs_and_fold(server: Server, browser: Any, shots: Path) -> None:
    """Crafts with many options: picked in steps, each showing its cost; nothing needed
    below the fold at 1280×800; the phone layout has no sideways scrolling."""
    server.post("/api/games", {"players": ["red", "yellow", "blue", "white"]})
    rng = random.Random(1)
    for _ in range(400):
        legal = server.get("/api/legal")
        if legal["pending"]["kind"] == "action" and len(legal["actions"]) > 8:
            break
        server.post("/api/actions", rng.choice(legal["actions"]))
    else:
        pytest.fail("no decision with many options")
    page = open_page(browser, server.url + f"/play#token={TOKEN}", TABLET)
    settle(page, server)
    page.wait_for_timeout(200)
    page.screenshot(path=str(shots / "play-steps-tablet.png"))
    shown = page.locator("#options button.option, #options button.step")
    assert shown.count() < len(legal["actions"]), "fewer buttons than options: steps"
    for b in boxes(page, "#options button, #undo"):
        assert b["y"] + b["h"] <= TABLET["height"], "a button is below the fold"
    # each option says what it costs: a whole button its cost line, a row of small picks
    # (issue 18 item 6) the time each pick costs, or the row's cost
    alone = page.locator("#options button.option:not(.pick), #options button.step:not(.pick)")
    costs = alone.all_inner_texts()
    assert all("costs" in c for c in costs), costs
    rows = page.locator("#options .option-row").all_inner_texts()
    assert rows and all("time" in r or "costs" in r for r in rows), rows
    step = page.locator("#options button.step").first
    step.click()
    page.locator("#options .crumbs").wait_for()
    page.screenshot(path=str(shots / "play-step-2-tablet.png"))
    then = page.locator("#options button.option, #options button.step").all_inner_texts()
    assert then and all("costs" in t or "time" in t for t in then), then
    assert_plain(page, "play steps")
    page.click("#options .crumbs .back")
    page.locator("#options .crumbs").wait_for(state="detached")
    phone = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
    settle(phone, server)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.screenshot(path=str(shots / "play-steps-phone.png"), full_page=True)
    assert page.js_errors == [] and phone.js_errors == []
