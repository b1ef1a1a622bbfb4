"""*Le Port*'s voyage: the options of the step pending (recruit → load → sail → disembark →
island actions → leave; or anchor; or return to port) and their effects, refused with the
rule broken (PV…, ``shared/design/port-and-life-goals.md``) and nothing changed then."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from .. import deaths
from ..actions import Action, Pay, pay_of
from ..errors import IllegalAction
from ..payments import apply_pay, cube_options
from ..state import FARM, MAX_GRAIN, GameState, Player
from ..vocabulary import INFLUENCE, Color, Cube, Good, is_member, member_color
from .port_actions import (
    Anchor,
    Disembark,
    DrawTreasure,
    IslandSell,
    IslandTake,
    LeaveIsland,
    Load,
    Mission,
    Recruit,
    ReturnPort,
    Sail,
)
from .port_data import ANY, FREE_MOVES, Captain, PortData, Rate
from .port_state import (
    HOLD_SLOTS,
    PORT,
    TREASURE,
    PortState,
    Ship,
    Voyage,
    hold_counts,
    kind_of,
)

# --- the voyage: options ------------------------------------------------------------------


def start_voyage(st: GameState, ps: PortState, color: Color) -> None:
    """The Travel space's action begins (PV1): from port, recruit first (PV2); at sea,
    sail on or return (PV27, PV28)."""
    at_sea = ps.ships[color].zone != PORT
    ps.voyage = Voyage(color, "sail" if at_sea else "recruit")


def captain_options(st: GameState, ps: PortState, data: PortData, color: Color) -> list[Action]:
    """PV3, PV34: one option per kind of card one can pay (identical cards are one choice,
    under the lowest id)."""
    coins = st.p[color].coins
    seen: dict[tuple[int, Rate], str] = {}
    for cid in ps.captains:
        cap = data.captains[cid]
        if cap.cost <= coins:
            seen.setdefault((cap.cost, cap.rate), cid)
    return [Recruit(color, cid) for cid in sorted(seen.values())]


def _loadable(st: GameState, ps: PortState, color: Color) -> list[str]:
    """One piece per distinct choice (PV9, PV10): goods, grain, cocoa, tea and treasures
    owned on the farm; members on the farm, one per generation."""
    player, ship = st.p[color], ps.ships[color]
    out = [g.value for g in Good if player.goods[g] > 0]
    if player.grain > 0:
        out.append("grain")
    if ship.cocoa:
        out.append("cocoa")
    if ship.tea:
        out.append("tea")
    out.extend(TREASURE + t for t in ship.treasures)
    out.extend(deaths.representatives(st, st.family(color, frozenset({"farm"}))))
    return out


def load_options(st: GameState, ps: PortState, color: Color) -> list[Action]:
    """PV6–PV10: every set of at most 3 pieces of different kinds, the empty set included."""
    pieces = _loadable(st, ps, color)
    out: list[Action] = []
    for k in range(HOLD_SLOTS + 1):
        for combo in combinations(pieces, k):
            kinds = [kind_of(p) for p in combo]
            if len(set(kinds)) == len(kinds):
                out.append(Load(color, tuple(sorted(combo))))
    return out


def rate_payments(player: Player, rate: Rate) -> list[Pay]:
    """Every way to pay one lot of ``rate`` (coins stand in for cubes: ambiguity 1)."""
    fixed: dict[Cube, int] = {}
    for c in rate.cubes:
        if c != ANY:
            fixed[Cube(c)] = fixed.get(Cube(c), 0) + 1
    n_any = rate.cubes.count(ANY)
    out: set[Pay] = set()
    for base in cube_options(player, fixed):
        spent = dict(base)
        for combo in combinations_with_replacement((*(c.value for c in INFLUENCE), "coin"), n_any):
            total = dict(spent)
            for res in combo:
                total[res] = total.get(res, 0) + 1
            have = {c.value: player.cubes[c] for c in INFLUENCE} | {"coin": player.coins}
            if all(n <= have[r] for r, n in total.items()):
                out.add(pay_of(total))
    return sorted(out)


def _move_pays(st: GameState, ps: PortState, data: PortData, color: Color) -> list[Pay]:
    voyage = ps.voyage
    assert voyage is not None
    if voyage.moves < FREE_MOVES or voyage.credit > 0:
        return [()]
    captain = ps.ships[color].captain
    assert captain is not None
    return rate_payments(st.p[color], data.captains[captain].rate)


def sail_options(st: GameState, ps: PortState, data: PortData, color: Color) -> list[Action]:
    """PV11–PV17: a move to each neighbouring sea zone (never back into port: that is the
    return, PV28), with each way to pay for it."""
    zone = ps.ships[color].zone
    pays = _move_pays(st, ps, data, color)
    return [
        Sail(color, to, pay) for to in data.lanes[zone] if data.zones[to] != PORT for pay in pays
    ]


def island_options(st: GameState, ps: PortState, data: PortData, color: Color) -> list[Action]:
    """PV19–PV25, PV32: what the island one has landed on allows now, and leaving."""
    ship = ps.ships[color]
    island = data.islands.get(ship.zone)
    out: list[Action] = []
    counts = hold_counts(ps, color)
    if island is not None:
        out.extend(IslandSell(color, k) for k in sorted(island.sells) if counts.get(k))
        stack = island.stack
        left = {"cocoa": ps.cocoa, "tea": ps.tea, "treasure": len(ps.treasures)}
        if (
            stack is not None
            and left[stack] > 0
            and len(ship.hold) < HOLD_SLOTS
            and not counts.get(stack)
        ):
            out.append(IslandTake(color))
        if counts.get("member"):
            for cid in island.churches:
                church = data.churches[cid]
                if ps.missions[cid] is not None or counts.get("wagon", 0) < church.wagon:
                    continue
                need = dict(church.cubes)
                out.extend(Mission(color, cid, pay) for pay in cube_options(st.p[color], need))
    out.append(LeaveIsland(color))
    return out


def voyage_options(st: GameState, ps: PortState, data: PortData) -> list[Action]:
    """The options of the voyage step pending (empty when none is, or at the treasure
    draw, a chance point)."""
    v = ps.voyage
    if v is None:
        return []
    c = v.player
    if v.step == "recruit":
        return captain_options(st, ps, data, c)
    if v.step == "load":
        return load_options(st, ps, c)
    if v.step == "sail":
        out = sail_options(st, ps, data, c)
        if v.moves == 0 and ps.ships[c].zone != PORT:
            out.append(ReturnPort(c))  # c) instead of sailing on (PV28)
        if v.moves >= 1:
            out.append(Anchor(c))
            if v.landed_ok:
                out.append(Disembark(c))
        return out
    if v.step == "island":
        return island_options(st, ps, data, c)
    return []


def travel_possible(st: GameState, ps: PortState, data: PortData, color: Color) -> bool:
    """Whether the Travel action can do anything (PV34: no affordable captain, no leaving)."""
    if ps.ships[color].zone != PORT:
        return True
    return bool(captain_options(st, ps, data, color))


# --- the voyage: effects ------------------------------------------------------------------


RULES = {
    "recruit": "PV3/PV34: a captain still in the piles whose coins you can pay",
    "load": "PV6–PV10: at most 3 pieces you own, of different kinds, members from the farm",
    "sail": "PV11–PV14: a neighbouring sea zone, the first move free, each further move at "
    "your captain's rate",
    "disembark": "PV18: only on entering an island zone",
    "anchor": "stop only after moving at least one zone",
    "island_sell": "PV20: a piece on your hold that this island buys",
    "island_take": "PV21/PV32/PV7: the island has a stack, your hold has an empty slot and no "
    "piece of that kind",
    "mission": "PV23/PV24: an empty church on this island, a member on your hold, its cost paid "
    "(a wagon from the hold, cubes from the farm)",
    "leave_island": "only on an island you have landed on",
    "return_port": "PV28: return to port instead of sailing, from sea only",
}


def refusal(st: GameState, ps: PortState, data: PortData, action: Action) -> str | None:
    """Why ``action`` is not an option of the voyage step pending (None when it is)."""
    v = ps.voyage
    if v is None:
        return "no voyage is in progress (the Travel action was not chosen)"
    if getattr(action, "player", None) != v.player:
        return f"it is {v.player}'s voyage"
    if canonical(st, ps, data, action) in voyage_options(st, ps, data):
        return None
    step_of = {"recruit": "recruit", "load": "load", "island": "island"}
    rule = RULES.get(action.type, "not a voyage action")
    return f"{rule} (the voyage waits for: {step_of.get(v.step, v.step)})"


def canonical(st: GameState, ps: PortState, data: PortData, action: Action) -> Action:
    """Identical captain cards and interchangeable members name one option."""
    if isinstance(action, Recruit) and action.captain in ps.captains:
        cap = data.captains[action.captain]
        same = [
            c
            for c in ps.captains
            if (data.captains[c].cost, data.captains[c].rate) == (cap.cost, cap.rate)
        ]
        return Recruit(action.player, min(same))
    if isinstance(action, Load):
        cargo = tuple(
            deaths.canonical_member(st, p)
            if is_member(p) and member_color(p) == action.player and st.members[p] == FARM
            else p
            for p in action.cargo
        )
        return Load(action.player, tuple(sorted(cargo)))
    return action


def apply_voyage(st: GameState, ps: PortState, data: PortData, action: Action) -> bool:
    """Apply a voyage decision to ``st`` and ``ps`` (the engine's fresh clones). Returns
    True when the Travel action is over (the turn goes on as after any action). Raises
    IllegalAction naming the rule, with nothing changed."""
    reason = refusal(st, ps, data, action)
    if reason:
        raise IllegalAction(f"illegal: {action.to_json()!r} — {reason}", code="voyage", rule=reason)
    action = canonical(st, ps, data, action)
    v = ps.voyage
    assert v is not None
    color = v.player
    ship, player = ps.ships[color], st.own(color)
    if isinstance(action, Recruit):
        cap: Captain = data.captains[action.captain]
        player.coins -= cap.cost
        ps.captains.remove(cap.id)
        ship.captain = cap.id
        v.step = "load"
        return False
    if isinstance(action, Load):
        for piece in action.cargo:
            _to_hold(st, ps, color, piece)
        v.step = "sail"
        return False
    if isinstance(action, Sail):
        _sail(st, ps, data, action)
        return False
    if isinstance(action, Disembark):
        v.step = "island"
        return False
    if isinstance(action, Anchor | LeaveIsland):
        ps.voyage = None
        return True
    if isinstance(action, IslandSell):
        _take_from_hold(ship, action.item)
        player.prestige += data.islands[ship.zone].sells[action.item]
        return False
    if isinstance(action, IslandTake):
        stack = data.islands[ship.zone].stack
        if stack == "treasure":
            v.step = "treasure"  # the top tile is drawn: chance (draw_treasure)
        elif stack == "cocoa":
            ps.cocoa -= 1
            ship.hold.append("cocoa")
        else:
            ps.tea -= 1
            ship.hold.append("tea")
        return False
    if isinstance(action, Mission):
        church = data.churches[action.church]
        for _ in range(church.wagon):
            _take_from_hold(ship, Good.WAGON.value)
        time = apply_pay(player, st.supply, action.pay)
        deaths.spend_time(st, color, time)
        member = next(p for p in ship.hold if is_member(p))
        ship.hold.remove(member)
        st.members[member] = ("mission", church.id)
        ps.missions[church.id] = member
        player.prestige += church.prestige
        return False
    assert isinstance(action, ReturnPort)
    return_to_port(st, ps, color)
    ps.voyage = None
    return True


def _to_hold(st: GameState, ps: PortState, color: Color, piece: str) -> None:
    player, ship = st.own(color), ps.ships[color]
    kind = kind_of(piece)
    if is_member(piece):
        st.members[piece] = ("hold", color)
    elif kind == "treasure":
        ship.treasures.remove(piece[len(TREASURE) :])
    elif kind == "grain":
        player.grain -= 1
    elif kind in ("cocoa", "tea"):
        setattr(ship, kind, getattr(ship, kind) - 1)
    else:
        player.goods[Good(kind)] -= 1
    ship.hold.append(piece)


def _take_from_hold(ship: Ship, kind: str) -> None:
    """Remove the piece of ``kind`` from the hold (it goes back to the supply)."""
    piece = next(p for p in ship.hold if kind_of(p) == kind)
    ship.hold.remove(piece)


def _sail(st: GameState, ps: PortState, data: PortData, action: Sail) -> None:
    v = ps.voyage
    assert v is not None
    color = v.player
    if v.moves >= FREE_MOVES:
        if action.pay:
            captain = ps.ships[color].captain
            assert captain is not None
            apply_pay(st.own(color), st.supply, action.pay)
            v.credit += data.captains[captain].rate.moves - 1
        else:
            v.credit -= 1
    v.moves += 1
    ps.ships[color].zone = action.zone
    kind = data.zones[action.zone]
    if kind == "time":
        deaths.spend_time(st, color, 1)  # PV16: entering a time zone costs 1 time
    v.landed_ok = kind == "island"


def draw_treasure_spec(ps: PortState) -> tuple[str, ...]:
    """The treasure tiles that may come out (face down, so any of those left)."""
    return tuple(sorted(ps.treasures)) if ps.voyage and ps.voyage.step == "treasure" else ()


def apply_draw_treasure(ps: PortState, action: DrawTreasure) -> None:
    """The drawn treasure goes face down onto the taker's hold (PV21, PV22). Raises
    IllegalAction when no treasure is being taken, the stack is empty or the tile is not
    one of the box's."""
    v = ps.voyage
    if v is None or v.step != "treasure":
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — no treasure is being taken", code="not_a_chance_point"
        )
    tile = stack_tile(ps, action.tile)
    if tile is None and ps.data is not None and action.tile in ps.data.treasures and ps.treasures:
        # No tile of the value read is left by the companion's count: an earlier taker
        # misread theirs, or this one did. Refusing would tell the taker that every tile of
        # that value is held by others (issue 14), and would turn away an honest player for
        # someone else's misread; so the value is taken as reported, on a tile still in the
        # stack (the lowest id, so a replay takes the same). Cashing it, in view, settles it.
        tile = sorted(ps.treasures)[0]
        ps.reported[tile] = ps.data.treasures[action.tile]
    if tile is None:
        known = ps.data is not None and action.tile in ps.data.treasures
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — "
            + ("no treasure tile is left in the stack" if known
               else f"{action.tile!r} is not a treasure tile of this box"),
            code="not_in_stack",
        )
    ps.treasures.remove(tile)
    ps.ships[v.player].hold.append(TREASURE + tile)
    v.step = "island"


def stack_tile(ps: PortState, tile: str) -> str | None:
    """The face-down tile a draw naming ``tile`` takes: that one if still in the stack,
    else the first left of the same value (tiles of one value are alike at the table, so a
    player reporting the value drawn names the first tile of it), None if none is left."""
    if tile in ps.treasures:
        return tile
    if ps.data is None or tile not in ps.data.treasures:
        return None
    coins = ps.data.treasures[tile]
    return next((t for t in sorted(ps.treasures) if ps.data.treasures[t] == coins), None)


def treasure_value(ps: PortState, data: PortData, tile: str) -> int:
    """The coins a treasure is worth: as printed, or as its holder reported it (a value
    the stack had run out of, see `apply_draw_treasure`)."""
    return ps.reported.get(tile, data.treasures[tile])


def treasure_values(ps: PortState) -> dict[int, str]:
    """Each printed treasure value with the first tile of it: what a player who drew a
    tile by hand may report, whatever is left in the stack (the list must not tell what
    the others drew)."""
    if ps.data is None:
        return {}
    out: dict[int, str] = {}
    for tile, coins in sorted(ps.data.treasures.items()):
        out.setdefault(coins, tile)
    return dict(sorted(out.items()))


def return_to_port(st: GameState, ps: PortState, color: Color) -> None:
    """PV28–PV30: the ship in port for 1 time, everything on the hold in front of its
    owner (members to the farm; grain up to the farm's 5 sacks, ambiguity 6), the captain
    out of the game."""
    ship, player = ps.ships[color], st.own(color)
    deaths.spend_time(st, color, 1)
    ship.zone = PORT
    for piece in ship.hold:
        kind = kind_of(piece)
        if is_member(piece):
            st.members[piece] = FARM
        elif kind == "treasure":
            ship.treasures.append(piece[len(TREASURE) :])
        elif kind == "grain":
            player.grain = min(MAX_GRAIN, player.grain + 1)
        elif kind in ("cocoa", "tea"):
            setattr(ship, kind, getattr(ship, kind) + 1)
        else:
            player.goods[Good(kind)] += 1
    ship.hold = []
    if ship.captain is not None:
        ps.discarded.append(ship.captain)
        ship.captain = None
