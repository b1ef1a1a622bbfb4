"""House rules: the choices a table may make where the rulebook is silent or disputed.

Each is a per-game option stored in the record header under ``house_rules`` (an object of
name → value; names left out take the default, which is the reading documented in
``docs/engine.md``). Where the engine decides one, the code carries a grep-able mark:
``# HOUSE RULE <name>:``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class HouseRules:
    """The house rules of one game (defaults: the documented reading)."""

    well_coins: bool = False
    """Coins may stand in for cubes at the well (seed 000 « Puits » says 3 cubes of one
    colour; « Les pièces » lets coins replace cubes « pour payer une action »)."""
    final_seller_sells: bool = True
    """The player who ended the game may still sell at a market day someone else starts
    during the final turns (seed 000 « Fin de la partie »: they take no last turn, but a
    market day involves every player)."""
    train_only: bool = True
    """Crafts: a member may be trained without producing at once (seed 000 « Artisanat »:
    « vous pouvez ensuite immédiatement produire »)."""

    def to_json(self) -> dict[str, bool]:
        return {f.name: bool(getattr(self, f.name)) for f in fields(self)}


HOUSE_RULES: dict[str, dict[str, Any]] = {
    "well_coins": {
        "default": False,
        "label": "Coins may replace cubes at the well",
        "help": "The rulebook asks for 3 cubes of one colour at the well; some tables let "
        "coins stand in for them, as they do when paying for an action.",
    },
    "final_seller_sells": {
        "default": True,
        "label": "The player who ended the game may still sell at a final market day",
        "help": "They take no last turn; if another player starts a market day in the final "
        "turns, may they still serve customers?",
    },
    "train_only": {
        "default": True,
        "label": "Crafts: a member may train without making a good at once",
        "help": "The rulebook says you « may » produce at once after training; some tables "
        "read it as a must.",
    },
}
"""Each house rule's default and its wording for the new-game page."""


def house_rules(obj: Any) -> HouseRules:
    """House rules from a header's ``house_rules`` (None or missing: the defaults).

    Raises ValueError naming an unknown rule or a value that is not true/false.
    """
    if obj is None:
        return HouseRules()
    if not isinstance(obj, dict):
        raise ValueError(f"house_rules must be an object of true/false options, got {obj!r}")
    unknown = sorted(set(obj) - set(HOUSE_RULES))
    if unknown:
        raise ValueError(f"unknown house rule(s) {unknown}; known: {sorted(HOUSE_RULES)}")
    for name, value in obj.items():
        if not isinstance(value, bool):
            raise ValueError(f"house rule {name!r} must be true or false, got {value!r}")
    return HouseRules(**obj)
