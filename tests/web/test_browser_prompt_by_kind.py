"""A prompt with more than five long choices on the play page (issue 15, item 5): a take,
or the well used for any of several spaces, is asked as two choices (the take; the well
for "…" space), then the space alone; each tap through the real API and server."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import BROWSER, PHONE, TABLET, TOKEN, needs_playwright, open_page

import companion.village as v
from companion.reconcile.asking import LONG_WORDS
from companion.runtime import Runtime
from companion.village.actions import UseWell

pytestmark = BROWSER
needs_playwright()



def to_a_well_turn(rt: Runtime) -> tuple[Any, list[Any]]:
    """Play (as the tablet) until the player to move may take a cube or use the well for
    five spaces or more with cubes of one colour; that take and those well uses."""
    svc, rng = rt.service, random.Random(5)
    svc.new_game(["red", "blue", "yellow"])
    for _ in range(600):
        st = svc.state()
        if v.pending(st).kind == "turn":
            legal = v.legal_actions(st)
            by_colour: dict[Any, list[Any]] = {}
            for w in (a for a in legal if isinstance(a, UseWell)):
                by_colour.setdefault((w.color, repr(w.pay)), []).append(w)
            takes = [a for a in legal if a.type == "take"]
            wells = max(by_colour.values(), key=len, default=[])
            if takes and len(wells) >= 5:
                return takes[0], wells
        svc.submit(rng.choice(svc.legal()), "tablet")
    pytest.fail("no turn with a take and five well uses of one colour")


def test_a_take_or_the_well_is_asked_by_kind_then_the_space(
    runtime: Any, browser: Any, shots: Path
) -> None:
    rt, url = runtime
    take, wells = to_a_well_turn(rt)
    page = open_page(browser, f"{url}/play#token={TOKEN}")
    page.locator("#live[data-state='live']").wait_for(state="attached")
    page.locator(f"#options[data-seq='{rt.service.seq()}']").wait_for(state="attached")
    time.sleep(0.5)  # the reconciler has looked at this point of the game (nothing seen)
    with rt._rec_lock:  # asked as the reconciler asks when the sensors cannot tell
        rec = rt.reconciler
        rec._emit([rec._new_prompt(rt.service.seq(), [(take,)] + [(w,) for w in wells])])
    prompt = page.locator(".sensing-prompt")
    prompt.wait_for(timeout=10_000)
    choices = prompt.locator(".sensing-choice")
    assert choices.count() == 2, choices.all_inner_texts()
    texts = choices.all_inner_texts()
    assert sum(len(t.split()) > LONG_WORDS for t in texts) <= 1
    well = next(k for k, t in enumerate(texts) if "well" in t)
    assert "…" in texts[well]
    page.screenshot(path=str(shots / "play-sensing-prompt-by-kind-tablet.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "play-sensing-prompt-by-kind-phone.png"), full_page=True)
    page.set_viewport_size(TABLET)
    seq = rt.service.seq()
    choices.nth(well).click()
    # asked next: which space, each a word or two
    page.wait_for_function(
        "n => document.querySelectorAll('.sensing-prompt .sensing-choice').length == n",
        arg=len(wells))
    spaces = page.locator(".sensing-prompt .sensing-choice").all_inner_texts()
    assert all(len(t.split()) <= 3 for t in spaces), spaces
    assert rt.service.seq() == seq  # nothing applied before the whole move is known
    page.screenshot(path=str(shots / "play-sensing-prompt-space-tablet.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "play-sensing-prompt-space-phone.png"), full_page=True)
    page.set_viewport_size(TABLET)
    page.locator(".sensing-prompt .sensing-choice").first.click()
    deadline = time.monotonic() + 10
    while rt.service.seq() == seq and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rt.service.seq() == seq + 1
