"""What each action does, applied to a fresh clone once it is known to be legal."""

from __future__ import annotations

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
    FillBag,
    FreeAction,
    Harvest,
    MassDraw,
    Mill,
    Pass,
    Privilege,
    Produce,
    Recall,
    RevealCustomers,
    Serve,
    Skip,
    TakeCube,
    Train,
    Travel,
    UseWell,
)
from .legal import BUY_FROM, privilege_options
from .payments import apply_pay
from .state import BAG, FARM, MAX_GRAIN, GameState
from .vocabulary import INFLUENCE, Color, Cube, Good, PhaseName, Space, is_member


def _reveal(st: GameState, a: Action) -> None:
    assert isinstance(a, RevealCustomers)
    for slot, tile in a.tiles:
        st.market[slot] = tile
        st.unseen.discard(tile)
    st.to_reveal = ()
    if st.after_reveal == "end_turn":
        flow.end_turn(st)
    else:
        st.phase = st.after_reveal  # the fill (or a module's setup step, e.g. the goal deal)


def _fill(st: GameState, a: Action) -> None:
    assert isinstance(a, FillBag)
    card = st.data.bag[len(st.players)]
    for c in INFLUENCE:
        k = min(card[c], st.supply[c])
        st.supply[c] -= k
        st.bag[c] += k
    st.bag[Cube.PLAGUE] += st.supply[Cube.PLAGUE]
    st.supply[Cube.PLAGUE] = 0
    for space, cubes in a.spaces:
        st.spaces[space] = {cube: n for cube, n in cubes if n}
        for cube, n in cubes:
            st.bag[cube] -= n
    st.round_fill = {space: dict(cubes) for space, cubes in st.spaces.items()}
    st.current = st.first
    st.phase = PhaseName("turn")


def _mass_draw(st: GameState, a: Action) -> None:
    assert isinstance(a, MassDraw)
    for f in a.figures:
        if is_member(f):
            st.members[f] = ("church", 1)
    st.mass_out += len(a.figures)
    flow.start_moves(st)


def _enter_space(st: GameState, space: Space) -> None:
    if space is Space.MARKET:
        flow.start_market(st)
        return
    st.phase = PhaseName("action")
    st.act_space = space
    if not st.rules.space_any[space](st, st.current_color):  # nothing to do there
        flow.finish_action(st)


def _take(st: GameState, a: Action) -> None:
    assert isinstance(a, TakeCube)
    cubes = dict(st.spaces[a.space])  # replaced whole: shared with the state before
    cubes[a.cube] -= 1
    st.spaces[a.space] = cubes
    if a.cube is Cube.PLAGUE:
        st.supply[Cube.PLAGUE] += 1
        deaths.spend_time(st, a.player, 2)
    else:
        st.own(a.player).cubes[a.cube] += 1
    _enter_space(st, a.space)


def _well(st: GameState, a: Action) -> None:
    assert isinstance(a, UseWell)
    if a.pay:  # HOUSE RULE well_coins: cubes and coins, as legal_actions offered them
        apply_pay(st.own(a.player), st.supply, a.pay)
    else:
        st.own(a.player).cubes[a.color] -= 3
        st.supply[a.color] += 3
    _enter_space(st, a.space)


def _free(st: GameState, a: Action) -> None:
    assert isinstance(a, FreeAction)
    _enter_space(st, a.space)


def _skip(st: GameState, a: Action) -> None:
    flow.finish_action(st)


def _harvest(st: GameState, a: Action) -> None:
    assert isinstance(a, Harvest)
    player = st.own(a.player)
    player.grain = min(MAX_GRAIN, player.grain + flow.harvest_yield(st, a.player))
    flow.finish_action(st)


def _birth(st: GameState, a: Action) -> None:
    assert isinstance(a, Birth)
    member = flow.youngest_unborn(st, a.player)
    assert member is not None
    st.members[member] = FARM
    flow.finish_action(st)


def _recall(st: GameState, a: Action) -> None:
    assert isinstance(a, Recall)
    st.members[a.member] = FARM
    flow.finish_action(st)


def _train(st: GameState, a: Action) -> None:
    assert isinstance(a, Train)
    craft = st.data.crafts[a.building]
    st.members[a.member] = ("craft", a.building)
    time = craft.train
    if a.good is not None:
        time += craft.produce
        st.own(a.player).goods[a.good] += 1
    deaths.spend_time(st, a.player, time)
    flow.finish_action(st)


def _produce(st: GameState, a: Action) -> None:
    assert isinstance(a, Produce)
    st.own(a.player).goods[a.good] += 1
    deaths.spend_time(st, a.player, st.data.crafts[a.building].produce)
    flow.finish_action(st)


def _buy(st: GameState, a: Action) -> None:
    assert isinstance(a, Buy)
    player = st.own(a.player)
    apply_pay(player, st.supply, a.pay)
    player.grain -= st.data.crafts[BUY_FROM[a.good]].buy_grain
    player.goods[a.good] += 1
    flow.finish_action(st)


def _mill(st: GameState, a: Action) -> None:
    assert isinstance(a, Mill)
    player = st.own(a.player)
    player.grain -= 2
    player.coins += 2
    deaths.spend_time(st, a.player, 2)
    flow.finish_action(st)


def _serve(st: GameState, a: Action) -> None:
    assert isinstance(a, Serve) and st.day is not None
    player = st.own(a.player)
    tile = st.market[a.slot]
    assert tile is not None
    customer = st.data.customers[tile]
    free = flow.serve_cost_free(st, a.player)
    apply_pay(player, st.supply, a.pay)
    for good, n in customer.goods:
        player.goods[good] -= n
    player.grain -= customer.grain
    player.customers.append(tile)
    st.market[a.slot] = None
    st.day.sold += 1
    if a.player == st.day.trigger:
        st.day.trigger_sales += 1
    st.day.turn = st.after(a.player)[0]
    if not free:
        deaths.spend_time(st, a.player, 1)
    flow.continue_market(st)


def _pass(st: GameState, a: Action) -> None:
    assert isinstance(a, Pass) and st.day is not None
    st.day.passed.add(a.player)
    st.day.turn = st.after(a.player)[0]
    flow.continue_market(st)


def _travel(st: GameState, a: Action) -> None:
    assert isinstance(a, Travel)
    player = st.own(a.player)
    apply_pay(player, st.supply, a.pay)
    player.goods[Good.WAGON] -= 1
    st.members[a.member] = ("travel", a.city)
    if a.city not in player.cities and len(player.cities) < st.data.travel_markers:
        player.cities.append(a.city)
        reward = st.data.city_rewards[a.city]
        if reward == "prestige":
            player.prestige += 3
        elif reward == "coin":
            player.coins += 1
        else:
            for cube in a.gain:
                st.supply[cube] -= 1
                player.cubes[cube] += 1
    deaths.spend_time(st, a.player, 2)
    flow.finish_action(st)


def _council_enter(st: GameState, a: Action) -> None:
    assert isinstance(a, CouncilEnter)
    apply_pay(st.own(a.player), st.supply, a.pay)
    st.members[a.member] = ("council", 1)
    deaths.spend_time(st, a.player, st.data.council_enter_time)
    _offer_privilege(st, a.player, 1)


def _council_advance(st: GameState, a: Action) -> None:
    assert isinstance(a, CouncilAdvance)
    apply_pay(st.own(a.player), st.supply, a.pay)
    level = st.members[a.member][1] + 1
    st.members[a.member] = ("council", level)
    deaths.spend_time(st, a.player, st.data.council_advance_time[level])
    _offer_privilege(st, a.player, level)


def _offer_privilege(st: GameState, color: Color, level: int) -> None:
    st.privilege_max = level
    st.phase = PhaseName("privilege")
    if not privilege_options(st, color, level):
        flow.finish_action(st)


def _privilege(st: GameState, a: Action) -> None:
    assert isinstance(a, Privilege)
    player = st.own(a.player)
    if a.level == 1:
        st.next_first = a.player
    elif a.level == 2:
        for g in a.gain:
            cube = Cube(g)
            st.supply[cube] -= 1
            player.cubes[cube] += 1
    elif a.level == 3:
        player.goods[Good(a.gain[0])] += 1
    else:
        player.coins -= 1
        player.prestige += 3
    flow.finish_action(st)


def _church(st: GameState, a: Action) -> None:
    assert isinstance(a, Church)
    time = apply_pay(st.own(a.player), st.supply, a.pay)
    st.members[a.member] = BAG
    deaths.spend_time(st, a.player, time)
    flow.finish_action(st)


def _die(st: GameState, a: Action) -> None:
    assert isinstance(a, Die)
    deaths.bury(st, a.member)
    if st.day is not None and st.owed_now.get(a.player, 0) > 0:
        st.owed_now[a.player] -= 1
        flow.continue_market(st)
    else:
        st.owed_turn_end -= 1
        flow.end_turn(st)


def _buyout(st: GameState, a: Action) -> None:
    assert isinstance(a, Buyout)
    st.own(a.player).coins -= len(a.members)
    for m in a.members:
        st.members[m] = ("church", 1)
    st.mass_out += len(a.members)
    st.mass_order.pop(0)
    flow.advance_buyout(st)


def _church_move(st: GameState, a: Action) -> None:
    assert isinstance(a, ChurchMove)
    window = st.members[a.member][1]
    st.own(a.player).grain -= flow.move_cost(st, window)
    st.members[a.member] = ("church", window + 1)
    flow.advance_moves(st)


def _done(st: GameState, a: Action) -> None:
    st.mass_order.pop(0)
    flow.advance_moves(st)


HANDLERS = {
    RevealCustomers: _reveal,
    FillBag: _fill,
    MassDraw: _mass_draw,
    TakeCube: _take,
    UseWell: _well,
    FreeAction: _free,
    Skip: _skip,
    Harvest: _harvest,
    Birth: _birth,
    Recall: _recall,
    Train: _train,
    Produce: _produce,
    Buy: _buy,
    Mill: _mill,
    Serve: _serve,
    Pass: _pass,
    Travel: _travel,
    CouncilEnter: _council_enter,
    CouncilAdvance: _council_advance,
    Privilege: _privilege,
    Church: _church,
    Die: _die,
    Buyout: _buyout,
    ChurchMove: _church_move,
    Done: _done,
}
