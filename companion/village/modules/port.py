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

from .. import deaths
from ..actions import Action
from ..errors import IllegalAction
from ..payments import apply_pay, cube_options
from ..state import REMOVED, GameState
from ..vocabulary import Color, Cube, MemberId, Section, is_member, member_color
from .port_actions import (
    CashTreasure,
    SellExotic,
)
from .port_data import PortData
from .port_state import (
    HOLD_SLOTS,
    PORT,
    TREASURE,
    PortState,
    Ship,
    Voyage,
    add_extra_cubes,
    farm_counts,
    hold_counts,
    kind_of,
    new_port,
    port_of,
)
from .port_voyage import (
    RULES,
    apply_draw_treasure,
    apply_voyage,
    canonical,
    captain_options,
    draw_treasure_spec,
    island_options,
    load_options,
    rate_payments,
    refusal,
    return_to_port,
    sail_options,
    stack_tile,
    start_voyage,
    travel_possible,
    treasure_value,
    treasure_values,
    voyage_options,
)

__all__ = [  # the sub-state and the voyage are named here too: one place to import from
    "AT_SEA",
    "HOLD_SLOTS",
    "PORT",
    "RULES",
    "TREASURE",
    "PortState",
    "Ship",
    "Voyage",
    "add_extra_cubes",
    "apply_draw_treasure",
    "apply_voyage",
    "bury_at_sea",
    "canonical",
    "captain_options",
    "cash_options",
    "cash_treasure",
    "draw_treasure_spec",
    "exotic_sales",
    "farm_counts",
    "hold_counts",
    "island_options",
    "kind_of",
    "load_options",
    "new_port",
    "port_of",
    "rate_payments",
    "refusal",
    "return_to_port",
    "sail_options",
    "sell_exotic",
    "stack_tile",
    "start_voyage",
    "travel_possible",
    "treasure_value",
    "treasure_values",
    "view",
    "violations",
    "voyage_options",
]


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
    st.own(action.player).coins += treasure_value(ps, data, action.tile)


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
    player, ship = st.own(action.player), ps.ships[action.player]
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


def bury_at_sea(st: GameState, ps: PortState, data: PortData, member: MemberId) -> str | None:
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
        st.chronicle[Section.TRAVEL] = [*st.chronicle[Section.TRAVEL], member]  # whole
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
    st.own(color).prestige += prestige[i]
    return "sea" if len(free) == 1 else None


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
            if is_member(p) and st.members[p] != ("hold", c):
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
