"""A figure's tap made late, after the tap of the decision that follows it (the trainee
tapped 3.6 s after the figure that then dies): the reconciler waits for it before asking
or applying, so what it asks holds the truth (full matrix, fifteenth session: seed 7,
purposeful, pad, heavy, game 0, actions 105-106 and 108-109)."""

from __future__ import annotations

import random

import pytest

from companion import village as v
from companion.reconcile.observations import TagTapped
from companion.reconcile.reconciler import Prompt, Proposal, Reconciler
from companion.sim.link import equivalent
from companion.sim.memory_link import MemoryLink
from companion.sim.play_styles import random_truth


@pytest.fixture(scope="module")
def seed7() -> tuple[list[v.GameState], list[dict]]:
    header, truth = random_truth(3, random.Random(7), "purposeful")
    states = [v.start(header)]
    for a in truth[:110]:
        states.append(v.apply(states[-1], a))
    return states, truth


def _holds(st: v.GameState, cand: list[dict], truth: list[dict]) -> bool:
    for a, b in zip(cand, truth, strict=False):
        if not equivalent(st, a, b):
            return False
        st = v.apply(st, b)
    return True


@pytest.mark.parametrize(("at", "first", "then"), [
    (105, "yellow-1a", "yellow-2a"),  # trains Yellow 2a (tapped late), Yellow 1a dies
    (108, "blue-1b", "blue-2a"),  # Blue 2a travels (tapped late), Blue 1b dies
])
def test_a_late_tap_of_the_first_decision_is_waited_for(
        seed7: tuple[list[v.GameState], list[dict]], at: int, first: str, then: str) -> None:
    states, truth = seed7
    st = states[at]
    assert truth[at + 1]["type"] == "die" and truth[at + 1]["member"] == first
    assert truth[at].get("member") == then
    link = MemoryLink(st)
    rec = Reconciler(link)
    rec.observe(TagTapped("pad:0", 1.0, reader="0", uid="04AA", piece=first))
    out = []
    t = 0.9
    while t <= 12.0:
        if t == 4.6:  # the late tap comes in when it is made
            rec.observe(TagTapped("pad:0", 4.6, reader="0", uid="04AB", piece=then))
        out += rec.tick(t)
        t = round(t + 0.1, 6)
    said = [o for o in out if isinstance(o, Prompt | Proposal)]
    assert said, out
    for o in said:
        if isinstance(o, Proposal):
            assert equivalent(st, o.actions[0], truth[at])
        else:  # every prompt holds the truth (a first step standing for the whole path)
            paths = [c for c in o.candidates] + [
                [a.to_json() for a in p] for ps in o.stands_for for p in ps]
            assert any(_holds(st, c, truth[at:at + 2]) for c in paths), o.words


def _said(rec: Reconciler, taps: dict[float, str], end: float,
          tablet: tuple[float, list[dict]] | None = None) -> list[Prompt | Proposal]:
    """Tick ``rec`` from 0.9 s to ``end``, each tap observed when it is made (and the
    ``tablet``'s actions entered at their time); the prompts and proposals said."""
    out = []
    t = 0.9
    while t <= end:
        if t in taps:
            rec.observe(TagTapped("pad:0", t, reader="0", uid="04AA", piece=taps[t]))
        if tablet is not None and t == tablet[0]:
            for a in tablet[1]:
                rec.link.submit(a, "tablet", rec.link.seq(), [])
        out += rec.tick(t)
        t = round(t + 0.1, 6)
    return [o for o in out if isinstance(o, Prompt | Proposal)]


def _check(said: list[Prompt | Proposal], link: MemoryLink, st: v.GameState,
           truth: list[dict]) -> None:
    """Every proposal applied the truth; every prompt held it (from where it asked)."""
    assert said
    states, k = [st], 0
    for a in truth:
        states.append(v.apply(states[-1], a))
    for o in said:
        if isinstance(o, Proposal):
            k = o.start
            assert all(equivalent(states[k + i], a, truth[k + i])
                       for i, a in enumerate(o.actions)), o.words
        else:
            k = o.seq
            paths = [c for c in o.candidates] + [
                [a.to_json() for a in p] for ps in o.stands_for for p in ps]
            assert any(_holds(states[k], c, truth[k:]) for c in paths), o.words


def second_game_at(k: int) -> tuple[v.GameState, list[dict]]:
    """The second purposeful 3-player game of seed 7 (the bench's game 1) before its
    action ``k``, and its actions."""
    rng = random.Random(7)
    random_truth(3, rng, "purposeful")
    header, truth = random_truth(3, rng, "purposeful")
    st = v.start(header)
    for a in truth[:k]:
        st = v.apply(st, a)
    return st, truth


def test_a_second_tap_of_the_last_move_waits_for_the_next_decisions_tap() -> None:
    """Red 1b enters the council, tapped twice (0.6 s apart); Red 1c, tapped 2.4 s after,
    dies: the second tap of Red 1b is not asked as Red 1b's death before Red 1c's tap
    (seed 7, purposeful, pad, ordinary, game 1, actions 25-26)."""
    st, truth = second_game_at(25)
    assert truth[25]["type"] == "council_enter" and truth[25]["member"] == "red-1b"
    assert truth[26] == {"type": "die", "player": "red", "member": "red-1c"}
    link = MemoryLink(st)
    said = _said(Reconciler(link), {1.0: "red-1b", 1.6: "red-1b", 3.4: "red-1c"}, 12.0)
    _check(said, link, st, truth[25:27])


def test_a_tap_left_by_a_move_entered_on_the_tablet_waits_for_the_next_decisions_tap(
        ) -> None:
    """Blue 1a moves up the council (tapped), the move and its privilege entered on the
    tablet; Blue 1b, tapped 0.3 s after, dies: Blue 1a's tap is not asked as its death
    alone (seed 7, purposeful, pad, heavy, game 1, actions 72-74)."""
    st, truth = second_game_at(72)
    assert truth[72]["member"] == "blue-1a" and truth[73]["type"] == "privilege"
    assert truth[74] == {"type": "die", "player": "blue", "member": "blue-1b"}
    link = MemoryLink(st)
    rec = Reconciler(link)
    said = _said(rec, {1.0: "blue-1a", 3.3: "blue-1b"}, 12.0, tablet=(1.2, truth[72:74]))
    _check([o for o in said if o.seq >= 2], link, st, truth[72:75])
