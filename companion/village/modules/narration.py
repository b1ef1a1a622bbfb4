"""Port's and Life goals' actions and steps in plain words for the table (in their modules'
tables: ``headlines``, ``places``, ``now``, ``steps``, ``space_refusals``). A treasure's
value and a dealt goal are never named to the table."""

from __future__ import annotations

from typing import Any

from companion.games.words import join_words

from ..actions import Action
from ..narrate import colour_name, member_name, pay_text
from ..pending import Pending
from ..state import GameState
from ..vocabulary import Color
from . import goal_actions as ga
from . import port_actions as pa
from .life_goals import FRENCH
from .port import port_of, treasure_value

ITEMS = {"grain": "a sack of grain", "cocoa": "a cocoa basket", "tea": "a tea bale"}


def _piece(piece: str) -> str:
    if piece.startswith("treasure:"):
        return "a treasure"
    if "-" in piece:
        return member_name(piece)
    return ITEMS.get(piece, f"a {piece}")


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
        return f"{who}'s ship sails to {a.zone}{paid}."
    if isinstance(a, pa.Disembark):
        return f"{who} lands on the island."
    if isinstance(a, pa.Anchor):
        return f"{who}'s ship stays at sea."
    if isinstance(a, pa.IslandSell):
        return f"{who} sells {_piece(a.item)} to the island."
    if isinstance(a, pa.IslandTake):
        return f"{who} takes a tile from the island's stack."
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
    return f"Now {who}: {words.get(str(step), 'the voyage')}."


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
        return ["Load the ship: " + (", ".join(_piece(p) for p in a.cargo) or "nothing")]
    if isinstance(a, pa.Sail):
        kind = data.zones.get(a.zone, "") if data else ""
        where = {"time": "time zone", "island": "island"}.get(kind, "zone")
        return [f"Sail to {where} {a.zone}", f"pay {pay_text(a.pay)}" if a.pay else "no cube"]
    if isinstance(a, pa.Mission):
        paid = f"pay {pay_text(a.pay)}" if a.pay else "no cube"
        return [f"Missionary to church {a.church}", paid]
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
        "cash_treasure": f"Cash treasure {getattr(a, 'tile', '')}",
        "claim_goal": f"Claim {FRENCH.get(getattr(a, 'goal', ''), '')}",
    }
    return [words.get(a.type, a.type)]

