"""The rules engine's public face: ``apply``, ``legal_actions``, ``pending``.

``apply(state, action)`` returns a new state or raises: ``MalformedAction`` (not an action),
``IllegalAction`` (the rules forbid it now; the message names the rule and the input) or,
through :func:`resolve`, ``AmbiguousAction``. It never changes the state it is given, and
holds no I/O, clock or randomness: chance enters as actions carrying their outcome.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

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
    Decision,
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
    parse_action,
)
from .errors import AmbiguousAction, IllegalAction
from .legal import BUY_FROM, legal_actions, privilege_options, space_options
from .payments import apply_pay
from .state import BAG, FARM, MAX_GRAIN, MONKS, GameState
from .vocabulary import INFLUENCE, MONK, Color, Cube, Good, Space, member_color


@dataclass(frozen=True, slots=True)
class Pending:
    """Who must decide what next. ``player`` is None for a chance point (``kind`` names the
    draw) and once the game is over."""

    kind: str
    player: Color | None
    detail: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player.value if self.player else None,
            **self.detail,
        }


def pending(st: GameState) -> Pending:
    """The decision or draw the game waits for."""
    phase = st.phase
    if phase == "reveal":
        n = min(len(st.to_reveal), len(st.unseen))
        return Pending("reveal_customers", None, {"slots": list(st.to_reveal[:n])})
    if phase == "fill":
        return Pending("fill_bag", None, {"round": st.round})
    if phase == "draw":
        return Pending("mass_draw", None, {"count": flow.draw_count(st)})
    if phase == "over":
        return Pending("over", None, {})
    if phase == "turn":
        final = st.final_queue is not None
        return Pending(
            "turn", st.current_color, {"final": final, "free": final and st.board_empty()}
        )
    if phase == "act":
        assert st.act_space is not None
        return Pending("action", st.current_color, {"space": st.act_space.value})
    if phase == "privilege":
        return Pending("privilege", st.current_color, {"max_level": st.privilege_max})
    if phase == "market":
        assert st.day is not None
        free = flow.serve_cost_free(st, st.day.turn)
        return Pending("market", st.day.turn, {"trigger": st.day.trigger.value, "free_sale": free})
    if phase == "death":
        assert st.death_player is not None
        return Pending("death", st.death_player, {})
    if phase == "buyout":
        order = [c.value for c in st.mass_order]
        return Pending("buyout", st.mass_order[0], {"out": st.mass_out, "order": order})
    if phase == "move":
        return Pending("church_move", st.mass_order[0], {"order": [c.value for c in st.mass_order]})
    raise AssertionError(f"unknown phase {phase!r}")


def is_chance(st: GameState) -> bool:
    return st.phase in ("reveal", "fill", "draw")


def is_legal(st: GameState, action: Action) -> bool:
    try:
        _check(st, action)
    except IllegalAction:
        return False
    return True


def apply(st: GameState, action: Action | dict[str, Any]) -> GameState:
    """The state after ``action``; raises MalformedAction or IllegalAction, state untouched."""
    if not isinstance(action, Action):
        action = parse_action(action)
    _check(st, action)
    return apply_unchecked(st, action)


def apply_unchecked(st: GameState, action: Action) -> GameState:
    """Apply an action already known legal (e.g. taken from ``legal_actions``)."""
    new = st.clone()
    HANDLERS[type(action)](new, action)
    return new


def resolve(st: GameState, partial: dict[str, Any]) -> Action:
    """The one legal action matching every field given in ``partial`` (sensors and quick
    taps may leave out what only one option fits). Raises IllegalAction if none matches and
    AmbiguousAction, listing the options, if several do."""
    matches = [
        a for a in legal_actions(st) if all(a.to_json().get(k) == v for k, v in partial.items())
    ]
    if not matches:
        raise IllegalAction(f"illegal: {partial!r} — no legal action matches", code="no_match")
    if len(matches) > 1:
        options = [a.to_json() for a in matches]
        raise AmbiguousAction(f"ambiguous: {partial!r} matches {len(matches)} actions", options)
    return matches[0]


# --- checking ---------------------------------------------------------------------------


def _check(st: GameState, action: Action) -> None:
    if action.chance:
        CHANCE_CHECKS[type(action)](st, action)
        return
    if is_chance(st) or st.phase == "over":
        p = pending(st)
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — the game waits for {p.kind}, not a decision",
            code="not_a_decision_point",
        )
    assert isinstance(action, Decision)
    expected = pending(st).player
    if action.player != expected:
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — it is {expected}'s decision, not {action.player}'s",
            code="not_your_turn",
        )
    canon = _canonical(st, action)
    if canon not in legal_actions(st):
        code, reason = _explain(st, action)
        raise IllegalAction(f"illegal: {action.to_json()!r} — {reason}", code=code, rule=reason)


def _canonical(st: GameState, action: Action) -> Action:
    """Rewrite member ids to their group representative (see ``legal``)."""
    member = getattr(action, "member", None)
    if isinstance(member, str) and isinstance(action, Decision):
        if member_color(member) == action.player:
            return replace(action, member=deaths.canonical_member(st, member))  # type: ignore[call-arg]
        return action
    if isinstance(action, Buyout) and all(member_color(m) == action.player for m in action.members):
        return replace(action, members=deaths.canonical_members(st, action.members))
    return action


RULES = {
    "harvest": "seed 000 « Récolter du grain »: needs at least one member on your farm",
    "family": "seed 000 « Famille »: a birth takes the youngest generation left; a recall "
    "brings home a living member from the board",
    "crafts": "seed 000 « Artisanat »: train a farm member (time), produce with a member in "
    "the building (time), or buy with the printed cubes/grain (coins replace cubes)",
    "market": "seed 000 « Marché »: serve a stall customer by handing over what it wants; "
    "every sale but the trigger's first costs 1 green cube (or a coin) and 1 time",
    "travel": "seed 000 « Voyage »: 2 time, 1 wagon and the path's 2 cubes; a farm member "
    "goes to a start city, a traveller one path onward",
    "council": "seed 000 « Chambre du conseil »: enter or advance for time + (2 green or 1 "
    "scroll); privileges of your level or lower",
    "church": "seed 000 « Église »: a farm member into the black bag for 1 brown or 3 time",
    "well": "seed 000 « Puits »: 3 influence cubes of one colour, while a cube remains on "
    "some action space",
    "death": "seed 000 « Un membre de la famille décède »: one of your oldest visible members",
    "buyout": "seed 000 « Messe » 1: 1 coin per own member in the black bag, 4 figures at most",
    "church_move": "seed 000 « Messe » 2: pay the grain printed between the windows",
}


def _explain(st: GameState, action: Action) -> tuple[str, str]:
    """Why a decision is illegal, naming the rule (best effort, never raises)."""
    p = pending(st)
    kind = p.kind
    t = action.type
    phase_of = {
        "take": "turn",
        "well": "turn",
        "free": "turn",
        "serve": "market",
        "pass": "market",
        "die": "death",
        "buyout": "buyout",
        "church_move": "church_move",
        "done": "church_move",
    }
    wanted = phase_of.get(t, "action")
    if t == "skip" and kind in ("action", "privilege"):
        wanted = kind
    if t == "privilege" and kind == "privilege":
        wanted = "privilege"
    if wanted != kind:
        return "wrong_step", f"the game waits for {kind} by {p.player}, not {t!r}"
    if isinstance(action, TakeCube):
        if not st.spaces[action.space].get(action.cube):
            return "no_such_cube", f"no {action.cube} cube on the {action.space} space"
        return "illegal", "seed 000 « Tour de jeu »"
    if isinstance(action, UseWell):
        if st.board_empty():
            return "well_closed", RULES["well"]
        if action.color not in INFLUENCE or st.p[action.player].cubes.get(action.color, 0) < 3:
            return "cannot_afford", RULES["well"]
        return "illegal", RULES["well"]
    if isinstance(action, FreeAction):
        return (
            "not_free",
            "seed 000 « Fin de la partie »: free actions only in final turns on an empty board",
        )
    if isinstance(action, Skip):
        return "illegal", "nothing to skip now"
    if kind == "action":
        space = st.act_space
        assert space is not None
        belongs = {
            Space.HARVEST: (Harvest,),
            Space.FAMILY: (Birth, Recall),
            Space.CRAFTS: (Train, Produce, Buy, Mill),
            Space.TRAVEL: (Travel,),
            Space.COUNCIL: (CouncilEnter, CouncilAdvance, Privilege),
            Space.CHURCH: (Church,),
        }[space]
        if not isinstance(action, belongs):
            return "wrong_space", f"you took the {space} action; {t!r} belongs to another space"
        member = getattr(action, "member", None)
        if member is not None and member_color(member) != action.player:
            return "not_your_member", f"{member} is not a {action.player} member"
        placed = isinstance(action, Train | Travel | CouncilEnter | Church)
        travelling = (
            isinstance(action, Travel) and st.members.get(member or "", ("",))[0] == "travel"
        )
        if member is not None and placed and st.members[member] != FARM and not travelling:
            return (
                "not_on_farm",
                f"{member} is not on your farm ({st.members[member][0]}); "
                "seed 000 « Famille » note: members go onto the board from the farm",
            )
        if isinstance(action, Travel):
            reason = _travel_problem(st, action)
            if reason:
                return reason
        pay = getattr(action, "pay", None)
        if pay is not None:
            short = _short_of(st, action.player, pay)
            if short:
                return "cannot_afford", f"{short}; {RULES[space.value]}"
            return "cannot_pay", f"that payment does not match the cost: {RULES[space.value]}"
        return "illegal", RULES[space.value]
    if kind == "privilege":
        return (
            "illegal",
            "seed 000 « Vue d'ensemble des privilèges »: a privilege of the level "
            f"reached ({st.privilege_max}) or lower, that does something",
        )
    key = {"market": "market", "death": "death", "buyout": "buyout", "church_move": "church_move"}
    return "illegal", RULES.get(key.get(kind, ""), f"not a legal option for {kind}")


def _short_of(st: GameState, color: Color, pay: tuple[tuple[str, int], ...]) -> str | None:
    """What the player lacks to make this payment, in words (None if they have it all)."""
    player = st.p[color]
    for res, n in pay:
        if res == "coin":
            have = player.coins
        elif res == "scroll":
            have = player.goods[Good.SCROLL]
        elif res == "time":
            continue
        else:
            have = player.cubes[Cube(res)]
        if have < n:
            return f"you pay {n} {res} but have {have}"
    return None


def _travel_problem(st: GameState, a: Travel) -> tuple[str, str] | None:
    """Why a trip is impossible before any payment question, if it is."""
    if st.p[a.player].goods[Good.WAGON] < 1:
        return "no_wagon", f"a trip needs a wagon; {RULES['travel']}"
    loc = st.members[a.member]
    if loc == FARM:
        starts = [c for c, _ in st.data.start_paths]
        if a.city not in starts:
            return "no_path", f"from the village a trip goes to a start city {starts}"
    elif loc[0] == "travel":
        near = [c for c, _ in st.data.adjacency[loc[1]]]
        if a.city not in near:
            return "no_path", f"from {loc[1]} one path leads to {near}, not {a.city!r}"
    return None


# --- chance -----------------------------------------------------------------------------


def _check_reveal(st: GameState, action: Action) -> None:
    assert isinstance(action, RevealCustomers)
    if st.phase != "reveal":
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — no customer tile is to be turned up now",
            code="not_a_chance_point",
        )
    want = list(st.to_reveal[: min(len(st.to_reveal), len(st.unseen))])
    slots = [s for s, _ in action.tiles]
    tiles = [t for _, t in action.tiles]
    if sorted(slots) != sorted(want):
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — tiles go on market spaces {want}", code="wrong_slots"
        )
    if len(set(tiles)) != len(tiles) or any(t not in st.unseen for t in tiles):
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — each tile must be a different one "
            "still in the face-down stack",
            code="not_in_stack",
        )


def bag_after_fill(st: GameState) -> dict[Cube, int]:
    """The green bag once the setup card's cubes and all supply plague are in (seed 000
    « Approvisionner les cases Action »; short supply adds what there is)."""
    card = st.data.bag[len(st.players)]
    bag = dict(st.bag)
    for c in INFLUENCE:
        bag[c] += min(card[c], st.supply[c])
    bag[Cube.PLAGUE] += st.supply[Cube.PLAGUE]
    return bag


def _check_fill(st: GameState, action: Action) -> None:
    assert isinstance(action, FillBag)
    js = action.to_json()
    if st.phase != "fill":
        raise IllegalAction(
            f"illegal: {js!r} — the green bag is filled only at round start",
            code="not_a_chance_point",
        )
    bag = bag_after_fill(st)
    card = st.data.space_cubes[len(st.players)]
    drawn: dict[Cube, int] = {}
    per_space: dict[Space, int] = {}
    for space, cubes in action.spaces:
        per_space[space] = sum(n for _, n in cubes)
        for cube, n in cubes:
            if n < 0:
                raise IllegalAction(f"illegal: {js!r} — negative count", code="bad_count")
            drawn[cube] = drawn.get(cube, 0) + n
    for cube, n in drawn.items():
        if n > bag[cube]:
            raise IllegalAction(
                f"illegal: {js!r} — the bag holds only {bag[cube]} {cube} cube(s)",
                code="not_in_bag",
            )
    total = sum(bag.values())
    need = sum(card.values())
    for space in Space:
        got = per_space.get(space, 0)
        if got > card[space] or (total >= need and got != card[space]):
            raise IllegalAction(
                f"illegal: {js!r} — the setup card puts {card[space]} cube(s) on {space}, "
                f"not {got}",
                code="wrong_count",
                rule="setup card (board data setup.N.spaces)",
            )
    if sum(per_space.values()) != min(total, need):
        raise IllegalAction(
            f"illegal: {js!r} — {min(total, need)} cubes are drawn in all", code="wrong_count"
        )


def _check_draw(st: GameState, action: Action) -> None:
    assert isinstance(action, MassDraw)
    js = action.to_json()
    if st.phase != "draw":
        raise IllegalAction(f"illegal: {js!r} — no mass draw now", code="not_a_chance_point")
    if len(action.figures) != flow.draw_count(st):
        raise IllegalAction(
            f"illegal: {js!r} — {flow.draw_count(st)} figure(s) are drawn",
            code="wrong_count",
            rule="seed 000 « Messe » 1: 4 figures in all",
        )
    monks = sum(1 for f in action.figures if f == MONK)
    members = [f for f in action.figures if f != MONK]
    if (
        monks > MONKS
        or len(set(members)) != len(members)
        or any(st.members[m] != BAG for m in members)
    ):
        raise IllegalAction(
            f"illegal: {js!r} — those figures are not all in the black bag", code="not_in_bag"
        )


CHANCE_CHECKS = {RevealCustomers: _check_reveal, FillBag: _check_fill, MassDraw: _check_draw}


# --- handlers (on a fresh clone, action known legal) --------------------------------------


def _reveal(st: GameState, a: Action) -> None:
    assert isinstance(a, RevealCustomers)
    for slot, tile in a.tiles:
        st.market[slot] = tile
        st.unseen.discard(tile)
    st.to_reveal = ()
    if st.after_reveal == "fill":
        st.phase = "fill"
    else:
        flow.end_turn(st)


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
    st.phase = "turn"


def _mass_draw(st: GameState, a: Action) -> None:
    assert isinstance(a, MassDraw)
    for f in a.figures:
        if f != MONK:
            st.members[f] = ("church", 1)
    st.mass_out += len(a.figures)
    flow.start_moves(st)


def _enter_space(st: GameState, space: Space) -> None:
    if space is Space.MARKET:
        flow.start_market(st)
        return
    st.phase = "act"
    st.act_space = space
    if not space_options(st, st.current_color, space):
        flow.finish_action(st)


def _take(st: GameState, a: Action) -> None:
    assert isinstance(a, TakeCube)
    st.spaces[a.space][a.cube] -= 1
    if a.cube is Cube.PLAGUE:
        st.supply[Cube.PLAGUE] += 1
        deaths.spend_time(st, a.player, 2)
    else:
        st.p[a.player].cubes[a.cube] += 1
    _enter_space(st, a.space)


def _well(st: GameState, a: Action) -> None:
    assert isinstance(a, UseWell)
    st.p[a.player].cubes[a.color] -= 3
    st.supply[a.color] += 3
    _enter_space(st, a.space)


def _free(st: GameState, a: Action) -> None:
    assert isinstance(a, FreeAction)
    _enter_space(st, a.space)


def _skip(st: GameState, a: Action) -> None:
    flow.finish_action(st)


def _harvest(st: GameState, a: Action) -> None:
    assert isinstance(a, Harvest)
    player = st.p[a.player]
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
        st.p[a.player].goods[a.good] += 1
    deaths.spend_time(st, a.player, time)
    flow.finish_action(st)


def _produce(st: GameState, a: Action) -> None:
    assert isinstance(a, Produce)
    st.p[a.player].goods[a.good] += 1
    deaths.spend_time(st, a.player, st.data.crafts[a.building].produce)
    flow.finish_action(st)


def _buy(st: GameState, a: Action) -> None:
    assert isinstance(a, Buy)
    player = st.p[a.player]
    apply_pay(player, st.supply, a.pay)
    player.grain -= st.data.crafts[BUY_FROM[a.good]].buy_grain
    player.goods[a.good] += 1
    flow.finish_action(st)


def _mill(st: GameState, a: Action) -> None:
    assert isinstance(a, Mill)
    player = st.p[a.player]
    player.grain -= 2
    player.coins += 2
    deaths.spend_time(st, a.player, 2)
    flow.finish_action(st)


def _serve(st: GameState, a: Action) -> None:
    assert isinstance(a, Serve) and st.day is not None
    player = st.p[a.player]
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
    player = st.p[a.player]
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
    apply_pay(st.p[a.player], st.supply, a.pay)
    st.members[a.member] = ("council", 1)
    deaths.spend_time(st, a.player, st.data.council_enter_time)
    _offer_privilege(st, a.player, 1)


def _council_advance(st: GameState, a: Action) -> None:
    assert isinstance(a, CouncilAdvance)
    apply_pay(st.p[a.player], st.supply, a.pay)
    level = st.members[a.member][1] + 1
    st.members[a.member] = ("council", level)
    deaths.spend_time(st, a.player, st.data.council_advance_time[level])
    _offer_privilege(st, a.player, level)


def _offer_privilege(st: GameState, color: Color, level: int) -> None:
    st.privilege_max = level
    st.phase = "privilege"
    if not privilege_options(st, color, level):
        flow.finish_action(st)


def _privilege(st: GameState, a: Action) -> None:
    assert isinstance(a, Privilege)
    player = st.p[a.player]
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
    time = apply_pay(st.p[a.player], st.supply, a.pay)
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
    st.p[a.player].coins -= len(a.members)
    for m in a.members:
        st.members[m] = ("church", 1)
    st.mass_out += len(a.members)
    st.mass_order.pop(0)
    flow.advance_buyout(st)


def _church_move(st: GameState, a: Action) -> None:
    assert isinstance(a, ChurchMove)
    window = st.members[a.member][1]
    st.p[a.player].grain -= flow.move_cost(st, window)
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

__all__ = [
    "Pending",
    "apply",
    "apply_unchecked",
    "is_chance",
    "is_legal",
    "legal_actions",
    "pending",
    "resolve",
]
