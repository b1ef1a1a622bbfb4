"""Two patterns of the wrong actions of seed 8, `heavy` noise, purposeful play, hub+camera
(ninth session): two misreads in one move (action 237), and a doubt that came true while a
shadow misread a space no hand touched (action 352). Both must be asked, never applied, and
the prompt must hold the truth itself (in these hand-made tables a two-move path happens to
be a rival and is asked too; in the bench's tables there was none, and the single
explanation was applied)."""

from __future__ import annotations

from typing import Any

from reconcile_kit import game_states, run
from test_misread_doubts import feed, frame
from test_misread_uncertain import _short, a_doubted_space
from test_misread_uncertain import (
    a_take_then_a_take_of_its_colour_elsewhere as take_then_take_elsewhere,
)

from companion import village as v
from companion.reconcile.reconciler import Prompt, Proposal, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def _ends_turn(st: v.GameState, take: dict[str, Any]) -> bool:
    """True when ``take`` is legal in ``st`` and its player does not act next (no next
    step to wait for: the take is the whole move, as in the bench's wrong actions)."""
    if not v.is_legal(st, st.rules.forms.parse(take)):
        return False
    return bool(v.pending(v.apply(st, take)).player != take["player"])


def a_take_with_another_space_of_its_colour() -> tuple[
        v.GameState, dict[str, Any], dict[str, Any]]:
    """From a seeded game: a take of colour c from space X ending its player's turn, where
    another space M holds c and the same take from M is legal and ends the turn too.
    Returns (state, the take, the take from M)."""
    for seed in range(1, 9):
        for st, take in game_states(seed):
            if take["type"] != "take" or not _ends_turn(st, take):
                continue
            cubes = picture(st).cubes
            for r, counts in cubes.items():
                if (r.startswith("space:") and r != f"space:{take['space']}"
                        and counts.get(take["cube"], 0) > 0):
                    other = {**take, "space": r[len("space:"):]}
                    if _ends_turn(st, other):
                        return st, take, other
    raise AssertionError("no such take in the seeded games")


def a_take_then_a_take_of_its_colour_elsewhere() -> tuple[
        v.GameState, list[dict[str, Any]], dict[str, Any], str, str]:
    """As `test_misread_uncertain`'s, with both takes ending the turn: the second, and the
    same take from the first one's space, which could have replaced it."""
    return take_then_take_elsewhere(lambda st_j, a, take: _ends_turn(st_j, a) and _ends_turn(
        st_j, {**a, "space": take["space"]}))


def test_a_move_read_with_two_misreads_is_asked_not_applied() -> None:
    """Action 237: the space taken from read with a cube of another colour in place of the
    one taken, another space of that colour (untouched) read one short. Left out in turn,
    the first leaves a take from the second one misread away; the truth needs two."""
    st, take, wrong = a_take_with_another_space_of_its_colour()
    colour = take["cube"]
    x, m = f"space:{take['space']}", f"space:{wrong['space']}"
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    end = v.apply(st, take)
    there = dict(picture(end).cubes[x])
    other = next(c for c in there if c != colour)
    there[other] += 1  # a cube of another colour read where the taken one stood
    feed(rec, frame(end, 2.0, {x: there, m: _short(st, m, colour)}))
    out = run(rec, 2.0, 20.0)
    applied = [a for a, *_ in link.submitted]
    assert wrong not in applied, "the one-misread explanation applied; the truth needs two"
    assert not [o for o in out if isinstance(o, Proposal)]
    asked = [o for o in out if isinstance(o, Prompt)]
    # the truth itself, not a longer path beginning with it
    assert asked and [take] in [list(c) for c in asked[-1].candidates]


def test_a_doubt_come_true_beside_a_shadow_is_asked_not_applied() -> None:
    """Action 352: space S doubted (read one c short since a take), then a take of c from S
    makes it true while another space T of c, untouched, is read one c short (a shadow):
    the take from T explains the table alone, the truth changes the doubted S."""
    st, first, later, s, t_space = a_take_then_a_take_of_its_colour_elsewhere()
    colour = later["cube"]
    link, rec, mid, _said = a_doubted_space(st, first, s, colour)
    assert s in rec.doubted
    truth = {**later, "space": s[len("space:"):]}
    end = v.apply(mid, truth)
    feed(rec, frame(end, 9.0, {t_space: _short(mid, t_space, colour)}))
    out = run(rec, 9.0, 25.0)
    applied = [a for a, *_ in link.submitted[len(first):]]
    assert later not in applied, "the shadowed space's take applied; the doubt came true"
    assert not [o for o in out if isinstance(o, Proposal)]
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and [truth] in [list(c) for c in asked[-1].candidates]
