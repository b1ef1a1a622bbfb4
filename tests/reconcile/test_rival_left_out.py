"""A rival of a move found with one region left out must be near that region's reading too
(issue 15, thirteenth session).

When nothing explains the table, each camera region is left out in turn and a path that
explains the rest, one misread off there, is the candidate (`misreads._one_read_wrong`). Its
misread rivals were then sought on the reading *without* that region, so a rival one
misread off elsewhere counted as one, however far it stood from the region left out: it
needed three misreads where the candidate needs one. The bench's trace (seed 1, game 1,
hub+camera, purposeful, ordinary, action 145): Blue takes a green cube from the market, the
camera reads Blue's supply with a pink cube taken for an orange one; the take found with
the supply left out was asked beside « Blue takes a pink cube from the market », whose
supply is four cubes off the reading. A rival must be equal, or one misread off, on the
regions left out as well (the rule for two misreads, `_two_misreads_rivals`, stands).
"""

from __future__ import annotations

from typing import Any

from reconcile_kit import game_states, run
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.observations import CubeCounts, Observation
from companion.reconcile.reconciler import Discrepancy, Prompt
from companion.village.picture import CUBE_ORDER, picture

_COLOURS = [c.value for c in CUBE_ORDER]


def _a_take_beside_another_colour() -> tuple[v.GameState, dict[str, Any], str, str]:
    """A take of one colour from a space that holds another colour too, and two colours
    of the player's supply after it (neither taken nor left on the space): the one read
    as the other. From seeded random games."""
    takes = [(st, a) for st, a in game_states(1) if a["type"] == "take"]
    for st, take in takes:
        space = picture(st).cubes[f"space:{take['space']}"]
        others = [c for c, n in space.items() if n and c != take["cube"]]
        if not others:
            continue
        after = picture(v.apply(st, take)).cubes[f"supply:{take['player']}"]
        spare = {take["cube"], *others}
        have = [c for c in _COLOURS if after.get(c, 0) and c not in spare]
        free = [c for c in _COLOURS if c not in spare]
        if have and len(free) > 1:
            was = have[0]
            read_as = next(c for c in free if c != was)
            return st, take, was, read_as
    raise AssertionError("no such take in the game")


def _swapped(frame: list[Observation], region: str, was: str, read_as: str,
             ) -> list[Observation]:
    """``frame`` with one cube of ``region`` of colour ``was`` read as ``read_as``."""
    out: list[Observation] = []
    for o in frame:
        if isinstance(o, CubeCounts) and o.region == region:
            counts = dict(o.counts)
            counts[was] -= 1
            counts[read_as] = counts.get(read_as, 0) + 1
            o = CubeCounts(o.source, o.t, region=region, counts=counts)
        out.append(o)
    return out


def test_a_take_whose_supply_is_misread_is_not_asked_with_a_take_three_misreads_away() -> None:
    """The take, its supply read with one cube's colour swapped, hands over both: applied
    (before: asked beside the other colour's take from the same space)."""
    st, take, was, read_as = _a_take_beside_another_colour()
    after = v.apply(st, take)
    space, supply = f"space:{take['space']}", f"supply:{take['player']}"
    link, rec = watched(st)
    moved_under_hand(rec, st, after, _swapped(product_frame(after, 2.7), supply, was, read_as),
                     hands={space, supply})
    out = run(rec, 2.0, 15.0)
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert [a for a, *_ in link.submitted] == [take], [p.candidates for p in prompts]
    assert not prompts and not [o for o in out if isinstance(o, Discrepancy)], out


def test_a_rival_one_misread_off_on_the_region_left_out_is_still_asked() -> None:
    """The control: the supply read with the taken cube's colour swapped for the other
    colour on the space (one misread from either take): both takes asked, none applied."""
    st, take, _was, _read_as = _a_take_beside_another_colour()
    space = picture(st).cubes[f"space:{take['space']}"]
    other = next(c for c, n in space.items() if n and c != take["cube"])
    after = v.apply(st, take)
    supply = f"supply:{take['player']}"
    link, rec = watched(st)
    moved_under_hand(rec, st, after, _swapped(product_frame(after, 2.7), supply, take["cube"],
                                              other),
                     hands={f"space:{take['space']}", supply})
    out = run(rec, 2.0, 15.0)
    assert link.submitted == [], [a for a, *_ in link.submitted]
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert prompts, out
    cubes = {a.get("cube") for c in prompts[-1].candidates for a in c if a["type"] == "take"}
    assert {take["cube"], other} <= cubes, prompts[-1].candidates
