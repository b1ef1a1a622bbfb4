"""A well use whose only trace is a region read one misread off is still seen (issue 15,
thirteenth session).

A well use (three cubes of a colour back, another space's action taken) is a step no
sensor sees when it changes no region observed (`doubts.PathDoubts._last_unseen`): then
it is asked ("Is this what happened? Red puts 3 green cubes back at the well…"). When no
path explains the table, a camera region is left out in turn (`_one_read_wrong`): the
player's supply, read with one more cube gone than the well put back, was left out, and
with it the only trace of the well, so a well plainly seen (three cubes fewer) was asked
about. The bench's trace (seed 1, hub+camera, purposeful, ordinary: six such prompts in
three games, e.g. game 3 action 343, Blue's well to Harvest, the supply read one pink cube
short). A region left out is now a trace of a step that changes it when its reading is
neither the value before that step nor one misread from it.
"""

from __future__ import annotations

from typing import Any

from reconcile_kit import game_states, run
from test_hand_vouches import _changed
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.observations import CubeCounts, Observation
from companion.reconcile.reconciler import Discrepancy, Prompt
from companion.sim.memory_link import MemoryLink
from companion.village.picture import CUBE_ORDER, picture

_COLOURS = [c.value for c in CUBE_ORDER]


def _a_well_to_harvest() -> tuple[v.GameState, list[dict[str, Any]], str]:
    """A well use taking the Harvest action, the harvest after it (it changes a camera
    region besides the supply), and a colour the supply holds after both that the well
    did not put back."""
    for st, _a in game_states(1):
        for well in v.legal_actions(st):
            if well.type != "well" or str(getattr(well, "space", "")) not in (
                    "harvest", "Space.HARVEST"):
                continue
            path = [well.to_json(), {"type": "harvest", "player": well.to_json()["player"]}]
            try:
                after = v.apply(v.apply(st, path[0]), path[1])
            except v.RulesError:
                continue
            supply = f"supply:{path[0]['player']}"
            if not _changed(st, after) - {supply}:
                continue
            left = picture(after).cubes[supply]
            spare = [c for c in _COLOURS if left.get(c, 0) and c != path[0]["color"]]
            if spare:
                return st, path, spare[0]
    raise AssertionError("no well to Harvest in the game")


def _missed(frame: list[Observation], region: str, colour: str) -> list[Observation]:
    """``frame`` with one cube of ``colour`` of ``region`` not seen."""
    out: list[Observation] = []
    for o in frame:
        if isinstance(o, CubeCounts) and o.region == region:
            counts = dict(o.counts)
            counts[colour] -= 1
            o = CubeCounts(o.source, o.t, region=region, counts=counts)
        out.append(o)
    return out


def _play(frame_of: Any) -> tuple[list[dict[str, Any]], MemoryLink, list[Any]]:
    st, path, colour = _a_well_to_harvest()
    after = v.apply(v.apply(st, path[0]), path[1])
    supply = f"supply:{path[0]['player']}"
    link, rec = watched(st)
    moved_under_hand(rec, st, after, frame_of(product_frame(after, 2.7), supply, colour))
    return path, link, run(rec, 2.0, 15.0)


def test_a_well_whose_supply_is_read_one_cube_short_is_applied() -> None:
    """The well and the harvest, the supply read one cube short of the three put back:
    both applied (before: « Is this what happened? … puts 3 … cubes back at the well »)."""
    path, link, out = _play(_missed)
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert [a for a, *_ in link.submitted] == path, [p.question for p in prompts]
    assert not prompts and not [o for o in out if isinstance(o, Discrepancy)], out

