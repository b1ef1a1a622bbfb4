"""A camera reading one misread explains (a cube's colour taken for another, a count one
off) is held as doubted: the move is still applied from the other regions when nothing
else explains them, and no discrepancy asks the table to put the board right. A region
read right and then one off while the game did not change it (a knocked cube) is still a
discrepancy (test_reconciler.py)."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run

from companion import village as v
from companion.reconcile.misreads import one_misread
from companion.reconcile.observations import CubeCounts, Observation, ZoneSnapshot
from companion.reconcile.observed import ByColour
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


def frame(st: v.GameState, t: float, wrong: dict[str, dict[str, int]] | None = None,
          ) -> list[Observation]:
    """A camera frame of the action spaces, the supplies and the farms' figures, with
    ``wrong`` cube counts read in place of the true ones."""
    p = picture(st)
    wrong = wrong or {}
    out: list[Observation] = [
        CubeCounts("camera:0", t, region=r, counts=wrong.get(r, dict(c)))
        for r, c in p.cubes.items() if r.startswith(("space:", "supply:"))]
    out += [ZoneSnapshot("camera:0", t, zone=z, pieces=ms) for z, ms in p.pieces.items()
            if z.startswith(("farm:", "craft:", "council:", "church:", "chronicle:", "travel:"))]
    return out


def feed(rec: Reconciler, obs: list[Observation]) -> None:
    for o in obs:
        rec.observe(o)


def swapped(st: v.GameState, region: str) -> dict[str, int]:
    """``region``'s cubes with one of its colours read as another colour."""
    counts = dict(picture(st).cubes[region])
    have = next(c for c, n in counts.items() if n)
    other = next(c for c in counts if c != have)
    counts[have] -= 1
    counts[other] = counts.get(other, 0) + 1
    return counts


def a_take_leaving_cubes(situations: dict[str, Any]) -> tuple[v.GameState, dict[str, Any]]:
    """A take after which its space still holds a cube (one to misread)."""
    for st, take in situations["take"]:
        after = v.apply(st, take)
        if any(picture(after).cubes[f"space:{take['space']}"].values()):
            return st, take
    raise AssertionError("no such take in the situations")


def test_one_misread_is_a_cell_a_count_a_swap_or_a_figure() -> None:
    assert one_misread(3, 4) and one_misread(3, 2) and not one_misread(3, 5)
    assert one_misread((2, 0, 1, 0, 0), (1, 1, 1, 0, 0))  # a brown read as pink
    assert one_misread((2, 0, 1, 0, 0), (2, 0, 0, 0, 0))  # an orange missed
    assert not one_misread((2, 0, 1, 0, 0), (0, 1, 2, 0, 0))
    assert one_misread(("red-1", "red-2"), ByColour({"red": 1}))
    assert not one_misread(("red-1",), ByColour({"blue": 1}))


def test_a_take_whose_space_is_misread_is_applied_and_no_discrepancy_is_raised(
        situations: dict) -> None:
    st, take = a_take_leaving_cubes(situations)
    after = v.apply(st, take)
    space = f"space:{take['space']}"
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    assert run(rec, 0.0, 1.0) == []
    # the supply shows the cube taken; the space is read with a colour swapped
    feed(rec, frame(after, 2.0, {space: swapped(after, space)}))
    out = run(rec, 2.0, 12.0)
    assert not [o for o in out if isinstance(o, (Discrepancy, Prompt))]
    assert [type(o) for o in out] == [Proposal]
    assert [a for a, *_ in link.submitted] == [take]
    assert space in rec.doubted  # held as a misread while the camera reads it so


def test_a_misread_region_read_right_at_the_next_move_is_no_longer_doubted(
        situations: dict) -> None:
    st, take = a_take_leaving_cubes(situations)
    after = v.apply(st, take)
    space = f"space:{take['space']}"
    link = MemoryLink(st)
    rec = Reconciler(link)
    feed(rec, frame(st, 0.0))
    run(rec, 0.0, 1.0)
    feed(rec, frame(after, 2.0, {space: swapped(after, space)}))
    run(rec, 2.0, 8.0)
    assert space in rec.doubted
    feed(rec, frame(after, 9.0))  # the hand moved, the camera reads it right
    assert run(rec, 9.0, 14.0) == [] and rec.doubted == {}
    # read one off now, while the game did not change it: a cube knocked off
    counts = dict(picture(after).cubes[space])
    colour = next(c for c, n in counts.items() if n)
    counts[colour] -= 1
    rec.observe(CubeCounts("camera:0", 15.0, region=space, counts=counts))
    out = run(rec, 15.0, 20.0)
    assert [type(o) for o in out] == [Discrepancy] and len(link.submitted) == 1
