"""Life goals' actions: the deal (chance, each hand private to its player) and a claim
(a decision a player may take at any moment, LA2), with their record forms."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from ..actions import Action, Decision
from ..chance import ChanceSpec
from ..errors import MalformedAction
from ..vocabulary import Color
from .life_goals import TIER, GoalsState, Hand, pools, still_to_deal


@dataclass(frozen=True, slots=True)
class ClaimGoal(Decision):
    """Reveal one's goal and win its prestige (LA2), at any moment."""

    type: ClassVar[str] = "claim_goal"
    anytime: ClassVar[bool] = True
    goal: str


@dataclass(frozen=True, slots=True)
class DealGoals(Action):
    """The goals dealt (LS4): one silver and one gold per player named. A virtual deal
    names every player at once; at a table dealing by hand, each player reports their own
    two tiles from their private page."""

    type: ClassVar[str] = "deal_goals"
    chance: ClassVar[bool] = True
    hands: tuple[tuple[Color, Hand], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "hands": {c.value: {"silver": h.silver, "gold": h.gold} for c, h in self.hands},
        }


def _goal(v: Any) -> str:
    if not isinstance(v, str) or v not in TIER:
        raise MalformedAction(f"{v!r} is not a life goal (one of {sorted(TIER)})")
    return v


def _hands(v: Any) -> tuple[tuple[Color, Hand], ...]:
    if not isinstance(v, dict) or not v:
        raise MalformedAction("'hands' maps colours to {'silver': goal, 'gold': goal}")
    out = []
    for color, hand in v.items():
        try:
            c = Color(color)
        except ValueError:
            raise MalformedAction(f"'hands': {color!r} is not a colour") from None
        if not isinstance(hand, dict) or set(hand) != {"silver", "gold"}:
            raise MalformedAction(f"'hands': {color} needs exactly 'silver' and 'gold'")
        out.append((c, Hand(_goal(hand["silver"]), _goal(hand["gold"]))))
    return tuple(sorted(out))


FIELD_PARSERS: dict[str, Callable[[Any], Any]] = {"goal": _goal, "hands": _hands}
"""Parsers of the fields Life goals adds to the record form."""


def deal_specs(gs: GoalsState, players: tuple[Color, ...]) -> tuple[ChanceSpec, ChanceSpec]:
    """The two draws of a virtual deal: silver goals, then gold, one per player still to be
    dealt, from what the combination's pools hold and nobody holds yet (LS3, LS4)."""
    who = tuple(c.value for c in still_to_deal(gs, players))
    dealt = gs.dealt()
    specs = []
    for pool in pools(gs.expansions):
        left = tuple(g for g in pool if g not in dealt)
        specs.append(ChanceSpec("deal_goals", left, len(who), who))
    return specs[0], specs[1]


def deal_outcome(silver: ChanceSpec, silver_drawn: list[str], gold_drawn: list[str]) -> DealGoals:
    """The deal action for goals drawn in the order of ``silver.slots`` (the players)."""
    return DealGoals(
        tuple(
            sorted(
                (Color(c), Hand(s, g))
                for c, s, g in zip(silver.slots, silver_drawn, gold_drawn, strict=True)
            )
        )
    )


def public_form(action: Action) -> dict[str, Any] | None:
    """A deal as the table may see it: who was dealt, not what (LS5)."""
    if isinstance(action, DealGoals):
        return {
            "type": action.type,
            "players": [c.value for c, _ in action.hands],
            "hidden": ["hands"],
        }
    return None
