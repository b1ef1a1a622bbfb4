"""*Le Port*'s actions: the voyage in small steps like the market day (recruit, load, sail
one zone at a time, disembark, island actions, stop; or return to port), cocoa and tea at
the market, cashing a treasure, and the treasure draw (chance, private to the taker)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action, Decision, Pay
from ..errors import MalformedAction


@dataclass(frozen=True, slots=True)
class Recruit(Decision):
    """PV3: hire a captain from any pile, paying its coins (the first voyage step)."""

    type: ClassVar[str] = "recruit"
    captain: str


@dataclass(frozen=True, slots=True)
class Load(Decision):
    """PV9: up to 3 pieces of different kinds from the farm onto the hold tile: goods,
    ``grain``, ``cocoa``, ``tea``, a member id, ``treasure:<tile>``."""

    type: ClassVar[str] = "load"
    cargo: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Sail(Decision):
    """PV12: one move to a neighbouring zone; ``pay`` buys extra moves at the captain's rate
    (empty for the free first move or a move already paid for)."""

    type: ClassVar[str] = "sail"
    zone: str
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class Disembark(Decision):
    """PV18–PV19: land on the island just entered; the movement ends."""

    type: ClassVar[str] = "disembark"


@dataclass(frozen=True, slots=True)
class Anchor(Decision):
    """End the movement at sea without landing (the action ends)."""

    type: ClassVar[str] = "anchor"


@dataclass(frozen=True, slots=True)
class IslandSell(Decision):
    """PV20: sell a good (or grain) from the hold to the island for its prestige."""

    type: ClassVar[str] = "island_sell"
    item: str


@dataclass(frozen=True, slots=True)
class IslandTake(Decision):
    """PV21: the top tile of the island's stack into an empty hold slot (a treasure is then
    drawn: chance)."""

    type: ClassVar[str] = "island_take"


@dataclass(frozen=True, slots=True)
class Mission(Decision):
    """PV23–PV25: the member on the hold onto an empty mission church of this island,
    paying its cost (a wagon from the hold, cubes from the farm, coins as jokers)."""

    type: ClassVar[str] = "mission"
    church: str
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class LeaveIsland(Decision):
    """Done with the island's actions: the Travel action ends."""

    type: ClassVar[str] = "leave_island"


@dataclass(frozen=True, slots=True)
class ReturnPort(Decision):
    """PV28–PV30: back to port for 1 time, unload the hold, discard the captain."""

    type: ClassVar[str] = "return_port"


@dataclass(frozen=True, slots=True)
class SellExotic(Decision):
    """PM2–PM7: on one's market turn, sell a cocoa basket or a tea bale from the farm."""

    type: ClassVar[str] = "sell_exotic"
    item: str
    pay: Pay = ()


@dataclass(frozen=True, slots=True)
class CashTreasure(Decision):
    """PV31: at any moment, turn an unloaded treasure face up for its coins."""

    type: ClassVar[str] = "cash_treasure"
    anytime: ClassVar[bool] = True
    tile: str


@dataclass(frozen=True, slots=True)
class DrawTreasure(Action):
    """The top treasure tile of the stack (chance; its value is private to the taker)."""

    type: ClassVar[str] = "draw_treasure"
    chance: ClassVar[bool] = True
    tile: str


VOYAGE_ACTIONS: tuple[type[Action], ...] = (
    Recruit,
    Load,
    Sail,
    Disembark,
    Anchor,
    IslandSell,
    IslandTake,
    Mission,
    LeaveIsland,
    ReturnPort,
)
PORT_ACTIONS: tuple[type[Action], ...] = (*VOYAGE_ACTIONS, SellExotic, CashTreasure, DrawTreasure)


# --- record form ------------------------------------------------------------------------


def _text(name: str) -> Callable[[Any], str]:
    def parse(v: Any) -> str:
        if not isinstance(v, str) or not v:
            raise MalformedAction(f"field {name!r} must be a non-empty string, got {v!r}")
        return v

    return parse


def _cargo(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or len(v) > 3:
        raise MalformedAction(f"'cargo' must be a list of at most 3 pieces, got {v!r}")
    return tuple(sorted(_text("cargo")(p) for p in v))


FIELD_PARSERS: dict[str, Callable[[Any], Any]] = {
    "captain": _text("captain"),
    "cargo": _cargo,
    "zone": _text("zone"),
    "item": _text("item"),
    "church": _text("church"),
    "tile": _text("tile"),
}
"""Parsers of the fields Port adds to the record form (the rest are the base game's)."""


MASKED_TREASURE = "treasure:?"
"""A treasure named without its tile: how a treasure piece appears in every public form."""


def public_form(action: Action) -> dict[str, Any] | None:
    """The action as the other players may see it, when it differs from the record: a
    drawn treasure's tile (its value) is private to the taker (PV22), and so is which
    treasure goes onto a hold (a tile id names its value in the box data); which unloaded
    treasure is cashed is not (its coins are taken in view)."""
    if isinstance(action, DrawTreasure):
        return {"type": action.type, "hidden": ["tile"]}
    if isinstance(action, Load) and any(p.startswith("treasure:") for p in action.cargo):
        public = action.to_json()
        public["cargo"] = sorted(
            MASKED_TREASURE if p.startswith("treasure:") else p for p in action.cargo
        )
        return public
    return None


def treasure_outcome(spec: Any, drawn: list[str]) -> dict[str, object]:
    """The record form of the treasure drawn (the top of the face-down stack)."""
    return {"type": DrawTreasure.type, "tile": drawn[0]}
