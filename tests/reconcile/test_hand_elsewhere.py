"""The wrong action of seed 5, `heavy` noise, purposeful play, camera (eighth and ninth
sessions, action 396): Red took an orange cube from the crafts space, the camera read the
crafts space as unchanged (a misread) and, a moment later, the church (untouched) one
orange short (a shadow). « Red takes orange from the church » explained every reading with
no misread and was applied; the truth needs two. What tells them apart is where the hand
went: over the crafts space and Red's supply, never near the church. A path changing a
camera region no hand came near, while a hand was seen elsewhere during the move, waits
out transients and is then asked, never applied."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run
from test_misread_doubts import feed, frame
from test_misread_twice import a_take_with_another_space_of_its_colour
from test_misread_uncertain import _short

from companion import village as v
from companion.reconcile.observations import Occluded
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def _hand(t: float, regions: set[str], lasts: float = 0.6) -> list[Occluded]:
    return [Occluded("camera:0", t, regions=frozenset(regions)),
            Occluded("camera:0", t + lasts)]


def _setup() -> tuple[v.GameState, dict[str, Any], dict[str, Any], str, str, str]:
    st, take, wrong = a_take_with_another_space_of_its_colour()
    return (st, take, wrong, f"space:{take['space']}", f"space:{wrong['space']}",
            f"supply:{take['player']}")


def test_a_take_read_elsewhere_by_a_shadow_is_not_applied() -> None:
    """The take's space read as it was (a misread that stays), another space of its
    colour, untouched, read one short for a second (a shadow): the take from that space
    explains every reading, but the hand was over the other space."""
    st, take, wrong, x, m, supply = _setup()
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    end = v.apply(st, take)
    misread = {x: dict(picture(st).cubes[x])}  # the take's space read as it was
    for o in sorted(_hand(2.0, {x, supply}), key=lambda o: o.t):
        rec.observe(o)
    feed(rec, frame(end, 2.7, misread))
    out = run(rec, 2.0, 3.9)
    feed(rec, frame(end, 4.0, {**misread, m: _short(st, m, take["cube"])}))  # the shadow
    out += run(rec, 4.0, 5.4)
    feed(rec, frame(end, 5.5, misread))  # gone
    out += run(rec, 5.5, 20.0)
    applied = [a for a, *_ in link.submitted]
    assert wrong not in applied, "the shadowed space's take applied; the hand was elsewhere"
    assert not [o for o in out if isinstance(o, Proposal)]
    # said: a prompt holding the truth, or a discrepancy (the board put right)
    assert [o for o in out if isinstance(o, (Prompt, Discrepancy))]


def test_the_same_take_seen_where_the_hand_went_is_applied() -> None:
    """The control: the take read right where the hand went is applied as before."""
    st, take, _wrong, x, _m, supply = _setup()
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    for o in _hand(2.0, {x, supply}):
        rec.observe(o)
    feed(rec, frame(v.apply(st, take), 2.7))
    run(rec, 2.0, 12.0)
    assert [a for a, *_ in link.submitted] == [take]


def test_a_change_where_no_hand_came_is_asked_once_it_stays() -> None:
    """A take from the space no hand came near, read so for good while the hand was seen
    over the other space only: asked (with the truth among the candidates), never
    applied."""
    st, _take, wrong, x, _m, supply = _setup()
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    for o in _hand(2.0, {x, supply}):
        rec.observe(o)
    feed(rec, frame(v.apply(st, wrong), 2.7))
    out = run(rec, 2.0, 20.0)
    assert not link.submitted
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and [wrong] in [list(c) for c in asked[-1].candidates]
