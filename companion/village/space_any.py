"""Whether a space's action allows anything, without listing the options.

Entering a space whose action allows nothing ends the action at once, so every take and
well use asks this; listing every training, purchase and journey only to see whether the
list is empty cost a search's state about as much as the rest of its action. Each function
here answers ``bool(legal.space_options(st, c, space))`` exactly
(`tests/village/test_space_any.py` compares them on every state of seeded games).
"""

from __future__ import annotations

from . import flow
from .legal import BUY_FROM, FARM_ONLY, buy_need, council_level, privilege_options
from .payments import can_pay
from .state import GameState
from .vocabulary import Color, Cube, Good, member_ids


def _has(st: GameState, c: Color, zones: frozenset[str]) -> bool:
    members = st.members
    return any(members[m][0] in zones for m in member_ids(c))


def harvest_any(st: GameState, c: Color) -> bool:
    return _has(st, c, FARM_ONLY)


def family_any(st: GameState, c: Color) -> bool:
    return flow.youngest_unborn(st, c) is not None or _has(st, c, st.rules.recallable_zones)


def craft_any(st: GameState, c: Color) -> bool:
    player = st.p[c]
    if player.grain >= 2:  # the mill
        return True
    crafts = st.data.crafts.values()
    if _has(st, c, FARM_ONLY) and any(st.house.train_only or craft.goods for craft in crafts):
        return True
    trained = {st.members[m][1] for m in st.family(c, frozenset({"craft"}))}
    if any(st.data.crafts[b].goods for b in trained if b in st.data.crafts):
        return True
    for building in BUY_FROM.values():
        craft = st.data.crafts[building]
        if player.grain < craft.buy_grain:
            continue
        need = buy_need(craft.buy_cubes)
        if can_pay(player, need):
            return True
    return False


def travel_any(st: GameState, c: Color) -> bool:
    """Each journey paid has at least one reward choice (`legal.travel_gains`)."""
    player = st.p[c]
    if player.goods[Good.WAGON] < 1:
        return False
    if _has(st, c, FARM_ONLY) and any(
            can_pay(player, {colour: 2}) for _city, colour in st.data.start_paths):
        return True
    return any(can_pay(player, {colour: 2})
               for m in st.family(c, frozenset({"travel"}))
               for _city, colour in st.data.adjacency[st.members[m][1]])


def council_any(st: GameState, c: Color) -> bool:
    player = st.p[c]
    if can_pay(player, {Cube.GREEN: 2}) or player.goods[Good.SCROLL]:
        if _has(st, c, FARM_ONLY):
            return True
        if any(st.members[m][1] < 4 for m in st.family(c, frozenset({"council"}))):
            return True
    return bool(privilege_options(st, c, council_level(st, c)))


def church_any(st: GameState, c: Color) -> bool:
    """Three time units always pay the church: any figure on the farm can go."""
    return _has(st, c, FARM_ONLY)


def no_any(st: GameState, c: Color) -> bool:
    return False  # the market is a market day, never an "action" step


__all__ = [
    "church_any",
    "council_any",
    "craft_any",
    "family_any",
    "harvest_any",
    "no_any",
    "travel_any",
]
