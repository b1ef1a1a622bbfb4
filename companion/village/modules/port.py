"""*Le Port* (seed 003): the sea voyage, cocoa and tea at the market, treasures, deaths at
sea, as pure functions over the game state and a small Port sub-state.

The voyage is a sequence of small decisions, like the market day: recruit → load → sail
(one zone at a time) → disembark → island actions → leave; or anchor at sea; or, from sea,
return to port. ``voyage_options`` lists exactly the options of the step pending;
``apply_voyage`` refuses anything else with the rule broken and changes nothing then.
Rule numbers (PS…PA) are those of ``shared/design/port-and-life-goals.md``; the readings
chosen where the seed is silent are in ``docs/port-and-life-goals.md``.

Where a member is: ``("hold", colour)`` on its family's hold tile, ``("mission", church)``
on a mission church, ``("sea", index)`` in the sea cemetery.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations, combinations_with_replacement

from .. import deaths
from ..actions import Action, Pay, pay_of
from ..errors import IllegalAction
from ..payments import apply_pay, cube_options
from ..state import FARM, MAX_GRAIN, REMOVED, GameState, Player
from ..vocabulary import ALL_MEMBERS, INFLUENCE, Color, Cube, Good, Section, member_color
from .port_actions import (
    Anchor,
    CashTreasure,
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
    SellExotic,
)
from .port_data import ANY, FREE_MOVES, Captain, PortData, Rate

HOLD_SLOTS = 3  # PV6
PORT = "port"
TREASURE = "treasure:"


def kind_of(piece: str) -> str:
    """A hold piece's kind (PV7 allows one piece of each kind): ``member`` for a member id,
    ``treasure`` for ``treasure:<tile>``, else the piece itself (a good, grain, cocoa, tea)."""
    if piece in ALL_MEMBERS:
        return "member"
    if piece.startswith(TREASURE):
        return "treasure"
    return piece


@dataclass(slots=True)
class Ship:
    """One family's ship, hold tile, captain and Port goods on the farm."""

    zone: str = PORT
    hold: list[str] = field(default_factory=list)
    captain: str | None = None
    cocoa: int = 0  # unloaded on the farm, ready for the market
    tea: int = 0
    treasures: list[str] = field(default_factory=list)  # unloaded, face down (tile ids)

    def clone(self) -> Ship:
        return Ship(
            self.zone, list(self.hold), self.captain, self.cocoa, self.tea, list(self.treasures)
        )


@dataclass(slots=True)
class Voyage:
    """A Travel action in progress. ``step``: ``recruit``, ``load``, ``sail``, ``island`` or
    ``treasure`` (a treasure to draw: chance). ``credit``: extra moves paid for and not
    used yet (a green cube may buy 2 moves, PV17)."""

    player: Color
    step: str
    moves: int = 0
    credit: int = 0
    landed_ok: bool = False  # the last move entered an island: one may disembark

    def clone(self) -> Voyage:
        return replace(self)


@dataclass(slots=True)
class PortState:
    ships: dict[Color, Ship]
    captains: list[str]  # still in the three piles
    cocoa: int  # tiles left in the island stacks
    tea: int
    treasures: list[str]  # tile ids still face down on Treasure Island
    missions: dict[str, str | None]  # church → occupant
    cemetery: list[str | None]  # usable sea-cemetery spaces → occupant
    voyage: Voyage | None = None
    boxed: dict[str, int] = field(default_factory=lambda: {"cocoa": 0, "tea": 0})  # sold (PM7)
    cashed: list[str] = field(default_factory=list)  # treasures cashed, back in the box
    discarded: list[str] = field(default_factory=list)  # captains out of the game (PV30)
    data: PortData | None = None  # the printed values (shared, immutable)
    reported: dict[str, int] = field(default_factory=dict)  # tile → value its holder read

    def clone(self) -> PortState:
        return PortState(
            {c: s.clone() for c, s in self.ships.items()},
            list(self.captains),
            self.cocoa,
            self.tea,
            list(self.treasures),
            dict(self.missions),
            list(self.cemetery),
            self.voyage.clone() if self.voyage else None,
            dict(self.boxed),
            list(self.cashed),
            list(self.discarded),
            self.data,
            dict(self.reported),
        )


def new_port(players: tuple[Color, ...], data: PortData) -> PortState:
    """Port's part of the setup (PS4–PS10): ships in port, captains in their piles,
    stacks sized by player count, treasures face down, churches and cemetery empty.

    Raises ValueError when the player count has no stack size."""
    n = len(players)
    if n not in data.stacks:
        raise ValueError(f"Le Port has no stack size for {n} players")
    return PortState(
        ships={c: Ship() for c in players},
        captains=sorted(data.captains),
        cocoa=data.stacks[n],
        tea=data.stacks[n],
        treasures=sorted(data.treasures),
        missions=dict.fromkeys(sorted(data.churches)),
        cemetery=[None] * len(data.cemetery_spaces(n)),
        data=data,
    )


def add_extra_cubes(supply: dict[Cube, int], data: PortData) -> None:
    """PS11: the 12 extra influence cubes join the general supply."""
    for cube, n in data.extra_cubes.items():
        supply[cube] += n


def influence_per_colour(base: int, data: PortData) -> dict[Cube, int]:
    """Cubes of each colour in play with Port (for the conservation invariant)."""
    return {c: base + data.extra_cubes.get(c, 0) for c in INFLUENCE}


def hold_counts(ps: PortState | None, color: Color) -> dict[str, int]:
    """Pieces on ``color``'s hold tile, by kind."""
    out: dict[str, int] = {}
    if ps is None:
        return out
    for piece in ps.ships[color].hold:
        k = kind_of(piece)
        out[k] = out.get(k, 0) + 1
    return out


def farm_counts(ps: PortState | None, color: Color) -> dict[str, int]:
    """Cocoa, tea and unloaded treasures in front of ``color``."""
    if ps is None:
        return {"cocoa": 0, "tea": 0, "treasure": 0}
    s = ps.ships[color]
    return {"cocoa": s.cocoa, "tea": s.tea, "treasure": len(s.treasures)}


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
            if p in ALL_MEMBERS and member_color(p) == action.player and st.members[p] == FARM
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
    ship, player = ps.ships[color], st.p[color]
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
        member = next(p for p in ship.hold if kind_of(p) == "member")
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
    player, ship = st.p[color], ps.ships[color]
    kind = kind_of(piece)
    if kind == "member":
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
            apply_pay(st.p[color], st.supply, action.pay)
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
    ship, player = ps.ships[color], st.p[color]
    deaths.spend_time(st, color, 1)
    ship.zone = PORT
    for piece in ship.hold:
        kind = kind_of(piece)
        if kind == "member":
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


# --- treasures, the market, deaths at sea, scoring ----------------------------------------


def cash_options(ps: PortState, color: Color) -> list[Action]:
    """PV31: each unloaded treasure may be cashed at any moment."""
    return [CashTreasure(color, t) for t in sorted(set(ps.ships[color].treasures))]


def cash_treasure(st: GameState, ps: PortState, data: PortData, action: CashTreasure) -> None:
    """Turn an unloaded treasure face up for its coins; the tile goes to the box. Raises
    IllegalAction (nothing changed) when the tile is not in front of the player."""
    ship = ps.ships[action.player]
    if action.tile not in ship.treasures:
        rule = "PV31: only a treasure unloaded at port, in front of you, can be cashed"
        raise IllegalAction(f"illegal: {action.to_json()!r} — {rule}", code="treasure", rule=rule)
    ship.treasures.remove(action.tile)
    ps.cashed.append(action.tile)
    st.p[action.player].coins += treasure_value(ps, data, action.tile)


def exotic_sales(st: GameState, ps: PortState, color: Color, free: bool) -> list[Action]:
    """PM2–PM4, PM8: a cocoa basket or tea bale from the farm (never from the hold), free
    for the trigger's first sale, else 1 green (or a coin) and 1 time; the stalls never
    close."""
    ship = ps.ships[color]
    pays = [()] if free else cube_options(st.p[color], {Cube.GREEN: 1})
    return [
        SellExotic(color, item, pay)
        for item, n in (("cocoa", ship.cocoa), ("tea", ship.tea))
        if n
        for pay in pays
    ]


def sell_exotic(
    st: GameState, ps: PortState, data: PortData, action: SellExotic, free: bool
) -> None:
    """PM5–PM7: 7 prestige for cocoa, 5 prestige and a coin for tea; the tile goes to the
    box. The sale counts as a sale for the free first one (PM4) but not as a customer
    served (ambiguity 9). Raises IllegalAction (nothing changed) when not an option."""
    if action not in exotic_sales(st, ps, action.player, free):
        rule = "PM2–PM4: a cocoa or tea unloaded on your farm, paid 1 green and 1 time unless free"
        raise IllegalAction(f"illegal: {action.to_json()!r} — {rule}", code="market", rule=rule)
    player, ship = st.p[action.player], ps.ships[action.player]
    apply_pay(player, st.supply, action.pay)
    setattr(ship, action.item, getattr(ship, action.item) - 1)
    ps.boxed[action.item] += 1
    prestige, coins = data.market[action.item]
    player.prestige += prestige
    player.coins += coins
    if st.day is not None and action.player == st.day.trigger:
        st.day.trigger_sales += 1
    if not free:
        deaths.spend_time(st, action.player, 1)


AT_SEA = frozenset({"hold", "mission"})


def bury_at_sea(st: GameState, ps: PortState, data: PortData, member: str) -> str | None:
    """PD1–PD2, PE2: a member dying on a hold tile or a mission church goes to the
    chronicle's Travel section if it has room, else to the next free space of the sea
    cemetery for its prestige, else (cemetery full: ambiguity 8) out of the game. Returns
    the end cause this death brings ("chronicle" or "sea"), if any; the caller records the
    end trigger as for any death. Raises ValueError for a member not at sea."""
    zone, where = st.members[member]
    if zone not in AT_SEA:
        raise ValueError(f"{member} is not on a hold or a mission church")
    color = member_color(member)
    if zone == "hold":
        ps.ships[color].hold.remove(member)
    else:
        ps.missions[where] = None
    n = len(st.players)
    if len(st.chronicle[Section.TRAVEL]) < st.data.chronicle_capacity(n)[Section.TRAVEL]:
        st.chronicle[Section.TRAVEL].append(member)
        st.members[member] = ("chronicle", Section.TRAVEL)
        return "chronicle" if deaths.chronicle_full(st) else None
    prestige = data.cemetery_spaces(n)
    free = [i for i, m in enumerate(ps.cemetery) if m is None]
    if not free:
        st.members[member] = REMOVED
        return None
    i = free[0]
    ps.cemetery[i] = member
    st.members[member] = ("sea", i)
    st.p[color].prestige += prestige[i]
    return "sea" if len(free) == 1 else None


def score_parts(parts: dict[str, int]) -> dict[str, int]:
    """PE4: no Travel step in the final scoring (sea prestige is won at once)."""
    out = dict(parts)
    out["final"] -= out["travel"]
    out["total"] -= out["travel"]
    out["travel"] = 0
    return out


def violations(st: GameState, ps: PortState, data: PortData) -> list[str]:
    """Port's invariants: holds of at most 3 pieces of different kinds whose members stand
    on them, one occupant per church agreeing with the members' places, the cemetery within
    its spaces, cocoa/tea/treasures/captains conserved."""
    out: list[str] = []
    for c, ship in ps.ships.items():
        kinds = [kind_of(p) for p in ship.hold]
        if len(ship.hold) > HOLD_SLOTS or len(set(kinds)) != len(kinds):
            out.append(f"{c} hold breaks PV6/PV7: {ship.hold}")
        for p in ship.hold:
            if p in ALL_MEMBERS and st.members[p] != ("hold", c):
                out.append(f"{p} on {c}'s hold but at {st.members[p]}")
        if ship.cocoa < 0 or ship.tea < 0:
            out.append(f"{c} has negative cocoa or tea")
    for cid, m in ps.missions.items():
        if m is not None and st.members[m] != ("mission", cid):
            out.append(f"church {cid} lists {m}, who is at {st.members[m]}")
    on_church = [m for m, loc in st.members.items() if loc[0] == "mission"]
    if sorted(on_church) != sorted(m for m in ps.missions.values() if m is not None):
        out.append("mission churches and member places disagree")
    in_sea = [m for m, loc in st.members.items() if loc[0] == "sea"]
    if sorted(in_sea) != sorted(m for m in ps.cemetery if m is not None):
        out.append("sea cemetery and member places disagree")
    n = data.stacks[len(st.players)]
    for item in ("cocoa", "tea"):
        total = getattr(ps, item) + ps.boxed[item]
        total += sum(getattr(s, item) + s.hold.count(item) for s in ps.ships.values())
        if total != n:
            out.append(f"{item}: {total} tiles, not {n}")
    tiles = list(ps.treasures) + list(ps.cashed)
    for s in ps.ships.values():
        tiles += s.treasures + [p[len(TREASURE) :] for p in s.hold if p.startswith(TREASURE)]
    if sorted(tiles) != sorted(data.treasures):
        out.append("treasure tiles not conserved")
    caps = list(ps.captains) + ps.discarded + [s.captain for s in ps.ships.values() if s.captain]
    if sorted(caps) != sorted(data.captains):
        out.append("captain cards not conserved")
    return out


def view(ps: PortState, viewer: str | None) -> dict[str, object]:
    """The sea board as ``viewer`` (a colour, or ``table``; None: everything) may see it: a
    treasure's tile, and so its value (``treasure_coins``), only to its holder until cashed
    (PV22, PV31)."""

    def tiles(color: Color, tiles: list[str]) -> list[str]:
        return sorted(tiles) if viewer in (None, color.value) else ["?"] * len(tiles)

    ships: dict[str, dict[str, object]] = {}
    for c, s in ps.ships.items():
        hold = [
            (TREASURE + "?" if p.startswith(TREASURE) and viewer not in (None, c.value) else p)
            for p in s.hold
        ]
        ships[c.value] = {
            "zone": s.zone,
            "hold": sorted(hold),
            "captain": s.captain,
            "cocoa": s.cocoa,
            "tea": s.tea,
            "treasures": tiles(c, s.treasures),
        }
        own = [*s.treasures, *(p[len(TREASURE) :] for p in s.hold if p.startswith(TREASURE))]
        if own and viewer in (None, c.value) and ps.data is not None:
            # unloaded and still on the hold: the holder knows the value of both
            ships[c.value]["treasure_coins"] = {
                t: treasure_value(ps, ps.data, t) for t in own
            }
    v = ps.voyage
    return {
        "ships": ships,
        "captains": sorted(ps.captains),
        "stacks": {"cocoa": ps.cocoa, "tea": ps.tea, "treasure": len(ps.treasures)},
        "missions": dict(sorted(ps.missions.items())),
        "cemetery": list(ps.cemetery),
        "places": _places(ps),
        "voyage": None
        if v is None
        else {"player": v.player.value, "step": v.step, "moves": v.moves, "credit": v.credit},
    }


def _places(ps: PortState) -> dict[str, dict[str, str]]:
    """Each sea zone's name in words and what waits there (``port_words``), for the pages."""
    from .port_words import waits_at, zone_name

    if ps.data is None:
        return {}
    left = {"cocoa": ps.cocoa, "tea": ps.tea, "treasure": len(ps.treasures)}
    return {
        z: {"name": zone_name(ps.data, z), "offers": waits_at(ps.data, z, left)}
        for z in ps.data.zones
    }
