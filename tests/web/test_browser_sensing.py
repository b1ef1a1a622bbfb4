"""The sensing panel in a real browser: a runtime with the real reconciler behind a real
server (uvicorn); camera observations and taps go in, and on the play page a proposal
appears (and is undone), a prompt appears and is answered with one tap, a discrepancy
appears and is closed with "I will fix the board"; a prompt is closed with "nothing
happened" or "none of these", and a training seen without its good shows "waiting for …"
until the good comes."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest
from browserkit import BROWSER, PHONE, TABLET, TOKEN, needs_playwright, open_page

import companion.village as v
from companion.reconcile.observations import (
    CubeCounts,
    ItemCounts,
    MarkerCell,
    Observation,
    TagTapped,
    ZoneSnapshot,
)
from companion.runtime import Runtime
from companion.village import zones
from companion.village.picture import ITEM_ORDER, picture

pytestmark = BROWSER
needs_playwright()


def frame(st: v.GameState, t: float) -> list[Observation]:
    p = picture(st)
    out: list[Observation] = [CubeCounts("camera:0", t, region=r, counts=dict(c))
                              for r, c in p.cubes.items() if r.startswith(("space:", "supply:"))]
    out += [ZoneSnapshot("camera:0", t, zone=z, pieces=m) for z, m in p.pieces.items()
            if z.startswith("farm:")]
    return out


def whole_frame(st: v.GameState, t: float) -> list[Observation]:
    """An ideal camera: also every figure on the board and the farms, the goods and the
    time and prestige markers."""
    p = picture(st)
    out = frame(st, t)
    out += [ZoneSnapshot("camera:0", t, zone=z, pieces=m) for z, m in p.pieces.items()
            if z.startswith(("craft:", "council:", "church:", "travel:"))]
    for name, value in p.regions().items():
        kind, detail = zones.split(name)
        if kind == zones.GOODS:
            out.append(ItemCounts("camera:0", t, region=name,
                                  counts=dict(zip(ITEM_ORDER, value, strict=True))))  # type: ignore[arg-type]
        elif kind == zones.TIME and detail:
            out.append(MarkerCell("camera:0", t, track=name, marker=detail, cell=value))  # type: ignore[arg-type]
        elif kind == zones.PRESTIGE and detail:
            out.append(MarkerCell("camera:0", t, track=kind, marker=detail, cell=value))  # type: ignore[arg-type]
    return out



def until(check: Any, what: str, timeout: float = 10.0) -> None:
    """Poll `check()` until it is true; fail saying `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"not so after {timeout} s: {what}"
        time.sleep(0.02)


def settled(rt: Runtime, regions: set[str]) -> bool:
    """The reconciler has settled a value for each of `regions` and nothing waits to settle
    (so it has compared that table with the game, in the same tick)."""
    now = time.monotonic()
    with rt._rec_lock:
        table = rt.reconciler.table
        return table.quiet(now) and regions <= set(table.settled(now))


def to_a_crafts_turn(rt: Runtime) -> dict[str, Any]:
    """Play (as the tablet) until the player to move can take a cube from crafts."""
    svc, rng = rt.service, random.Random(3)
    svc.new_game(["red", "blue"])
    for _ in range(400):
        legal = svc.legal()
        take = [a for a in legal if a.get("type") == "take" and a.get("space") == "crafts"]
        if take and v.pending(svc.state()).kind == "turn":
            return take[0]
        svc.submit(rng.choice(legal), "tablet")
    pytest.fail("no crafts cube came up")


def test_proposal_prompt_and_discrepancy_on_the_play_page(
    runtime: Any, browser: Any, shots: Path
) -> None:
    rt, url = runtime
    take = to_a_crafts_turn(rt)
    st = rt.service.state()
    first = frame(st, time.monotonic())
    for o in first:
        rt.emit(o)
    page = open_page(browser, f"{url}/play#token={TOKEN}")
    # the page listens (a proposal is not sent again to a page that connects later) and
    # shows the game; the reconciler has taken the table as it was before the take
    page.locator("#live[data-state='live']").wait_for(state="attached")
    page.locator(f"#options[data-seq='{rt.service.seq()}']").wait_for(state="attached")
    regions = {getattr(o, "region", None) or getattr(o, "zone", "") for o in first}
    until(lambda: settled(rt, regions), "the table before the take is settled")

    # the player takes the cube: the camera sees it, the page says what happened
    seq = rt.service.seq()
    after = v.apply(st, take)
    for o in frame(after, time.monotonic()):
        rt.emit(o)
    proposal = page.locator(".sensing-proposal")
    proposal.wait_for(timeout=10_000)
    assert "takes a" in proposal.inner_text() and rt.service.seq() == seq + 1

    # undo it: the game goes back and the same guess is not made again
    page.locator(".sensing-undo").click()
    page.wait_for_function("() => !document.querySelector('.sensing-proposal')")
    deadline = time.monotonic() + 5
    while rt.service.seq() == seq + 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert v.pending(rt.service.state()).kind == "turn"
    discrepancy = page.locator(".sensing-discrepancy")
    discrepancy.wait_for(timeout=10_000)  # the table shows a take the players undid
    text = discrepancy.inner_text()
    assert not re.search(r"\b(space|supply|farm):[a-z]", text), text  # places in words
    # no camera runs here: the crop pictures remove themselves instead of showing broken
    page.wait_for_function("() => !document.querySelector('.sensing-crop')")
    page.screenshot(path=str(shots / "play-sensing-discrepancy.png"), full_page=True)
    page.locator(".sensing-fix").click()
    page.wait_for_function("() => !document.querySelector('.sensing-discrepancy')")
    assert [m for m in rt.sensing.open_messages() if m[0] == "discrepancy"] == []

    # enter the take on the tablet, then tap a farm member: who trains? a prompt
    rt.service.submit(take, "tablet")
    member = sorted(picture(rt.service.state()).pieces[f"farm:{take['player']}"])[0]
    rt.emit(TagTapped("pad:0", time.monotonic(), reader="0", uid="04A1B2C3", piece=member))
    prompt = page.locator(".sensing-prompt")
    prompt.wait_for(timeout=10_000)
    choices = prompt.locator(".sensing-choice")
    # the tapped member, named in words ("red-1a" → "Red 1a")
    colour, _, copy = member.partition("-")
    # (in the question: the choices say only what differs, the building and the good)
    question = prompt.locator(".sensing-title").inner_text()
    assert choices.count() > 1 and f"{colour.capitalize()} {copy}" in question
    assert f"{colour.capitalize()} {copy}" not in choices.first.inner_text()
    before = rt.service.seq()
    choices.first.click()
    page.wait_for_function("() => !document.querySelector('.sensing-prompt')")
    assert rt.service.seq() == before + 1
    assert rt.service.store.events(rt.service.current_game_id)[-1].source == "tablet"
    assert page.js_errors == []


def a_training_with_a_good(rt: Runtime) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play (as the tablet) until a cube from crafts lets a farm member train and make a
    good; return the take and that training."""
    svc, rng = rt.service, random.Random(5)
    svc.new_game(["red", "blue"])
    for _ in range(600):
        legal = svc.legal()
        st = svc.state()
        if v.pending(st).kind == "turn":
            for take in (a for a in legal if a.get("type") == "take"
                         and a.get("space") == "crafts" and a.get("cube") != "plague"):
                after = v.apply(st, take)
                trains = [a for a in v.legal_actions(after)
                          if a.type == "train" and a.good is not None]  # type: ignore[attr-defined]
                if trains:
                    return take, trains[0].to_json()
        svc.submit(rng.choice(legal), "tablet")
    pytest.fail("no training with a good came up")


def test_nothing_happened_none_of_these_and_a_move_half_done(
    runtime: Any, browser: Any, shots: Path
) -> None:
    rt, url = runtime
    take, train = a_training_with_a_good(rt)
    rt.service.submit(take, "tablet")
    st = rt.service.state()
    first = whole_frame(st, time.monotonic())
    for o in first:
        rt.emit(o)
    page = open_page(browser, f"{url}/play#token={TOKEN}")
    page.locator("#live[data-state='live']").wait_for(state="attached")
    page.locator(f"#options[data-seq='{rt.service.seq()}']").wait_for(state="attached")
    regions = {getattr(o, "region", None) or getattr(o, "zone", "") for o in first
               if not isinstance(o, MarkerCell)}
    until(lambda: settled(rt, regions), "the table after the take is settled")
    seq = rt.service.seq()

    # a figure tapped by mistake: who trains? The table may not have changed: "nothing
    # happened" closes the prompt and nothing is applied
    member = train["member"]
    rt.emit(TagTapped("pad:0", time.monotonic(), reader="0", uid="04A1B2C3", piece=member))
    prompt = page.locator(".sensing-prompt")
    prompt.wait_for(timeout=10_000)
    assert prompt.locator(".sensing-none").inner_text() == "None of these"
    nothing = prompt.locator(".sensing-nothing")
    assert nothing.inner_text() == "Nothing happened"
    for b in (nothing, prompt.locator(".sensing-none"), prompt.locator(".sensing-choice").first):
        assert b.bounding_box()["height"] >= 44  # a finger's size
    page.screenshot(path=str(shots / "play-sensing-prompt-tablet.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "play-sensing-prompt-phone.png"), full_page=True)
    page.set_viewport_size(TABLET)
    nothing.click()
    page.wait_for_function("() => !document.querySelector('.sensing-prompt')")
    assert rt.service.seq() == seq and not [
        m for m in rt.sensing.open_messages() if m[0] == "prompt"]

    # tapped again: "none of these" closes it and says what to do instead
    rt.emit(TagTapped("pad:0", time.monotonic(), reader="0", uid="04A1B2C3", piece=member))
    prompt.wait_for(timeout=10_000)
    prompt.locator(".sensing-none").click()
    page.wait_for_function("() => !document.querySelector('.sensing-prompt')")
    hint = page.locator(".sensing-hint")
    hint.wait_for(timeout=5_000)
    assert "put the board right" in hint.inner_text() and rt.service.seq() == seq

    # the figure onto the building, its good not yet there: "waiting for …", nothing applied
    trained = v.apply(st, {**train, "good": None})
    for o in whole_frame(trained, time.monotonic()):
        rt.emit(o)
    waiting = page.locator(".sensing-waiting")
    waiting.wait_for(timeout=10_000)
    assert "waiting for the good" in waiting.inner_text() and rt.service.seq() == seq
    page.screenshot(path=str(shots / "play-sensing-waiting-tablet.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(shots / "play-sensing-waiting-phone.png"), full_page=True)
    page.set_viewport_size(TABLET)
    # the good comes: the training is applied with it and the waiting line goes
    for o in whole_frame(v.apply(st, train), time.monotonic()):
        rt.emit(o)
    page.locator(".sensing-proposal").wait_for(timeout=10_000)
    page.wait_for_function("() => !document.querySelector('.sensing-waiting')")
    until(lambda: rt.service.seq() == seq + 1, "the training applied")
    last = rt.service.store.events(rt.service.current_game_id)[-1]
    assert last.payload["good"] == train["good"]
    assert page.js_errors == []
