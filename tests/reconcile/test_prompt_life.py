"""A prompt's life on the play page: a prompt replaced by another is closed first (the page
adds a card per prompt and removes one per `Closed`), and a move entered on the tablet
while a prompt is open about it closes that prompt at the next look, whatever the look
then waits for (issue 15, eleventh session)."""

from __future__ import annotations

from typing import Any

import pytest
from reconcile_kit import game_states, run
from test_reconciler import camera, feed

from companion import village as v
from companion.reconcile.reconciler import Closed, Prompt, Reconciler
from companion.sim.memory_link import MemoryLink


def _well_skip_take() -> list[tuple[v.GameState, list[dict[str, Any]]]]:
    """(state before, [well, skip, take by the next player]) from seeded random games."""
    found = []
    for seed in range(1, 12):
        states = game_states(seed)
        for k in range(len(states) - 2):
            (st, a), (_s1, b), (_s2, c) = states[k], states[k + 1], states[k + 2]
            if (a["type"], b["type"], c["type"]) == ("well", "skip", "take") and (
                    c["player"] != a["player"]):
                found.append((st, [a, b, c]))
    return found


def _asked_about_the_well() -> tuple[Reconciler, MemoryLink, v.GameState, list[Any], Prompt]:
    """A reconciler that asks which space a well was used for (the next step, a skip,
    shows nothing)."""
    for st, steps in _well_skip_take():
        link = MemoryLink(st)
        rec = Reconciler(link)
        feed(rec, camera(st, 0.0))
        run(rec, 0.0, 1.0)
        feed(rec, camera(v.apply(st, steps[0]), 1.1))
        out = run(rec, 1.1, 6.0)
        prompts = [o for o in out if isinstance(o, Prompt)]
        if prompts and [steps[0]] in prompts[-1].candidates and not link.submitted:
            return rec, link, st, steps, prompts[-1]
    pytest.fail("no well asked about in the seeded games")


def _open_ids(outcomes: list[Any], start: set[int]) -> list[set[int]]:
    """The prompts open after each outcome, as the page would show them."""
    shown, seen = set(start), []
    for o in outcomes:
        if isinstance(o, Prompt):
            shown.add(o.id)
        elif isinstance(o, Closed):
            shown.discard(o.id)
        seen.append(set(shown))
    return seen


def test_a_prompt_replaced_by_another_is_closed_first() -> None:
    rec, _link, st, (well, skip, take), first = _asked_about_the_well()
    after = v.apply(v.apply(v.apply(st, well), skip), take)
    feed(rec, camera(after, 6.1))
    out = run(rec, 6.1, 14.0)
    new = [o for o in out if isinstance(o, Prompt) and o.id != first.id]
    assert new, "the next player's take asks again (the skip is unseen)"
    assert all(len(shown) <= 1 for shown in _open_ids(out, {first.id})), (
        "two prompts open at once on the page")


def test_a_move_entered_on_the_tablet_closes_its_prompt_at_the_next_look() -> None:
    rec, link, st, (well, skip, take), first = _asked_about_the_well()
    after = v.apply(v.apply(v.apply(st, well), skip), take)
    feed(rec, camera(after, 6.1))
    link.submit(well, "tablet", 0, [])  # entered on the tablet, the prompt still open
    out = run(rec, 6.1, 7.0)  # the table settles: the skip and take wait for stillness
    assert Closed(first.id, "entered on the tablet") in out
    assert rec.prompt is None or rec.prompt.seq == link.seq()
    assert all(len(shown) <= 1 for shown in _open_ids(out, {first.id}))
