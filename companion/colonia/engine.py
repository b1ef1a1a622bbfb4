"""Colonia's one way for the state to change: `apply` checks an action against the step
waited for and returns the next state (never changes the one given). Refusals are
`companion.games.errors` (IllegalAction names the rule; the state is untouched)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from companion.games.cards import ANSWER, CardValueError
from companion.games.errors import IllegalAction
from companion.games.sealed import SealedChoice

from . import cards as c
from . import decrees as decrees_
from . import flow
from .actions import Act, parse
from .crafts import extra_orders, order_cost
from .state import Berth, Order, Shown, State, Voting, add, evolve
from .tuesday import coat_of_arms, send_to_hall, tally, ties, voters
from .vocabulary import CRAFTS, CURRENCIES, GOODS, MATERIALS, RECIPE, WEEKS

DECK_STEP = {"week": "week", "decree": "decree", "ship": "ship", "relic": "relic"}
DECK_TYPE = {"week": c.WEEK.name, "decree": c.DECREE.name, "ship": c.SHIP.name,
             "relic": c.RELIC.name}


def _illegal(act: Act | dict[str, Any], why: str, code: str = "not_legal") -> IllegalAction:
    record = act.to_json() if isinstance(act, Act) else act
    return IllegalAction(f"illegal: {record!r} — {why}", code=code)


def sealed_choice(st: State) -> SealedChoice | None:
    """Tuesday's family cards (each player's cards not yet played), or a decree's vote
    (yes or no, among those whose card counts)."""
    if st.step == "family":
        options = {s.color: s.cards for s in st.seats}
        return SealedChoice.of(f"family-{st.week}", "reveal_family", options,
                               "Which family card do you play this week?")
    if st.step == "vote":
        voting = _voting(st)
        who = voters(st.seats)
        if not who:
            return None
        return SealedChoice.of(f"vote-{st.week}-{voting.decree.name}", "reveal_votes",
                               {p: ("yes", "no") for p in who},
                               f"Do you vote for the decree {voting.decree.name}?")
    return None


def _voting(st: State) -> Voting:
    return next(v for v in st.decrees
                if v.adopted is None and flow.VOTE_DAYS.get(v.decree.day) == st.day)


def apply(st: State, action: Any) -> State:
    """The state after ``action`` (an `Act` or its record form). Raises MalformedAction,
    IllegalAction (the rule broken named), CardValueError (a card described badly)."""
    act = parse(action)
    handler = HANDLERS.get(act.type)
    assert handler is not None
    return handler(st, act)


def _card_values(st: State, act: Act) -> State:
    if st.step != "card_values" or st.asking is None:
        raise _illegal(act, "no card is waited for", "no_card_asked")
    kind, name = st.asking
    if (act.get("card_type"), act.get("card")) != (kind, name):
        raise _illegal(act, f"the table waits for what is printed on {kind} {name!r}")
    cards = st.cards.learn(kind, name, act.get("values"))
    c.read(kind, name, cards.values(kind, name) or {})  # a badly written card: refused now
    st = evolve(st, cards=cards, asking=None)
    if kind == c.SETUP.name:
        return flow.begin(st)
    deck = next(d for d, t in DECK_TYPE.items() if t == kind)
    return _place(evolve(st, step=st.back, back=""), deck, name)


def _reveal(st: State, act: Act) -> State:
    deck, name = str(act.get("deck")), str(act.get("card")).strip()
    if st.step != DECK_STEP[deck] and not (deck == "relic" and st.step == "extra_relic"):
        raise _illegal(act, f"the game does not wait for a {deck} card now")
    if not name:
        raise _illegal(act, "a card is named as printed", "no_name")
    if deck == "relic" and any(s.relic.name == name for s in st.display):
        raise _illegal(act, f"{name!r} is already on the display", "already_shown")
    if deck == "decree" and any(v.decree.name == name for v in st.decrees):
        raise _illegal(act, f"{name!r} is already revealed this week", "already_shown")
    if deck == "ship" and any(b.ship.name == name for b in st.moorings):
        raise _illegal(act, f"{name!r} is already at a mooring", "already_shown")
    if not st.cards.knows(DECK_TYPE[deck], name):  # the box learns it first
        return evolve(st, step="card_values", asking=(DECK_TYPE[deck], name), back=st.step)
    return _place(st, deck, name)


def _place(st: State, deck: str, name: str) -> State:
    value = c.known(st.cards, DECK_TYPE[deck], name)
    st = evolve(st, turned=(*st.turned, (deck, name)))
    if deck == "week":
        return evolve(st, week_card=value, step="stalls")
    if deck == "decree":
        return flow.after_decree(evolve(st, decrees=(*st.decrees, Voting(value))))
    if deck == "ship":
        berth = Berth(value, (None,) * len(value.holds))
        return flow.after_ship(evolve(st, moorings=(*st.moorings, berth)))
    st = evolve(st, display=(*st.display, Shown(value)))
    if st.step == "extra_relic":  # a decree's relics, on the extra places
        st = evolve(st, extra_relics=st.extra_relics - 1)
        return st if st.extra_relics else flow.day(st, st.day)
    return flow.after_relic(st)


def _fill_stalls(st: State, act: Act) -> State:
    if st.step != "stalls" or st.week_card is None:
        raise _illegal(act, "the stalls are filled on Monday, after the week card")
    _unseen_ok(st, act)
    stalls = act.get("stalls")
    sizes = st.week_card.stalls
    if not isinstance(stalls, list) or len(stalls) != len(sizes) or not all(
            isinstance(s, list) and all(m in MATERIALS for m in s) for s in stalls):
        raise _illegal(act, f"one list of materials for each of the {len(sizes)} stalls")
    drawn = [m for s in stalls for m in s]
    bag = list(st.bag)
    for m in drawn:
        bag[MATERIALS.index(m)] -= 1
    if min(bag) < 0:
        raise _illegal(act, "more of a material than the bag holds", "not_in_bag")
    short = sum(st.bag) < sum(sizes)
    for s, n in zip(stalls, sizes, strict=True):  # the bag running short: fill in order
        if len(s) > n or (len(s) < n and not short):
            raise _illegal(act, f"the week card puts {list(sizes)} materials on the stalls")
    if short and len(drawn) != sum(st.bag):
        raise _illegal(act, "a short bag is emptied onto the stalls, left to right")
    counts = tuple(tuple(s.count(m) for m in MATERIALS) for s in stalls)
    st = evolve(st, bag=tuple(bag), stalls=counts, bought=(None,) * len(counts))
    return flow.after_stalls(st)


def _add_materials(st: State, act: Act) -> State:
    """A decree's materials from the bag: one more on each stall, or two merchants'
    stalls of four (a short bag fills them in order)."""
    stalls = act.get("stalls")
    if st.step == "more_stalls":
        sizes = tuple(1 if b is None else 0 for b in st.bought)
    elif st.step == "merchants":
        sizes = decrees_.EXTRA_STALLS
    else:
        raise _illegal(act, "no decree's materials are waited for")
    _unseen_ok(st, act)
    if not isinstance(stalls, list) or len(stalls) != len(sizes) or not all(
            isinstance(s, list) and all(m in MATERIALS for m in s) for s in stalls):
        raise _illegal(act, f"one list of materials for each of {len(sizes)} stalls")
    bag = list(st.bag)
    for m in (m for s in stalls for m in s):
        bag[MATERIALS.index(m)] -= 1
    short = sum(st.bag) < sum(sizes)
    if min(bag) < 0 or any(len(s) > n or (len(s) < n and not short)
                           for s, n in zip(stalls, sizes, strict=True)) or (
            short and sum(bag) != 0):
        raise _illegal(act, f"the bag gives {list(sizes)} materials to the stalls", "not_in_bag")
    added = tuple(tuple(s.count(m) for m in MATERIALS) for s in stalls)
    if st.step == "more_stalls":
        grown = tuple(tuple(a + b for a, b in zip(old, new, strict=True))
                      for old, new in zip(st.stalls, added, strict=True))
        st = evolve(st, stalls=grown)
    else:
        st = evolve(st, stalls=st.stalls + added, bought=st.bought + (None,) * len(added))
    return flow.day(evolve(st, bag=tuple(bag)), st.day)


def _unseen_ok(st: State, act: Act) -> None:
    """A draw marked as from a bag of unknown content must be one (a marker that lies
    would withhold a public draw's seed). Raises IllegalAction."""
    if act.get("bag_unseen") and not st.unseen:
        raise _illegal(act, "the bag's content is public: nothing left it behind a screen")


def _draw_materials(st: State, act: Act) -> State:
    """The decree's two materials for each player, in the coat-of-arms order, behind their
    screens (a short bag: the first in that order take what is left; docs/colonia.md)."""
    drawn = act.get("drawn")
    order = st.order or st.players
    if st.step != "private_materials":
        raise _illegal(act, "no decree's materials for the screens are waited for")
    if sorted(drawn) != sorted(st.players) or not all(
            all(m in MATERIALS for m in drawn[p]) for p in st.players):
        raise _illegal(act, f"the materials each player drew: {list(order)}")
    left = sum(st.bag)
    want = [min(decrees_.EACH_DRAWS, max(left - decrees_.EACH_DRAWS * i, 0))
            for i in range(len(order))]
    if [len(drawn[p]) for p in order] != want:
        raise _illegal(act, f"each player draws {decrees_.EACH_DRAWS} in the coat-of-arms "
                       f"order, from a bag of {left}: {dict(zip(order, want, strict=True))}",
                       "not_in_bag")
    bag = list(st.bag)
    for p in order:
        seat = st.seat(p)
        mats = seat.materials
        for m in drawn[p]:
            bag[MATERIALS.index(m)] -= 1
            mats = add(mats, MATERIALS.index(m), 1)
        st = st.with_seat(replace(seat, materials=mats))
    if min(bag) < 0:
        raise _illegal(act, "more of a material than the bag holds", "not_in_bag")
    st = evolve(st, bag=tuple(bag), unseen=st.unseen + sum(want))
    return flow.day(st, st.day)


def _reveal_family(st: State, act: Act) -> State:
    choice = sealed_choice(st)
    if st.step != "family" or choice is None:
        raise _illegal(act, "family cards are played on Tuesday")
    answers = choice.check(act.to_json())
    counts: dict[str, int] = {}
    for color in st.players:
        fewer = 1 if st.fewer == st.week else 0
        seat, sent, counts[color] = send_to_hall(st.seat(color), int(answers[color]), fewer,
                                                 "zero_card_reserve_only" in st.house)
        st = st.with_seat(seat)
        st = evolve(st, hall=(*st.hall, (color, sent)))
    st = flow.to_street(st, "tuesday", dict(st.hall))
    if st.week == 1 and ties(counts):
        return evolve(st, step="tiebreak", tied=ties(counts))
    before = st.order or st.players
    return flow.day(evolve(st, order=coat_of_arms(counts, before)), "wednesday")


def _tiebreak(st: State, act: Act) -> State:
    order = act.get("order")
    if st.step != "tiebreak" or not isinstance(order, list) or sorted(order) != sorted(st.tied):
        raise _illegal(act, f"the die orders the players with equal cards: {list(st.tied)}")
    counts = {s.color: s.votes for s in st.seats}
    rank = {p: i for i, p in enumerate(order)}
    ordered = tuple(sorted(st.players, key=lambda p: (-counts[p], rank.get(p, 0))))
    return flow.day(evolve(st, order=ordered, tied=()), "wednesday")


def _decided(st: State, adopted: bool) -> State:
    voting = _voting(st)
    decrees = tuple(replace(v, adopted=adopted) if v is voting else v for v in st.decrees)
    st = evolve(st, decrees=decrees)
    return decrees_.adopted(st, voting.decree) if adopted else flow.day(st, st.day)


def _reveal_votes(st: State, act: Act) -> State:
    choice = sealed_choice(st)
    if st.step != "vote" or choice is None:
        raise _illegal(act, "no vote is waited for")
    answers = choice.check(act.to_json())
    yes, no = tally(answers, {s.color: s.votes for s in st.seats})
    if yes == no:  # « En cas d'égalité, c'est le maire qui décide »
        side = answers.get(st.mayor or "")
        if "tied_vote_mayors_side" in st.house and side in ("yes", "no"):
            return _decided(st, side == "yes")
        return evolve(st, step="mayor")
    return _decided(st, yes > no)


def _mayor(st: State, act: Act) -> State:
    if st.step != "mayor" or act.get("player") != st.mayor:
        raise _illegal(act, f"a tied vote is decided by the mayor ({st.mayor})")
    return _decided(st, bool(act.get("adopt")))


def _my_turn(st: State, act: Act) -> str:
    who = str(act.get("player"))
    if st.to_move() != who:
        raise _illegal(act, f"it is {st.to_move()}'s turn", "not_your_turn")
    return who


def _buy_stall(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    i = int(act.get("stall")) - 1
    if st.step != "market" or not 0 <= i < len(st.stalls) or st.bought[i] is not None:
        raise _illegal(act, "a stall still holding materials is bought on Wednesday")
    n = sum(st.stalls[i])
    seat = st.seat(who)
    if n == 0:
        raise _illegal(act, "that stall is empty", "empty_stall")
    if seat.reserve < n:  # « le même nombre de membres de la famille de sa réserve »
        raise _illegal(act, f"{n} materials cost {n} members; {who} has {seat.reserve}",
                       "members")
    materials = tuple(a + b for a, b in zip(seat.materials, st.stalls[i], strict=True))
    st = st.with_seat(replace(seat, reserve=seat.reserve - n, materials=materials))
    bought = (*st.bought[:i], (who, n), *st.bought[i + 1:])
    return flow.next_turn(evolve(st, bought=bought), st.passed)


def _order(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    craft = str(act.get("craft"))
    if st.step != "order" or craft not in CRAFTS:
        raise _illegal(act, f"orders go to a craftsman on Thursday: {list(CRAFTS)}")
    k = CRAFTS.index(craft)
    first, second, _good = RECIPE[craft]
    seat = st.seat(who)
    cost = order_cost(st.new_orders[k])
    if seat.material(first) < 1 or seat.material(second) < 1:
        raise _illegal(act, f"the {craft} needs {first} and {second}", "materials")
    if seat.reserve < cost:
        raise _illegal(act, f"this order costs {cost} members; {who} has {seat.reserve}",
                       "members")
    mats = add(add(seat.materials, MATERIALS.index(first), -1), MATERIALS.index(second), -1)
    bag = add(add(st.bag, MATERIALS.index(first), 1), MATERIALS.index(second), 1)
    st = st.with_seat(replace(seat, reserve=seat.reserve - cost, materials=mats))
    columns = (*st.columns[:k], st.columns[k] + (Order(who, cost),), *st.columns[k + 1:])
    st = evolve(st, bag=bag, columns=columns, new_orders=add(st.new_orders, k, 1))
    return flow.next_turn(st, st.passed)


def _roll(st: State, act: Act) -> State:
    face = int(act.get("face"))
    if st.step != "dice" or not 1 <= face <= 6:
        raise _illegal(act, "the die is rolled for extra orders after Thursday's orders")
    st = evolve(st, sticks=extra_orders(st.sticks, face, CRAFTS), dice_left=st.dice_left - 1)
    return flow.deliver(st) if st.dice_left == 0 else st


def _load(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    i, h = int(act.get("ship")) - 1, int(act.get("hold")) - 1
    if st.step != "load" or not 0 <= i < len(st.moorings):
        raise _illegal(act, "ships are loaded on Friday, at moorings I to IV")
    berth = st.moorings[i]
    if not 0 <= h < len(berth.ship.holds) or berth.loaded[h] is not None:
        raise _illegal(act, "each hold is loaded once", "hold_taken")
    hold = berth.ship.holds[h]
    seat = st.seat(who)
    goods, supply = seat.goods, st.supply
    for g in hold.goods:
        j = GOODS.index(g)
        goods, supply = add(goods, j, -1), add(supply, j, 1)
    if min(goods) < 0:
        raise _illegal(act, f"the hold takes exactly {' + '.join(hold.goods)}", "goods")
    if seat.reserve < 1:
        raise _illegal(act, "loading a hold takes one member from the reserve", "members")
    st = st.with_seat(replace(seat, reserve=seat.reserve - 1, goods=goods))
    loaded = (*berth.loaded[:h], who, *berth.loaded[h + 1:])
    moorings = (*st.moorings[:i], replace(berth, loaded=loaded), *st.moorings[i + 1:])
    return flow.next_turn(evolve(st, moorings=moorings, supply=supply), st.passed)


def _load_extra(st: State, act: Act) -> State:
    """The decree's extra hold: any one good, one member on the ship's coat of arms."""
    who = _my_turn(st, act)
    i, good = int(act.get("ship")) - 1, str(act.get("good"))
    if (st.step != "load" or st.extra_hold != st.week or not 0 <= i < len(st.moorings)
            or st.moorings[i].crest is not None or good not in GOODS):
        raise _illegal(act, "this week a decree gives each ship in port one extra hold, "
                       "loaded once, with any good", "hold_taken")
    seat = st.seat(who)
    g = GOODS.index(good)
    if seat.goods[g] < 1 or seat.reserve < 1:
        raise _illegal(act, f"the extra hold takes one {good} and one member", "goods")
    st = st.with_seat(replace(seat, reserve=seat.reserve - 1, goods=add(seat.goods, g, -1)))
    berth = replace(st.moorings[i], crest=who)
    moorings = (*st.moorings[:i], berth, *st.moorings[i + 1:])
    st = evolve(st, moorings=moorings, supply=add(st.supply, g, 1))
    return flow.next_turn(st, st.passed)


def _buy_relic(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    name, into = str(act.get("card")), act.get("into")
    shown = next((s for s in st.display if s.relic.name == name), None)
    if st.step != "buy" or shown is None:
        raise _illegal(act, "relics on the display are bought on Sunday")
    relic, seat = shown.relic, st.seat(who)
    i = CURRENCIES.index(relic.currency)
    if seat.money[i] < relic.price:
        raise _illegal(act, f"{name} costs {relic.price} {relic.currency}; {who} has "
                       f"{seat.money[i]}", "money")
    kept = dict(seat.kept)
    if into is not None:
        mine = {r.name: r for r in seat.relics}
        other = mine.get(str(into))
        fits = other is not None and other.city == relic.city and other.kind != relic.kind
        taken = (relic.kind == "relic" and str(into) in kept) or (
            relic.kind == "reliquary" and str(into) in kept.values())
        if not fits or taken:
            raise _illegal(act, "a reliquary holds one relic of its own city, for good",
                           "reliquary")
        if relic.kind == "reliquary":
            kept[name] = str(into)
        else:
            kept[str(into)] = name
    seat = replace(seat, money=add(seat.money, i, -relic.price), relics=(*seat.relics, relic),
                   kept=tuple(sorted(kept.items())))
    st = st.with_seat(seat)
    if shown.insured is not None:  # « rend le membre de la famille à son propriétaire »
        owner = st.seat(shown.insured)
        st = st.with_seat(replace(owner, reserve=owner.reserve + 1))
    display = tuple(s for s in st.display if s is not shown)
    return flow.next_turn(evolve(st, display=display), st.passed)


def _insure(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    name = str(act.get("card"))
    shown = next((s for s in st.display if s.relic.name == name), None)
    if st.step != "insure" or shown is None or shown.insured is not None:
        raise _illegal(act, "one member insures one relic still on the display, on Sunday")
    seat = st.seat(who)
    if seat.reserve < 1:
        raise _illegal(act, "insuring takes one member from the reserve", "members")
    st = st.with_seat(replace(seat, reserve=seat.reserve - 1))
    display = tuple(Shown(s.relic, who) if s is shown else s for s in st.display)
    return flow.next_turn(evolve(st, display=display), st.passed)


def _home(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    n = int(act.get("members"))
    seat = st.seat(who)
    if st.step != "home" or not 0 <= n <= min(3, seat.street(st.home_from)):
        raise _illegal(act, f"up to 3 of one's members come home from the {st.home_from} "
                       "street, once", "members")
    seat = seat.with_street(st.home_from, seat.street(st.home_from) - n)
    st = st.with_seat(replace(seat, reserve=seat.reserve + n))
    return flow.next_turn(st, st.passed | {who})


def _exchange(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    give, get, n = str(act.get("give")), str(act.get("get")), int(act.get("amount"))
    seat = st.seat(who)
    if (st.step != "exchange" or give not in CURRENCIES or get not in CURRENCIES
            or give == get or not 1 <= n <= 5 or seat.coins(give) < n):
        raise _illegal(act, "up to 5 of one currency one has, into another, 1:1, once", "money")
    money = add(add(seat.money, CURRENCIES.index(give), -n), CURRENCIES.index(get), n)
    st = st.with_seat(replace(seat, money=money))
    return flow.next_turn(st, st.passed | {who})


def _give_good(st: State, who: str, good: str) -> State:
    """``who`` gets ``good`` from the supply (none when it is out), then the next roller."""
    g = GOODS.index(good)
    if st.supply[g] > 0:
        seat = st.seat(who)
        st = replace(st.with_seat(replace(seat, goods=add(seat.goods, g, 1))),
                     supply=add(st.supply, g, -1))
    rest = st.rolling[1:]
    st = evolve(st, rolling=rest, step="good_roll")
    return st if rest else flow.day(st, st.day)


def _good_roll(st: State, act: Act) -> State:
    face = int(act.get("face"))
    if st.step != "good_roll" or not st.rolling or not 1 <= face <= 6:
        raise _illegal(act, "no die for a good is waited for")
    if face == 6:  # the seed is silent: the player picks any good (docs/colonia.md)
        if "good_roll_six_again" in st.house:  # house rule: the 6 is rolled again
            return st
        return evolve(st, step="pick_good")
    return _give_good(st, st.rolling[0], RECIPE[CRAFTS[face - 1]][2])


def _pick_good(st: State, act: Act) -> State:
    who, good = str(act.get("player")), str(act.get("good"))
    if st.step != "pick_good" or who != st.rolling[0] or good not in GOODS:
        raise _illegal(act, f"{st.rolling[0] if st.rolling else 'nobody'} picks the good "
                       f"a 6 gives: one of {list(GOODS)}")
    return _give_good(st, who, good)


def _pass(st: State, act: Act) -> State:
    who = _my_turn(st, act)
    return flow.next_turn(st, st.passed | {who})


HANDLERS: dict[str, Callable[[State, Act], State]] = {
    ANSWER: _card_values, "reveal": _reveal, "fill_stalls": _fill_stalls,
    "add_materials": _add_materials,
    "reveal_family": _reveal_family, "tiebreak": _tiebreak, "reveal_votes": _reveal_votes,
    "mayor_decides": _mayor, "buy_stall": _buy_stall, "order": _order, "roll": _roll,
    "load": _load, "buy_relic": _buy_relic, "insure": _insure, "pass": _pass,
    "home": _home, "exchange": _exchange, "good_roll": _good_roll, "pick_good": _pick_good,
    "load_extra": _load_extra, "draw_materials": _draw_materials,
}

__all__ = ["WEEKS", "CardValueError", "apply", "sealed_choice"]
