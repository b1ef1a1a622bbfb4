"""Legality as a query: the options of the pending decision, exactly.

Members that the rules cannot tell apart (same colour, generation and place) appear once,
under the lowest id; ``apply`` accepts any member of such a group.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations_with_replacement

from . import deaths, flow
from .actions import (
    Action,
    Birth,
    Buy,
    Buyout,
    Church,
    ChurchMove,
    CouncilAdvance,
    CouncilEnter,
    Die,
    Done,
    FreeAction,
    Harvest,
    Mill,
    Pass,
    Pay,
    Privilege,
    Produce,
    Recall,
    Serve,
    Skip,
    TakeCube,
    Train,
    Travel,
    UseWell,
)
from .payments import cube_options, gain_options
from .state import GameState
from .vocabulary import INFLUENCE, Building, Color, Cube, Good, MemberId, Space, member_generation

FARM_ONLY = frozenset({"farm"})
BUY_FROM = {
    Good.WAGON: Building.WAINWRIGHT,
    Good.HORSE: Building.STABLES,
    Good.OX: Building.STABLES,
    Good.SCROLL: Building.OFFICE,
    Good.PLOUGH: Building.SMITHY,
}


def legal_actions(st: GameState) -> list[Action]:
    """The options of the pending decision; empty at a chance point or once the game is over."""
    return st.rules.phases[st.phase].options(st)


def no_options(st: GameState) -> list[Action]:
    """A chance point or the end: nobody decides."""
    return []


def action_options(st: GameState) -> list[Action]:
    assert st.act_space is not None
    return [*space_options(st, st.current_color, st.act_space), Skip(st.current_color)]


def privilege_step_options(st: GameState) -> list[Action]:
    c = st.current_color
    return [*privilege_options(st, c, st.privilege_max), Skip(c)]


def death_options(st: GameState) -> list[Action]:
    assert st.death_player is not None
    c = st.death_player
    return [Die(c, m) for m in deaths.representatives(st, deaths.death_candidates(st, c))]


def buyout_step_options(st: GameState) -> list[Action]:
    return buyout_options(st, st.mass_order[0])


def move_options(st: GameState) -> list[Action]:
    c = st.mass_order[0]
    reps = deaths.representatives(st, flow.church_moves(st, c))
    return [*(ChurchMove(c, m) for m in reps), Done(c)]


def turn_options(st: GameState) -> list[Action]:
    c = st.current_color
    out: list[Action] = []
    empty = st.board_empty()
    if empty:
        if st.final_queue is not None:
            out.extend(FreeAction(c, s) for s in Space)
        return out
    for space, cubes in st.spaces.items():
        for cube, n in cubes.items():
            if n:
                out.append(TakeCube(c, space, cube))
    for colour in INFLUENCE:
        if st.p[c].cubes[colour] >= 3:
            out.extend(UseWell(c, colour, s) for s in Space)
        # HOUSE RULE well_coins: coins may stand in for some of the 3 cubes.
        if st.house.well_coins:
            for pay in cube_options(st.p[c], {colour: 3}):
                if dict(pay).get("coin"):
                    out.extend(UseWell(c, colour, s, pay) for s in Space)
    return out


def buy_need(cubes: Iterable[Cube]) -> dict[Cube, int]:
    """The cubes a purchase asks for, counted by colour (a craft's ``buy_cubes``)."""
    need: dict[Cube, int] = {}
    for cube in cubes:
        need[cube] = need.get(cube, 0) + 1
    return need


def space_options(st: GameState, c: Color, space: Space) -> list[Action]:
    """What the action of ``space`` allows ``c`` now (without the skip)."""
    return st.rules.space_options[space](st, c)


def harvest_options(st: GameState, c: Color) -> list[Action]:
    return [Harvest(c)] if st.family(c, FARM_ONLY) else []


def no_space_options(st: GameState, c: Color) -> list[Action]:
    return []  # the market is a market day, never an "action" step


def farm_reps(st: GameState, c: Color) -> list[MemberId]:
    return deaths.representatives(st, st.family(c, FARM_ONLY))


def family_options(st: GameState, c: Color) -> list[Action]:
    out: list[Action] = []
    if flow.youngest_unborn(st, c) is not None:
        out.append(Birth(c))
    out.extend(
        Recall(c, m) for m in deaths.representatives(st, st.family(c, st.rules.recallable_zones))
    )
    return out


def craft_options(st: GameState, c: Color) -> list[Action]:
    out: list[Action] = []
    player = st.p[c]
    farm = farm_reps(st, c)
    trained = {st.members[m][1] for m in st.family(c, frozenset({"craft"}))}
    for building, craft in st.data.crafts.items():
        for m in farm:
            # HOUSE RULE train_only: training without producing at once is allowed.
            if st.house.train_only:
                out.append(Train(c, building, m, None))
            out.extend(Train(c, building, m, g) for g in craft.goods)
        if building in trained:
            out.extend(Produce(c, building, g) for g in craft.goods)
    for good, building in BUY_FROM.items():
        craft = st.data.crafts[building]
        if player.grain < craft.buy_grain:
            continue
        need = buy_need(craft.buy_cubes)
        out.extend(Buy(c, good, pay) for pay in cube_options(player, need))
    if player.grain >= 2:
        out.append(Mill(c))
    return out


def travel_gains(st: GameState, c: Color, city: str, pay: Pay) -> list[tuple[Cube, ...]]:
    """The reward choices on reaching ``city`` after paying ``pay``."""
    player = st.p[c]
    if city in player.cities or len(player.cities) >= st.data.travel_markers:
        return [()]
    if st.data.city_rewards[city] != "cubes":
        return [()]
    supply = dict(st.supply)
    for res, n in pay:
        if res in {cu.value for cu in INFLUENCE}:
            supply[Cube(res)] += n
    return gain_options(supply, 2)


def travel_options(st: GameState, c: Color) -> list[Action]:
    player = st.p[c]
    if player.goods[Good.WAGON] < 1:
        return []
    out: list[Action] = []
    moves: list[tuple[MemberId, str, Cube]] = []
    for m in farm_reps(st, c):
        moves.extend((m, city, colour) for city, colour in st.data.start_paths)
    for m in deaths.representatives(st, st.family(c, frozenset({"travel"}))):
        here = st.members[m][1]
        moves.extend((m, city, colour) for city, colour in st.data.adjacency[here])
    for m, city, colour in moves:
        for pay in cube_options(player, {colour: 2}):
            out.extend(Travel(c, m, city, pay, gain) for gain in travel_gains(st, c, city, pay))
    return out


def council_pay_options(st: GameState, c: Color) -> list[Pay]:
    player = st.p[c]
    pays = cube_options(player, {Cube.GREEN: 2})
    if player.goods[Good.SCROLL]:
        pays.append((("scroll", 1),))
    return pays


def council_level(st: GameState, c: Color) -> int:
    """The highest council level a member of ``c`` stands on (0 = none)."""
    return max((st.members[m][1] for m in st.family(c, frozenset({"council"}))), default=0)


def council_options(st: GameState, c: Color) -> list[Action]:
    out: list[Action] = []
    pays = council_pay_options(st, c)
    if pays:
        for m in farm_reps(st, c):
            out.extend(CouncilEnter(c, m, pay) for pay in pays)
        for m in deaths.representatives(st, st.family(c, frozenset({"council"}))):
            if st.members[m][1] < 4:
                out.extend(CouncilAdvance(c, m, pay) for pay in pays)
    out.extend(privilege_options(st, c, council_level(st, c)))
    return out


def privilege_options(st: GameState, c: Color, top: int) -> list[Action]:
    """Privileges of level ``top`` or lower that would do something (seed 000 « Vue
    d'ensemble des privilèges »)."""
    out: list[Action] = []
    if top >= 1 and st.next_first is None:
        out.append(Privilege(c, 1, ()))
    if top >= 2:
        out.extend(
            Privilege(c, 2, tuple(g.value for g in gain))
            for gain in gain_options(st.supply, 2)
            if gain
        )
    if top >= 3:
        out.extend(Privilege(c, 3, (g.value,)) for g in sorted(Good, key=lambda g: g.value))
    if top >= 4 and st.p[c].coins >= 1:
        out.append(Privilege(c, 4, ()))
    return out


def church_options(st: GameState, c: Color) -> list[Action]:
    pays = [*cube_options(st.p[c], {Cube.BROWN: 1}), (("time", 3),)]
    return [Church(c, m, pay) for m in farm_reps(st, c) for pay in pays]


def market_options(st: GameState) -> list[Action]:
    assert st.day is not None
    c = st.day.turn
    out: list[Action] = []
    pays: list[Pay] = (
        [()] if flow.serve_cost_free(st, c) else cube_options(st.p[c], {Cube.GREEN: 1})
    )
    for slot in flow.stall_customers(st):
        if flow.can_serve(st, c, slot):
            out.extend(Serve(c, slot, pay) for pay in pays)
    for sales in st.rules.market_sales:
        out.extend(sales(st, c))
    out.append(Pass(c))
    return out


def buyout_options(st: GameState, c: Color) -> list[Action]:
    """Every choice of own members to buy out of the black bag, 1 coin each, while fewer
    than 4 figures are out (seed 000 « Messe » 1); the empty choice passes."""
    bag = flow.in_bag(st, c)
    room = min(4 - st.mass_out, st.p[c].coins, len(bag))
    by_gen: dict[int, list[MemberId]] = {}
    for m in sorted(bag):
        by_gen.setdefault(member_generation(m), []).append(m)
    out: list[Action] = [Buyout(c, ())]
    gens = sorted(by_gen)
    seen: set[tuple[MemberId, ...]] = set()
    for k in range(1, room + 1):
        for combo in combinations_with_replacement(gens, k):
            if any(combo.count(g) > len(by_gen[g]) for g in set(combo)):
                continue
            members = tuple(sorted(m for g in set(combo) for m in by_gen[g][: combo.count(g)]))
            if members not in seen:
                seen.add(members)
                out.append(Buyout(c, members))
    return out
