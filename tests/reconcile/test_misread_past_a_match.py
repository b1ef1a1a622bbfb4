"""A move whose only change the camera misread, past a path that matches without it
(thirteenth session).

When no path explains the table, each camera region is left out in turn and the paths that
explain the rest, one misread from that region's reading, are the candidates
(`misreads._one_read_wrong`). The search extends no path that matches: a harvest changes
only the family's goods, so with the goods left out the table already matches the game
(the empty path) and the harvest after it was never tried. The goods read one item off
after a harvest (a horse missing, an ox too many) were raised as a discrepancy, the board
put right and the harvest entered on the tablet (seed 1, camera, three games: 4 of 13
discrepancies). The one-step continuations of a path that matches without the region are
now tried too, those that change that region to a value one misread from its reading,
where a hand came (a cube knocked off a space, no hand over it, stays a discrepancy:
`test_reconciler.py`); they are asked, never applied (a knocked cube under a hand reads
like a plague cube taken, one colour misread)."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.observations import ItemCounts
from companion.reconcile.reconciler import Discrepancy, Prompt
from companion.sim.memory_link import MemoryLink
from companion.village.picture import ITEM_ORDER, picture


def _a_harvest_that_brings_grain(situations: dict[str, Any],
                                 ) -> tuple[v.GameState, dict[str, Any]]:
    for st, a in situations["harvest"]:
        goods = f"goods:{a['player']}"
        if picture(v.apply(st, a)).items[goods] != picture(st).items[goods]:
            return st, a
    raise AssertionError("no harvest that brings grain in the situations")


def _play(situations: dict[str, Any], extra: tuple[str, ...]) -> tuple[
        MemoryLink, list[Any], dict[str, Any]]:
    """The harvest, its hand over the goods, the goods read with one more of each of
    ``extra``."""
    st, harvest = _a_harvest_that_brings_grain(situations)
    after = v.apply(st, harvest)
    goods = f"goods:{harvest['player']}"
    link, rec = watched(st)
    read = dict(picture(after).items[goods])
    for item in extra:
        read[item] += 1
    assert set(read) == set(ITEM_ORDER)
    frame = [ItemCounts("camera:0", 2.7, region=goods, counts=read)
             if isinstance(o, ItemCounts) and o.region == goods else o
             for o in product_frame(after, 2.7)]
    moved_under_hand(rec, st, after, frame, hands={goods})
    return link, run(rec, 2.0, 15.0), harvest


def test_a_harvest_whose_goods_are_read_one_item_off_is_asked(situations: dict) -> None:
    """The goods read with an ox that is not there, a hand over them: the harvest is the
    one path one misread away, asked (its one change was read wrong: nothing vouches for
    it) and applied once answered (before: a discrepancy, the empty path matching with the
    goods left out)."""
    link, out, harvest = _play(situations, ("ox",))
    assert not [o for o in out if isinstance(o, Discrepancy)], out
    assert link.submitted == []
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and [harvest] in asked[-1].candidates, out


def test_goods_read_two_items_off_stay_a_discrepancy(situations: dict) -> None:
    """The control: an ox and a wagon too many are two misreads: nothing applied, the
    difference said."""
    link, out, _harvest = _play(situations, ("ox", "wagon"))
    assert link.submitted == []
    assert [o for o in out if isinstance(o, Discrepancy)], out
