"""A region a hand was over, read as before (twelfth session).

When no path explains the table, each camera region read changed is left out in turn and
the paths that explain the rest, one misread away there, are the candidates
(`misreads._one_read_wrong`). A region the move changed but the camera misread back to
its old value looks unchanged, so it was never left out: a take whose space was still
read with the cube taken (seed 1, camera, three games: six discrepancies, each a touch
and the next moves entered on the tablet). A region read as before is now left out too
when a hand was over it since the last commit (the camera saw a hand there: the move may
have changed it); with no hand over it, nothing there changed and it is not."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame

from companion import village as v
from companion.reconcile.reconciler import Discrepancy, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def _a_take_from_a_space_of_one_colour(situations: dict[str, Any],
                                       ) -> tuple[v.GameState, dict[str, Any]]:
    """A take from a space whose cubes are all of the colour taken (no other colour
    there to take instead)."""
    for st, take in situations["take"]:
        cubes = picture(st).cubes[f"space:{take['space']}"]
        if all(n == 0 for c, n in cubes.items() if c != take["cube"]):
            return st, take
    raise AssertionError("no such take in the situations")


def _play(situations: dict[str, Any], hand_over_space: bool,
          ) -> tuple[MemoryLink, list[Any], dict[str, Any]]:
    st, take = _a_take_from_a_space_of_one_colour(situations)
    after = v.apply(st, take)
    space, supply = f"space:{take['space']}", f"supply:{take['player']}"
    link = MemoryLink(st)
    rec = Reconciler(link)
    for o in product_frame(st, 0.0):
        rec.observe(o)
    assert run(rec, 0.0, 1.0) == []
    for o in _hand(2.0, {space, supply} if hand_over_space else {supply}):
        rec.observe(o)
    for o in product_frame(after, 2.7, as_before=st, region=space):  # the cube still read
        rec.observe(o)
    return link, run(rec, 2.0, 15.0), take


def test_a_take_whose_space_is_read_as_before_under_the_hand_is_applied(
        situations: dict) -> None:
    """The space read with the cube still there, a hand seen over it and the supply: the
    take is applied (before: a discrepancy)."""
    link, out, take = _play(situations, True)
    assert [a for a, *_ in link.submitted] == [take], out
    assert not [o for o in out if isinstance(o, Discrepancy)]


def test_a_space_read_as_before_with_no_hand_over_it_is_not_taken_for_a_misread(
        situations: dict) -> None:
    """The control: no hand seen over the space (only over the supply): nothing there
    changed as far as the camera saw; nothing is applied, and the difference is said."""
    link, out, _take = _play(situations, False)
    assert link.submitted == []
    assert [o for o in out if isinstance(o, Discrepancy)], out
