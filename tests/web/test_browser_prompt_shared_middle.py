"""A prompt whose candidates share the middle of their sentences as well as their ends
(CI under load, 2026-11-27: a 130-character button): the page says the shared words once
above the buttons, each button keeps only its own words, and a tap applies its whole
move; through the real API and server."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import BROWSER, PHONE, TABLET, TOKEN, needs_playwright, open_page

import companion.village as v
from companion.reconcile.asking import BUTTON_CHARS, ask
from companion.runtime import Runtime
from companion.village.vocabulary import Space

pytestmark = BROWSER
needs_playwright()



def _two_takes_then_council(st: v.GameState) -> list[tuple[Any, ...]] | None:
    """Two takes of different colours from the council space, each followed by the same
    council entry, the second also by a privilege: the candidates the sensors leave when
    they saw a figure enter the council but not which cube left (None if not legal)."""
    takes = [a for a in v.legal_actions(st) if a.type == "take"
             and getattr(a, "space", None) == Space.COUNCIL]
    if len(takes) < 2:
        return None
    paths: list[tuple[Any, ...]] = []
    for take in takes[:2]:
        after = v.apply(st, take)
        enters = [a for a in v.legal_actions(after) if a.type == "council_enter"]
        if not enters:
            return None
        paths.append((take, enters[0]))
    second = v.apply(v.apply(st, paths[1][0]), paths[1][1])
    privileges = [a for a in v.legal_actions(second) if a.type == "privilege"]
    if not privileges or paths[0][1] != paths[1][1]:
        return None
    paths[1] = (*paths[1], privileges[0])
    return paths


def to_a_council_turn(rt: Runtime) -> list[tuple[Any, ...]]:
    svc, rng = rt.service, random.Random(3)
    for _game in range(20):
        svc.new_game(["red", "yellow", "blue"])
        for _ in range(60):
            st = svc.state()
            if v.pending(st).kind == "turn":
                paths = _two_takes_then_council(st)
                if paths and ask(st, paths).shared:
                    return paths
            if st.phase == "over" or not svc.legal():
                break
            svc.submit(rng.choice(svc.legal()), "tablet")
    pytest.fail("no turn with two council takes and an entry")


def test_a_shared_middle_is_said_once_and_each_button_keeps_its_own_words(
    runtime: Any, browser: Any, shots: Path
) -> None:
    rt, url = runtime
    paths = to_a_council_turn(rt)
    page = open_page(browser, f"{url}/play#token={TOKEN}")
    page.locator("#live[data-state='live']").wait_for(state="attached")
    page.locator(f"#options[data-seq='{rt.service.seq()}']").wait_for(state="attached")
    time.sleep(0.5)  # the reconciler has looked at this point of the game (nothing seen)
    with rt._rec_lock:  # asked as the reconciler asks when the sensors cannot tell
        rec = rt.reconciler
        rec._emit([rec._new_prompt(rt.service.seq(), paths)])
    prompt = page.locator(".sensing-prompt")
    prompt.wait_for(timeout=10_000)
    shared = prompt.locator(".sensing-shared").inner_text()
    assert "council level" in shared, shared
    texts = prompt.locator(".sensing-choice").all_inner_texts()
    assert len(texts) >= 2, texts
    assert all(len(t) <= BUTTON_CHARS for t in texts), texts
    assert not any("council level" in t for t in texts), texts  # said once, above
    assert sum("privilege" in t for t in texts) == 1, texts
    page.screenshot(path=str(shots / "play-sensing-prompt-shared-middle-tablet.png"),
                    full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "play-sensing-prompt-shared-middle-phone.png"),
                    full_page=True)
    page.set_viewport_size(TABLET)
    seq = rt.service.seq()
    chosen = next(k for k, t in enumerate(texts) if "privilege" in t)
    prompt.locator(".sensing-choice").nth(chosen).click()
    deadline = time.monotonic() + 10
    while rt.service.seq() < seq + 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rt.service.seq() == seq + 3  # the take, the entry and the privilege
