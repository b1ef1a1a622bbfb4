"""The week's steps in order, and what happens between two decisions (seed 004,
« Déroulement du jeu »): the setup, each Monday's reveals and bag draw, each day's votes
then its loop, the members moving to the day's street, departures, refills, the end.

``State.step`` names what the game waits for:

- ``card_values``: the box must describe a card (``State.asking``);
- ``ship`` / ``relic``: a ship for an empty mooring, a relic for the display (by hand);
- ``week``, ``decree``: Monday's week card, then its three decrees (by hand);
- ``stalls``: the bag's materials onto the stalls; ``dice``: an extra order's die;
  ``tiebreak``: the die among equal family cards in week 1 (chance);
- ``family``, ``vote``: secret simultaneous choices (`companion.games.sealed`);
- ``mayor``: a tied vote, the mayor decides;
- ``market``, ``order``, ``load``, ``buy``, ``insure``: the day's loop;
- ``over``."""

from __future__ import annotations

from dataclasses import replace

from . import cards as c
from .crafts import delivered
from .scoring import stained_glass
from .state import Seat, State, add, evolve
from .tuesday import voters
from .vocabulary import CRAFTS, CURRENCIES, DISPLAY, GOODS, MOORINGS, RECIPE, WEEKS

EXTRA_HOLD = 2
"""« 1 soute supplémentaire de la valeur de 2 pour une marchandise quelconque »."""

VOTE_DAYS = {3: "wednesday", 4: "thursday", 5: "friday", 6: "saturday"}
"""A decree's printed number → the day it is voted (Monday is 1; a choice, docs/colonia.md)."""


def setup_name(players: int) -> str:
    """The setup sheet's values are asked per player count."""
    return f"{players} players"


def begin(st: State) -> State:
    """The state once the setup sheet is known, or waiting for it."""
    sheet = c.known(st.cards, c.SETUP.name, setup_name(len(st.players)))
    if sheet is None:
        return evolve(st, step="card_values", asking=(c.SETUP.name, setup_name(len(st.players))))
    money = dict(sheet.money)
    seats = tuple(Seat(p, sheet.members, money=tuple(money[k] for k in CURRENCIES))
                  for p in st.players)
    return evolve(st, setup=sheet, seats=seats, step="ship", asking=None,
                   sticks=(sheet.stick_start,) * len(CRAFTS))


def after_ship(st: State) -> State:
    if len(st.moorings) < MOORINGS:
        return evolve(st, step="ship")
    if st.week == 0:
        return evolve(st, step="relic")
    # after Saturday's departures, Sunday; after a decree's early departure, the same day
    return day(st, "sunday" if st.day == "saturday" else st.day)


def after_relic(st: State) -> State:
    if len(st.display) < DISPLAY:
        return evolve(st, step="relic")
    return monday(st)


def monday(st: State) -> State:
    """A new week: its card is turned up first."""
    return evolve(st, week=st.week + 1, day="monday", step="week", week_card=None,
                   decrees=(), stalls=(), bought=())


def after_stalls(st: State) -> State:
    """The regular orders move the sticks down; the departure stick is set (« Au 6ème
    tour, les 4 bateaux appareillent »); then the decrees."""
    card = st.week_card
    assert card is not None
    sticks = tuple(s + n for s, (_, n) in zip(st.sticks, card.orders, strict=True))
    leaving = MOORINGS if st.week == WEEKS else min(card.ships, MOORINGS)
    return evolve(st, sticks=sticks, leaving=leaving, step="decree")


def after_decree(st: State) -> State:
    if len(st.decrees) < 3:
        return evolve(st, step="decree")
    ordered = tuple(sorted(st.decrees, key=lambda v: v.decree.day))  # stable: drawn order
    return evolve(st, decrees=ordered, day="tuesday", step="family")


def day(st: State, name: str) -> State:
    """Enter day ``name`` (or carry on in it after a vote): its decrees to vote first,
    then its loop (Saturday: the departures)."""
    st = evolve(st, day=name)
    for voting in st.decrees:
        if voting.adopted is None and VOTE_DAYS.get(voting.decree.day) == name:
            # nobody's card counts: a tie at 0, the mayor decides
            return evolve(st, step="vote" if voters(st.seats) else "mayor")
    if name == "saturday":
        return depart(st)
    loop = {"wednesday": "market", "thursday": "order", "friday": "load", "sunday": "buy"}
    return evolve(st, step=loop[name], passed=frozenset(), turn=0)


def next_turn(st: State, passed: frozenset[str]) -> State:
    """The next player in the coat-of-arms order who has not passed, or the loop's end."""
    st = evolve(st, passed=passed)
    if len(passed) == len(st.players):
        return end_of_loop(st)
    n = len(st.order)
    for k in range(1, n + 1):
        i = (st.turn + k) % n
        if st.order[i] not in passed:
            return evolve(st, turn=i)
    raise AssertionError("unreachable: somebody has not passed")


def to_street(st: State, name: str, placed: dict[str, int]) -> State:
    """Last week's members on ``name``'s street go home, then those placed go on it."""
    for seat in st.seats:
        seat = replace(seat, reserve=seat.reserve + seat.street(name))
        st = st.with_seat(seat.with_street(name, placed.get(seat.color, 0)))
    return st


def end_of_loop(st: State) -> State:
    if st.step == "market":
        bag = st.bag
        for stall, who in zip(st.stalls, st.bought, strict=True):
            if who is None:  # unbought materials go back into the bag
                bag = tuple(b + s for b, s in zip(bag, stall, strict=True))
        placed: dict[str, int] = {}
        for who in st.bought:
            if who is not None:
                placed[who[0]] = placed.get(who[0], 0) + who[1]
        st = to_street(evolve(st, bag=bag, stalls=(), bought=()), "wednesday", placed)
        return day(st, "thursday")
    if st.step == "order":
        card = st.week_card
        assert card is not None
        if card.dice > 0:
            return evolve(st, step="dice", dice_left=card.dice)
        return deliver(st)
    if st.step == "load":
        return day(to_street(st, "friday", {}), "saturday")
    if st.step == "buy":
        if st.week == WEEKS:
            return finish(st)
        return evolve(st, step="insure", passed=frozenset(), turn=0)
    if st.step == "insure":
        return sunday_end(st)
    if st.step in ("home", "exchange"):  # a decree's round: the day carries on
        return day(evolve(st, passed=frozenset(), turn=0), st.day)
    raise AssertionError(f"no loop at step {st.step}")


def deliver(st: State) -> State:
    """One good per order space above its stick (« 1 seule marchandise par case »), from
    the supply while it lasts (a choice when it runs out: docs/colonia.md); the members of
    delivered orders go to the Thursday street, the others move up; the sticks go back."""
    placed: dict[str, int] = {}
    columns = []
    supply = st.supply
    for k, (column, stick) in enumerate(zip(st.columns, st.sticks, strict=True)):
        done, rest = delivered(column, stick)
        good = GOODS.index(c_good(k))
        for o in done:
            placed[o.player] = placed.get(o.player, 0) + o.members
            if supply[good] > 0:
                supply = add(supply, good, -1)
                seat = st.seat(o.player)
                st = st.with_seat(replace(seat, goods=add(seat.goods, good, 1)))
        columns.append(rest)
    assert st.setup is not None
    st = evolve(st, columns=tuple(columns), supply=supply, dice_left=0,
                 sticks=(st.setup.stick_start,) * len(CRAFTS), new_orders=(0,) * len(CRAFTS))
    return day(to_street(st, "thursday", placed), "friday")


def c_good(k: int) -> str:
    """The good of craftsman number ``k``."""
    return RECIPE[CRAFTS[k]][2]


def sail(st: State, n: int) -> State:
    """The first ``n`` ships leave: each loaded hold pays its printed value in the ship's
    city's currency, from mooring I; their members go to the Friday street; the others
    move up (« Les bateaux restants avancent »), the empty moorings wait for new ships."""
    placed: dict[str, int] = {}
    for berth in st.moorings[:n]:
        for hold, who in zip(berth.ship.holds, berth.loaded, strict=False):
            if who is None:
                continue
            seat = st.seat(who)
            money = add(seat.money, CURRENCIES.index(berth.ship.currency), hold.value)
            st = st.with_seat(replace(seat, money=money))
            placed[who] = placed.get(who, 0) + 1
        if berth.crest is not None:  # a decree's extra hold: worth 2
            seat = st.seat(berth.crest)
            money = add(seat.money, CURRENCIES.index(berth.ship.currency), EXTRA_HOLD)
            st = st.with_seat(replace(seat, money=money))
            placed[berth.crest] = placed.get(berth.crest, 0) + 1
    for who, n_members in placed.items():
        seat = st.seat(who)
        st = st.with_seat(seat.with_street("friday", seat.street("friday") + n_members))
    return evolve(st, moorings=st.moorings[n:])


def depart(st: State) -> State:
    """Saturday: the ships above the departure stick leave (`sail`)."""
    st = replace(sail(st, st.leaving), leaving=0)
    if st.week == WEEKS:
        return day(st, "sunday")  # the game ends on this Sunday: no new ship is needed
    return after_ship(st)


def sunday_end(st: State) -> State:
    """Relics nobody insured are discarded, the family cards put away, the display
    refilled to ten (insured cards count: docs/colonia.md, ambiguity 11)."""
    kept = tuple(s for s in st.display if s.insured is not None)
    gone = tuple(s.relic for s in st.display if s.insured is None)
    seats = tuple(replace(s, card=None, votes=0) for s in st.seats)
    st = evolve(st, display=kept, relic_discard=st.relic_discard + gone, seats=seats,
                 hall=(), passed=frozenset(), turn=0)
    return after_relic(st)


def finish(st: State) -> State:
    """The windows: the strict majority in a currency wins it and pays that money to the
    bank (a choice: docs/colonia.md, ambiguity 4); the game is over."""
    st = evolve(st, end_money=tuple(s.money for s in st.seats))  # told at the end
    for i, currency in enumerate(CURRENCIES):
        winner = stained_glass({s.color: s.money[i] for s in st.seats})
        if winner is not None:
            seat = st.seat(winner)
            if "stained_glass_keeps_money" not in st.house:
                st = st.with_seat(replace(seat, money=add(seat.money, i, -seat.money[i])))
            st = evolve(st, windows=(*st.windows, (currency, winner)))
    # members insuring relics still on display stay there: they score nothing
    return evolve(st, step="over", passed=frozenset())
