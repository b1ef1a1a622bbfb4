"""A doubted region (read one misread off since the game last changed it) is *uncertain*:
it neither rules a path in nor out, and a path that changes it is asked, never applied on
its strength. The pattern of the wrong actions of branch s8-15 (seed 7, random play,
`heavy` noise): a space read one cube short since a take, the next take (of that colour,
from another space read back as it was) applied as a take from the doubted space, whose
old misread it made true."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reconcile_kit import run, takes_then_still_space
from test_misread_doubts import feed, frame

from companion import village as v
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def _short(st: v.GameState, region: str, colour: str) -> dict[str, int]:
    counts = dict(picture(st).cubes[region])
    counts[colour] -= 1
    return counts


def a_take_then_a_take_of_its_colour_elsewhere(
        also: Callable[[v.GameState, dict[str, Any], dict[str, Any]], bool] = lambda *_: True,
) -> tuple[v.GameState, list[dict[str, Any]], dict[str, Any], str, str]:
    """From a seeded game: a take of colour c from space S leaving a cube of c there, then
    (S unchanged meanwhile) a take of c from another space T by another player, for which
    ``also(state before it, it, the first take)`` holds. Returns (the state before the
    first take, the actions up to the second take, the second take, S, T)."""
    for states, i, take, here, j in takes_then_still_space(8):
        st_j, a = states[j]
        if (a["type"] == "take" and a["space"] != take["space"]
                and a["cube"] == take["cube"] and here.get(a["cube"], 0) > 0
                and a["player"] != take["player"] and also(st_j, a, take)):
            return (states[i][0], [b for _s, b in states[i:j]], a,
                    f"space:{take['space']}", f"space:{a['space']}")
    raise AssertionError("no such pair of takes in the seeded games")


def a_doubted_space(st: v.GameState, first: list[dict[str, Any]], s: str, colour: str
                    ) -> tuple[MemoryLink, Reconciler, v.GameState, list[Any]]:
    """The table of `a_take_then_a_take_of_its_colour_elsewhere`: ``first`` entered on the
    tablet, then the camera's first reading of S since the game changed it: one cube of
    ``colour`` short (a doubt). Returns the link, the reconciler, the state after ``first``
    and what the reconciler said while S settled."""
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    for a in first:  # entered on the tablet
        link.submit(a, "tablet", link.seq(), [])
    mid = link.state()
    feed(rec, frame(mid, 2.0, {s: _short(mid, s, colour)}))
    return link, rec, mid, run(rec, 2.0, 8.0)

def test_a_take_that_makes_a_doubted_reading_true_is_asked_not_applied() -> None:
    st, first, take, s, t_space = a_take_then_a_take_of_its_colour_elsewhere()
    colour = take["cube"]
    link, rec, mid, said = a_doubted_space(st, first, s, colour)
    assert not [o for o in said if isinstance(o, (Prompt, Discrepancy))]
    assert s in rec.doubted and len(link.submitted) == len(first)
    # the next take, of c from T: T read back as it was, S still one short (now true)
    end = v.apply(mid, take)
    feed(rec, frame(end, 9.0, {s: _short(mid, s, colour),
                               t_space: dict(picture(mid).cubes[t_space])}))
    out = run(rec, 9.0, 25.0)
    wrong = {**take, "space": s[len("space:"):]}
    applied = [a for a, *_ in link.submitted[len(first):]]
    assert wrong not in applied, "the doubted region's old misread taken as the move"
    assert not [o for o in out if isinstance(o, Proposal)]
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and wrong in [c[0] for c in asked[-1].candidates]


def test_the_prompt_holds_the_take_from_a_space_read_back_as_before() -> None:
    """The same table: the take of that colour from another space whose reading shows no
    change (read back as it was) is the truth here, and is among the candidates."""
    st, first, take, s, t_space = a_take_then_a_take_of_its_colour_elsewhere()
    colour = take["cube"]
    _link, rec, mid, _said = a_doubted_space(st, first, s, colour)
    end = v.apply(mid, take)
    feed(rec, frame(end, 9.0, {s: _short(mid, s, colour),
                               t_space: dict(picture(mid).cubes[t_space])}))
    asked = [o for o in run(rec, 9.0, 25.0) if isinstance(o, Prompt)]
    assert asked and take in [c[0] for c in asked[-1].candidates]

