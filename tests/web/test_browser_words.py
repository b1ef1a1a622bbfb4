"""Every action the engine knows has a heading and a button label in words on the play page:
no program name (``return_port``, shown as ``RETURN_PORT`` by the headings' capitals) can
reach the table, whatever module adds it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page

from companion import village as v

pytestmark = BROWSER
needs_playwright()

PROGRAM_NAME = re.compile(r"\b[A-Za-z]+_[A-Za-z_]+\b")


def test_every_action_type_has_a_heading_in_words(server: Server, browser: Any) -> None:
    page = open_page(browser, server.url + f"/play#token={TOKEN}")
    kinds = [*sorted(v.ACTION_TYPES), "virtual_draw"]
    headings = page.evaluate(
        "kinds => import('/static/labels.js').then(m => kinds.map(k => m.groupOf({type: k})))",
        kinds,
    )
    named = dict(zip(kinds, headings, strict=True))
    wrong = {k: h for k, h in named.items() if PROGRAM_NAME.search(h) or not h}
    assert not wrong, f"headings that are program names: {wrong}"


def test_no_undo_before_any_game(server: Server, browser: Any) -> None:
    """Issue 18 item 16: "Undo…" was offered before any game existed."""
    page = open_page(browser, server.url + f"/play#token={TOKEN}")
    page.locator("#pending", has_text="No game yet").wait_for()
    assert page.locator("#undo").is_hidden()
    server.post("/api/games", {"players": ["red", "blue"]})
    page.reload()
    page.locator("#undo").wait_for(state="visible")


def test_the_commitment_waits_in_a_fold(server: Server, browser: Any) -> None:
    """Issue 18 item 14: a hash up front on the green bag page means nothing to a family;
    the draw button comes first, the commitment is one tap away for whoever checks."""
    server.post("/api/games", {"players": ["red", "blue"]})
    server.post("/api/actions", {"type": "virtual_draw"})  # the customer tiles: the bag next
    page = open_page(browser, server.url + f"/bag#token={TOKEN}")
    page.locator("#virtual-panel").wait_for()
    assert page.locator("#draw").is_visible()
    assert page.locator("#commitment").is_hidden()
    assert len(page.locator("#commitment").text_content()) == 64  # there, for checking
    page.locator("#virtual-panel summary").click()
    assert page.locator("#commitment").is_visible()


def test_a_cube_whose_action_cannot_be_used_is_marked_on_its_button(
    server: Server, browser: Any, shots: Path
) -> None:
    """Issue 18 item 3: the reason shows on the option before the cube is taken."""
    import random

    svc = server.service
    svc.new_game(["red", "blue", "yellow"])
    rng = random.Random(5)
    for _ in range(400):
        view = svc.legal_view()
        if any(c.get("warning") for c in view["choices"]):
            break
        svc.submit(rng.choice(svc.legal()))
    else:
        raise AssertionError("no option carried a warning")
    warning = next(c["warning"] for c in view["choices"] if c.get("warning"))
    page = open_page(browser, server.url + f"/play#token={TOKEN}")
    page.locator(".use-warn").first.wait_for()
    shown = page.locator(".use-warn").all_inner_texts()
    # a cube take's row says the reason on one line ("no use now: nobody is on the farm."),
    # the whole sentence in its title
    titles = page.locator(".use-warn").evaluate_all("els => els.map(e => e.title)")
    reason = warning.split(": ", 1)[-1]
    assert (
        warning in shown
        or warning in titles
        or f"no use now: {reason}" in shown
        or "some of these cannot be used" in shown
    ), shown
    page.screenshot(path=str(shots / "play-warning-tablet.png"))
    phone = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
    phone.locator(".use-warn").first.wait_for()
    phone.screenshot(path=str(shots / "play-warning-phone.png"), full_page=True)
