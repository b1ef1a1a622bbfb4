"""Port's and Life goals' actions and steps in plain words for the table (in their modules'
tables: ``headlines``, ``places``, ``now``, ``steps``, ``space_refusals``). A treasure's
value and a dealt goal are never named to the table."""

from __future__ import annotations

from typing import Any

from companion.games.words import join_words

from ..actions import Action
from ..pending import Pending
from ..state import GameState
from ..vocabulary import Color
from ..words import article, colour_name, member_name, pay_text
from . import goal_actions as ga
from . import port_actions as pa
from .life_goals import FRENCH
from .port import port_of, treasure_value
from .port_state import HOLD_SLOTS
from .port_words import island_reasons, waits_at, zone_name

ITEMS = {"grain": "a sack of grain", "cocoa": "a cocoa basket", "tea": "a tea bale"}


def _piece(piece: str) -> str:
    if piece.startswith("treasure:"):
        return "a treasure"
    if "-" in piece:
        return member_name(piece)
    return ITEMS.get(piece, article(piece))


def _who(a: Action) -> str:
    return colour_name(getattr(a, "player", ""))


def headline(before: GameState, a: Any, after: GameState, viewer: str) -> str:
    """What a module's action did."""
    who = _who(a)
    if isinstance(a, pa.Recruit):
        ps = port_of(before)
        data = ps.data if ps else None
        if data is None or a.captain not in data.captains:
            return f"{who} hires a captain."
        cap = data.captains[a.captain]
        rate = " + ".join(c if c != "any" else "any cube" for c in cap.rate.cubes)
        moves = f"{cap.rate.moves} extra move{'s' if cap.rate.moves > 1 else ''}"
        price = f"{cap.cost} coin{'s' if cap.cost != 1 else ''}"
        return f"{who} hires a captain ({rate} per {moves}) for {price}."
    if isinstance(a, pa.Load):
        cargo = ", ".join(_piece(p) for p in a.cargo) or "nothing"
        return f"{who} loads the ship: {cargo}."
    if isinstance(a, pa.Sail):
        paid = f", paying {pay_text(a.pay)}" if a.pay else ""
        ps = port_of(before)
        data = ps.data if ps is not None else None
        return f"{who}'s ship sails to {zone_name(data, a.zone)}{paid}."
    if isinstance(a, pa.Disembark):
        return f"{who} lands on the island."
    if isinstance(a, pa.Anchor):
        return f"{who}'s ship stays at sea."
    if isinstance(a, pa.IslandSell):
        return f"{who} sells {_piece(a.item)} to the island."
    if isinstance(a, pa.IslandTake):
        return f"{who} {_lower_first(steps(before, a)[0]).replace('take ', 'takes ', 1)}."
    if isinstance(a, pa.Mission):
        paid = f", paying {pay_text(a.pay)}" if a.pay else ""
        return f"{who} leaves a missionary at mission church {a.church}{paid}."
    if isinstance(a, pa.LeaveIsland):
        return f"{who} is done on the island."
    if isinstance(a, pa.ReturnPort):
        return f"{who}'s ship returns to port and unloads."
    if isinstance(a, pa.SellExotic):
        return f"{who} sells {ITEMS[a.item]} at the market."
    if isinstance(a, pa.CashTreasure):
        ps = port_of(before)
        coins = treasure_value(ps, ps.data, a.tile) if ps is not None and ps.data else 0
        return f"{who} turns a treasure face up: {coins} coins."
    if isinstance(a, pa.DrawTreasure):
        return "A treasure is drawn, face down."
    if isinstance(a, ga.DealGoals):
        dealt = {c for c, _ in a.hands}
        names = join_words([colour_name(c) for c in before.players if c in dealt])
        goals = "goal" if len(dealt) == 1 else "goals"
        return f"{a.tier.capitalize()} life {goals} dealt, face down, to {names}."
    if isinstance(a, ga.ClaimGoal):
        return f"{who} reveals the life goal {FRENCH[a.goal]}."
    return f"{a.type}."


def now_voyage(st: GameState, p: Pending) -> str:
    who = colour_name(p.player) if p.player else ""
    step = p.detail.get("step")
    words = {
        "recruit": "hire a captain",
        "load": "load the ship (up to 3 different pieces)",
        "sail": "sail on, stop, or land",
        "island": "sell, take, place a missionary, or leave the island",
    }
    if step == "island" and p.player is not None:
        return _now_island(st, p.player)
    return f"Now {who}: {words.get(str(step), 'the voyage')}."


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def _now_island(st: GameState, color: Any) -> str:
    """What the island allows now, and why the rest is not on offer."""
    from ..legal import legal_actions

    kinds = {a.type for a in legal_actions(st)}
    take = next((o for o in legal_actions(st) if o.type == "island_take"), None)
    words = {
        "island_sell": "sell to the island",
        "island_take": _lower_first(steps(st, take)[0]) if take else "",
        "mission": "leave a missionary",
    }
    can = [w for k, w in words.items() if k in kinds]
    ps = port_of(st)
    zone = ps.ships[color].zone if ps is not None else ""
    where = zone_name(ps.data if ps is not None else None, zone)
    what = ", ".join(can) + ", or leave" if can else "leave"
    why = island_reasons(st, color)
    return f"Now {colour_name(color)}, on {where}: {what}." + (
        f" Not here: {'; '.join(why)}." if why else ""
    )


def now_draw(st: GameState, p: Pending) -> str:
    return "Next: draw the top treasure tile (its holder looks at it secretly)."


def now_deal(st: GameState, p: Pending) -> str:
    """Names nobody: players report their tiles one by one on their phones, sealed, so a
    list of names here would go stale in the log (the play page says who is left)."""
    return (
        f"Next: the {p.detail.get('tier')} life goals, face down: each player draws one, or "
        "the tablet deals them."
    )


PLACES = {
    "hold": lambda detail: f"{colour_name(detail)}'s ship",
    "mission": lambda detail: f"mission church {detail}",
    "sea": lambda detail: "the sea cemetery",
}
PORT_NOW = {"voyage": now_voyage, "draw_treasure": now_draw}
GOALS_NOW = {"deal_silver": now_deal, "deal_gold": now_deal}


def travel_refusal(st: GameState, c: Color) -> str:
    """Why the voyage is out of reach (Le Port replaces the travel map: it needs a captain
    paid in coins)."""
    ps = port_of(st)
    assert ps is not None
    if ps.ships[c].zone == "port":
        return "Le Port: no captain you can pay (coins) for a voyage"
    return "Le Port: the ship can neither sail on nor return to port now"


def steps(st: GameState, a: Any) -> list[str]:
    """How a person picks a module's action on the play page, step by step."""
    ps = port_of(st)
    data = ps.data if ps else None
    if isinstance(a, pa.Recruit) and data:
        cap = data.captains[a.captain]
        rate = " + ".join(c if c != "any" else "any cube" for c in cap.rate.cubes)
        moves = f"{cap.rate.moves} extra move{'s' if cap.rate.moves > 1 else ''}"
        return [
            f"Hire a captain for {cap.cost} coin{'s' if cap.cost > 1 else ''}",
            f"{rate} per {moves}",
        ]
    if isinstance(a, pa.Load):
        # piece by piece, in the cargo's own order (issue 18): every load of up to three
        # pieces named whole made a farm with many kinds of goods a decision of dozens of
        # buttons, taller than a tablet
        if not a.cargo:
            return ["Load nothing"]
        first, *rest = (_piece(p) for p in a.cargo)
        more = ["nothing more"] if len(a.cargo) < HOLD_SLOTS else []
        return [f"Load {first}", *(f"and {p}" for p in rest), *more]
    if isinstance(a, pa.Sail):
        ps = port_of(st)
        left = {"cocoa": ps.cocoa, "tea": ps.tea, "treasure": len(ps.treasures)} if ps else {}
        waits = waits_at(data, a.zone, left)
        where = zone_name(data, a.zone) + (f" ({waits})" if waits else "")
        return [f"Sail to {where}", f"pay {pay_text(a.pay)}" if a.pay else "no cube"]
    if isinstance(a, pa.Mission):
        paid = f"pay {pay_text(a.pay)}" if a.pay else "no cube"
        gives = f" ({data.churches[a.church].prestige} prestige)" if data else ""
        return [f"Missionary to mission church {a.church}{gives}", paid]
    if isinstance(a, pa.IslandTake) and (ps := port_of(st)) is not None:
        zone = ps.ships[a.player].zone
        stack = data.islands[zone].stack if data and zone in data.islands else None
        tile = {"cocoa": "a cocoa basket", "tea": "a tea bale", "treasure": "a treasure"}
        return [f"Take {tile.get(stack or '', 'a tile')} from the stack on {zone_name(data, zone)}"]
    if isinstance(a, pa.CashTreasure):
        from .port import treasure_value

        ps = port_of(st)
        known = ps is not None and data is not None and a.tile in data.treasures
        worth = f" worth {treasure_value(ps, data, a.tile)} coins" if known else ""  # type: ignore[arg-type]
        return [f"Cash a treasure{worth}"]
    if isinstance(a, pa.SellExotic):
        paid = f"pay {pay_text(a.pay)}" if a.pay else "free"
        return [f"Sell {ITEMS[a.item]}", paid]
    if isinstance(a, pa.IslandSell):
        return [f"Sell {_piece(a.item)} to the island"]
    words = {
        "disembark": "Land on this island",
        "anchor": "Stop here, at sea",
        "island_take": "Take the top tile of the island's stack",
        "leave_island": "Done on this island",
        "return_port": "Return to port and unload (1 time)",
        "claim_goal": f"Claim {FRENCH.get(getattr(a, 'goal', ''), '')}",
    }
    return [words.get(a.type, a.type)]

