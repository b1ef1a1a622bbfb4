"""What comes next: the end of a turn, deaths, market days, rounds, mass and the end.

Every function here moves a state (a fresh clone owned by the engine) forward to the next
point where someone must decide or something must be drawn.
"""

from __future__ import annotations

from . import deaths
from .payments import can_pay
from .state import MONKS, GameState, MarketDay
from .vocabulary import Color, Cube, Good, MemberId, PhaseName, member_generation


def finish_action(st: GameState) -> None:
    """The space action (or its refusal) is over: the turn ends."""
    st.act_space = None
    st.privilege_max = 0
    end_turn(st)


def end_turn(st: GameState) -> None:
    """Deaths owed by the current player happen now (seed 000: « à la fin de votre tour »),
    then the next turn, mass or final turn."""
    color = st.current_color
    while st.owed_turn_end > 0:
        candidates = deaths.death_candidates(st, color)
        if not candidates:
            st.owed_turn_end = 0
            break
        if not deaths.single_group(st, candidates):
            st.phase = PhaseName("death")
            st.death_player = color
            return
        deaths.bury(st, min(candidates))
        st.owed_turn_end -= 1
    st.death_player = None
    next_turn(st)


def next_turn(st: GameState) -> None:
    """Hand the turn on; start the final turns when the end was triggered in this turn."""
    if st.end_trigger is not None and st.final_queue is None:
        market = st.end_market_trigger
        if market is not None and market != st.end_trigger:
            # seed 000 « Cas spécial »: everyone gets a last action, from the market trigger.
            st.final_queue = [market, *st.after(market)]
        else:
            st.final_queue = st.after(st.end_trigger)
    if st.final_queue is not None:
        if st.final_queue:
            st.current = st.seat(st.final_queue.pop(0))
            st.phase = PhaseName("turn")
        else:
            start_mass(st)
        return
    if st.board_empty():
        start_mass(st)
        return
    st.current = (st.current + 1) % len(st.players)
    st.phase = PhaseName("turn")


# --- market day -------------------------------------------------------------------------


def serve_cost_free(st: GameState, color: Color) -> bool:
    """The market trigger's first sale costs no green cube and no time."""
    return st.day is not None and color == st.day.trigger and st.day.trigger_sales == 0


def can_serve(st: GameState, color: Color, slot: int) -> bool:
    tile = st.market[slot]
    if tile is None:
        return False
    customer = st.data.customers[tile]
    player = st.p[color]
    if player.grain < customer.grain or any(player.goods[g] < n for g, n in customer.goods):
        return False
    return serve_cost_free(st, color) or can_pay(player, {Cube.GREEN: 1})


def can_sell(st: GameState, color: Color, stalls: list[int]) -> bool:
    """Whether ``color`` has any sale to make on this market day."""
    if any(can_serve(st, color, s) for s in stalls):
        return True
    return any(sales(st, color) for sales in st.rules.market_sales)


def stall_customers(st: GameState) -> list[int]:
    return [i for i in range(5) if st.market[i] is not None]


def start_market(st: GameState) -> None:
    """Taking the market cube (or the well onto it) starts a compulsory market day."""
    color = st.current_color
    st.act_space = None
    st.day = MarketDay(trigger=color, turn=color, passed=set())
    continue_market(st)


def continue_market(st: GameState) -> None:
    """Deaths due at once first, then the next seller in clockwise order; players who can
    serve no one pass (seed 000: « Si vous ne pouvez pas le servir, vous passez »)."""
    if resolve_immediate_deaths(st):
        return
    day = st.day
    assert day is not None
    # Terminates: each time round adds a player to ``passed`` or skips one already in it,
    # and a non-passed player is at most n - 1 seats away.
    while True:
        stalls = stall_customers(st)
        # a module's stalls (Port: cocoa, tea) never close, so the day goes on while anyone
        # can sell there (seed 003 « Marché »)
        if (not stalls and not st.rules.market_sales) or len(day.passed) == len(st.players):
            break
        color = day.turn
        # HOUSE RULE final_seller_sells: off, the player who ended the game takes no part
        # in a market day of the final turns.
        sits_out = (
            not st.house.final_seller_sells
            and st.final_queue is not None
            and color == st.end_trigger
            and st.end_market_trigger in (None, st.end_trigger)  # i.e. no final turn of theirs
        )
        if sits_out:
            day.passed.add(color)
        if color in day.passed:
            day.turn = st.after(color)[0]
            continue
        if not can_sell(st, color, stalls):
            day.passed.add(color)
            day.turn = st.after(color)[0]
            continue
        st.phase = PhaseName("market")
        return
    end_market(st)


def resolve_immediate_deaths(st: GameState) -> bool:
    """Deaths due at once during a market day. True when one needs a person's choice."""
    for color in st.players:
        while st.owed_now.get(color, 0) > 0:
            candidates = deaths.death_candidates(st, color)
            if not candidates:
                st.owed_now[color] = 0
                break
            if not deaths.single_group(st, candidates):
                st.phase = PhaseName("death")
                st.death_player = color
                return True
            deaths.bury(st, min(candidates))
            st.owed_now[color] -= 1
    st.death_player = None
    return False


def end_market(st: GameState) -> None:
    """Refill the stalls from the waiting line in order, the line from the stack (seed
    000 « Marché »); nothing moves if no customer was served. Then the turn ends."""
    day = st.day
    assert day is not None
    st.day = None
    st.owed_now = {}
    if day.sold:
        slots = st.data.market_slots(len(st.players))
        stalls = [i for i in slots if i < 5]
        queue = [i for i in slots if i >= 5]
        waiting = [t for t in (st.market[i] for i in queue) if t is not None]
        for i in stalls:
            if st.market[i] is None and waiting:
                st.market[i] = waiting.pop(0)
        for i in queue:
            st.market[i] = waiting.pop(0) if waiting else None
        empty = [i for i in queue if st.market[i] is None]
        reveal = tuple(empty[: len(st.unseen)])
        if reveal:
            st.phase = PhaseName("reveal_customers")
            st.to_reveal = reveal
            st.after_reveal = PhaseName("end_turn")
            return
    end_turn(st)


# --- mass -------------------------------------------------------------------------------


def in_bag(st: GameState, color: Color) -> list[MemberId]:
    return st.family(color, frozenset({"bag"}))


def bag_figures(st: GameState) -> int:
    return MONKS + sum(1 for loc in st.members.values() if loc[0] == "bag")


def start_mass(st: GameState) -> None:
    """Mass (seed 000 « Messe »): buy-outs in turn order from the round's first player."""
    st.phase = PhaseName("buyout")
    st.mass_out = 0
    first = st.players[st.first]
    st.mass_order = [first, *st.after(first)]
    advance_buyout(st)


def can_buy_out(st: GameState, color: Color) -> bool:
    return st.mass_out < 4 and st.p[color].coins > 0 and bool(in_bag(st, color))


def advance_buyout(st: GameState) -> None:
    while st.mass_order and not can_buy_out(st, st.mass_order[0]):
        st.mass_order.pop(0)
    if st.mass_order:
        st.phase = PhaseName("buyout")
        return
    if 4 - st.mass_out > 0 and bag_figures(st) > 0:
        st.phase = PhaseName("mass_draw")
        return
    start_moves(st)


def draw_count(st: GameState) -> int:
    """How many figures the random draw of this mass takes out of the black bag."""
    return min(4 - st.mass_out, bag_figures(st))


def move_cost(st: GameState, window: int) -> int:
    """Grain to move a member from ``window`` one window left."""
    return st.data.mass_grain_costs[window - 1]


def church_moves(st: GameState, color: Color) -> list[MemberId]:
    grain = st.p[color].grain
    return [
        m
        for m in st.family(color, frozenset({"church"}))
        if st.members[m][1] < 4 and move_cost(st, st.members[m][1]) <= grain
    ]


def start_moves(st: GameState) -> None:
    st.phase = PhaseName("church_move")
    first = st.players[st.first]
    st.mass_order = [first, *st.after(first)]
    advance_moves(st)


def advance_moves(st: GameState) -> None:
    while st.mass_order and not church_moves(st, st.mass_order[0]):
        st.mass_order.pop(0)
    if st.mass_order:
        st.phase = PhaseName("church_move")
        return
    church_majority(st)
    after_mass(st)


def majority_winners(st: GameState) -> list[Color]:
    """The families the church majority rewards: most members in the church; ties go to
    the one with the leftmost member; still tied, every tied family (seed 000 « Messe » 3).
    Empty when the church is empty. Pure: the state is not changed."""
    counts: dict[Color, int] = {}
    best_window: dict[Color, int] = {}
    for c in st.players:
        windows = [st.members[m][1] for m in st.family(c, frozenset({"church"}))]
        counts[c] = len(windows)
        best_window[c] = max(windows, default=0)
    top = max(counts.values())
    if top == 0:
        return []
    tied = [c for c in st.players if counts[c] == top]
    left = max(best_window[c] for c in tied)
    return [c for c in tied if best_window[c] == left]


MAJORITY_PRESTIGE = 2


def church_majority(st: GameState) -> list[Color]:
    """2 prestige to each family `majority_winners` names; returns them."""
    winners = majority_winners(st)
    for c in winners:
        st.own(c).prestige += MAJORITY_PRESTIGE
    return winners


def after_mass(st: GameState) -> None:
    """A new round (the next-first-player marker decides who starts), or the end."""
    st.mass_order = []
    st.prestige_log.append((st.round, {c: st.p[c].prestige for c in st.players}))
    if st.final_queue is not None:
        st.phase = PhaseName("over")
        return
    st.round += 1
    if st.next_first is not None:
        st.first = st.seat(st.next_first)
        st.next_first = None
    st.current = st.first
    st.phase = PhaseName("fill_bag")


def youngest_unborn(st: GameState, color: Color) -> MemberId | None:
    unborn = st.family(color, frozenset({"unborn"}))
    return min(unborn, key=lambda m: (member_generation(m), m)) if unborn else None


def harvest_yield(st: GameState, color: Color) -> int:
    """2 grain; 3 with horse + plough; 4 with ox + plough (one combination only)."""
    goods = st.p[color].goods
    if goods[Good.PLOUGH] and goods[Good.OX]:
        return 4
    if goods[Good.PLOUGH] and goods[Good.HORSE]:
        return 3
    return 2
