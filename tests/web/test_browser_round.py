"""Real-browser tests (Debian's Chromium, Playwright, waitress on 127.0.0.1) of the green bag
after a reload and by hand, and of a whole round played through the pages up to the mass
and the next round's green bag."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from browserkit import BROWSER, TOKEN, Server, needs_playwright, open_page, seq

import companion.village as v
from companion import bags

pytestmark = BROWSER
needs_playwright()


def nonzero(spaces: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {s: {c: n for c, n in cubes.items() if n} for s, cubes in spaces.items()}


def shown_placement(page: Any) -> dict[str, dict[str, int]]:
    """The cubes the green-bag page says to put on each space: {space: {cube: n}}."""
    out: dict[str, dict[str, int]] = {}
    places = page.locator("#placement > .placement .place")
    for i in range(places.count()):
        place = places.nth(i)
        counts = {}
        for chip in place.locator(".cube-n").all_inner_texts():
            n, cube = chip.split()
            counts[cube] = int(n)
        out[str(place.get_attribute("data-space"))] = counts
    return out


def test_bag_shows_the_rounds_draw_after_reload_and_by_hand(
    server: Server, browser: Any, shots: Path
) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    server.post("/api/actions", {"type": "virtual_draw"})  # customer tiles
    page = open_page(browser, server.url + f"/bag#token={TOKEN}")
    page.locator("#virtual-panel").wait_for()
    commitment = page.locator("#commitment").inner_text()
    page.click("#draw")
    page.locator("#verify.ok").wait_for()
    assert "shown here before the draw" in page.locator("#verify").inner_text()

    # A fresh load (another tablet, or this one after sleeping): the same placement, from
    # the state's round_fill, and the seed still checks against the stored commitment.
    page.reload()
    page.locator("#placement[data-source=virtual]").wait_for()
    fill = nonzero(server.get("/api/state")["board"]["round_fill"])
    draw = server.get("/api/draws")["draws"][-1]
    assert draw["kind"] == "fill_bag" and draw["digest"] == commitment
    assert shown_placement(page) == fill == nonzero(draw["action"]["spaces"])
    assert f"#{draw['seq']}, virtual draw" in page.locator("#placement").inner_text()
    page.locator("#verify.ok").wait_for()
    assert page.locator("#seed").inner_text() == draw["seed"]
    assert hashlib.sha256(draw["seed"].encode()).hexdigest() == commitment
    assert "stored with the draw" in page.locator("#verify").inner_text()

    # Undo it; the table then draws by hand and enters it with the steppers.
    server.post("/api/undo", {})
    page.locator("#hand-panel").wait_for()
    assert page.locator("#reveal-panel").is_hidden()
    hand = bags.draw_action(v.chance_spec(server.service.state()), "by-hand")["spaces"]
    hand = nonzero(hand)
    assert hand != fill, "the hand draw differs from the undone virtual one"
    for space, cubes in hand.items():
        name = space.capitalize()
        for cube, n in cubes.items():
            plus = page.get_by_role("button", name=f"one {cube} more on {name}", exact=True)
            for _ in range(n):
                plus.click()
    page.click("#hand-form button[type=submit]")
    page.locator("#placement[data-source=hand]").wait_for()
    assert "drawn by hand" in page.locator("#placement").inner_text()
    assert shown_placement(page) == hand
    assert page.locator("#reveal-panel").is_hidden(), "no seed for a hand draw"
    page.reload()
    page.locator("#placement[data-source=hand]").wait_for()
    assert shown_placement(page) == hand == nonzero(server.get("/api/state")["board"]["round_fill"])
    page.screenshot(path=str(shots / "bag-hand-tablet.png"), full_page=True)
    assert page.js_errors == []
    assert seq(server) == 4  # customers, virtual fill, its undo, the hand fill
