"""Life goals' actions: the deal (chance, each hand private to its player) and a claim
(a decision a player may take at any moment, LA2), with their record forms."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.games.chance import ChanceSpec
from companion.games.hand_reports import SealedShare

from ..actions import Action, Decision
from ..errors import MalformedAction
from ..state import GameState
from ..vocabulary import Color
from .life_goals import TIER, GoalsState, Tier, goals_of, pool, still_to_deal


@dataclass(frozen=True, slots=True)
class ClaimGoal(Decision):
    """Reveal one's goal and win its prestige (LA2), at any moment, the end of the game
    included (« même en fin de partie »)."""

    type: ClassVar[str] = "claim_goal"
    anytime: ClassVar[bool] = True
    after_the_end: ClassVar[bool] = True
    goal: str


@dataclass(frozen=True, slots=True)
class DealGoals(Action):
    """Goals of one tier dealt (LS4), one per player named. A virtual deal names every
    player at once; at a table dealing by hand, each player reports their own tile from
    their private page."""

    type: ClassVar[str] = "deal_goals"
    chance: ClassVar[bool] = True
    tier: str
    hands: tuple[tuple[Color, str], ...]


def _goal(v: Any) -> str:
    if not isinstance(v, str) or v not in TIER:
        raise MalformedAction(f"{v!r} is not a life goal (one of {sorted(TIER)})")
    return v


def _tier(v: Any) -> str:
    if v not in ("silver", "gold"):
        raise MalformedAction(f"'tier' is silver or gold, got {v!r}")
    return str(v)


def _hands(v: Any) -> tuple[tuple[Color, str], ...]:
    if not isinstance(v, dict) or not v:
        raise MalformedAction("'hands' maps colours to goals, like {'red': 'writer'}")
    out = []
    for color, goal in v.items():
        try:
            c = Color(color)
        except ValueError:
            raise MalformedAction(f"'hands': {color!r} is not a colour") from None
        out.append((c, _goal(goal)))
    return tuple(sorted(out))


FIELD_PARSERS: dict[str, Callable[[Any], Any]] = {"goal": _goal, "tier": _tier, "hands": _hands}
"""Parsers of the fields Life goals adds to the record form."""

PHASE_OF_TIER = {Tier.SILVER: "deal_silver", Tier.GOLD: "deal_gold"}


def deal_spec(gs: GoalsState, players: tuple[Color, ...], tier: Tier) -> ChanceSpec:
    """A virtual deal of one tier: one goal per player still to be dealt, from what the
    combination's pool holds and nobody holds yet (LS3, LS4)."""
    who = tuple(c.value for c in still_to_deal(gs, players, tier))
    left = tuple(g for g in pool(gs, tier) if g not in gs.dealt())
    return ChanceSpec(PHASE_OF_TIER[tier], left, len(who), who, outcome=deal_outcome)


def deal_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    """The record form of a deal drawn in the order of ``spec.slots`` (the players)."""
    tier = "silver" if spec.kind == "deal_silver" else "gold"
    return {"type": "deal_goals", "tier": tier, "hands": dict(zip(spec.slots, drawn, strict=True))}


def public_form(action: Action) -> dict[str, Any] | None:
    """A deal as the table may see it: who was dealt, not what (LS5)."""
    if isinstance(action, DealGoals):
        return {
            "type": action.type,
            "tier": action.tier,
            "players": [c.value for c, _ in action.hands],
            "hidden": ["hands"],
        }
    return None


def sealed_share(st: GameState, player: str, record: dict[str, Any]) -> SealedShare | None:
    """A goal tile reported by hand (LS4) is kept sealed until every player of the tier has
    reported: two reports of one tile would otherwise tell who holds it (docs/api.md)."""
    if record.get("type") != DealGoals.type:
        return None
    gs = goals_of(st)
    tier = Tier(record["tier"])
    ((_, goal),) = record["hands"].items()
    who = tuple(c.value for c in still_to_deal(gs, st.players, tier)) if gs else ()
    return SealedShare(tier.value, PHASE_OF_TIER[tier], who, str(goal))


def sealed_deal(draw: str, shares: dict[str, str]) -> dict[str, Any] | None:
    """The deal of a tier's sealed reports, one goal per player."""
    if draw not in {t.value for t in Tier}:
        return None
    return {"type": DealGoals.type, "tier": draw, "hands": dict(sorted(shares.items()))}
