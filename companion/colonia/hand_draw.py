"""The decree's two materials each drawn by hand from the real bag, each player reporting
their own from their phone, sealed (`companion.games.hand_reports`).

Entering the whole ``draw_materials`` action at the table would show every player's
materials to the device that enters it. Instead each player reports what they drew (their
share: the materials in the order of `MATERIALS`, joined by commas); the table keeps the
shares sealed until every player who draws has reported, then stores the one
``draw_materials`` action built from them (`deal`), whose public form says only how many
each drew. Two players may draw the same materials, so equal shares are no clash
(``distinct`` false). A player the short bag leaves nothing to draw reports nothing.
"""

from __future__ import annotations

from itertools import product
from typing import Any

from companion.games.hand_reports import SealedShare

from .decrees import EACH_DRAWS
from .state import State
from .vocabulary import MATERIALS

__all__ = ["DRAW", "STEP", "choices", "deal", "share", "wanted"]

DRAW = "decree_materials"
"""The name the table keeps these shares under."""

STEP = "private_materials"
"""The step (and pending kind) while the decree's materials are drawn."""


def wanted(st: State) -> dict[str, int]:
    """How many materials each player draws now, in the coat-of-arms order (a short bag:
    the first in that order take what is left; docs/colonia.md)."""
    if st.step != STEP:
        return {}
    left = sum(st.bag)
    order = st.order or st.players
    return {p: min(EACH_DRAWS, max(left - EACH_DRAWS * i, 0)) for i, p in enumerate(order)}


def choices(st: State, player: str) -> list[tuple[str, ...]]:
    """Every draw of materials ``player`` may report now, in any order (none when they
    draw nothing)."""
    n = wanted(st).get(player, 0)
    return list(product(MATERIALS, repeat=n)) if n else []


def share(st: State, player: str, record: dict[str, Any]) -> SealedShare | None:
    """``player``'s report of their own materials as a sealed share; None: not such a
    report."""
    drawn = record.get("drawn")
    if record.get("type") != "draw_materials" or not isinstance(drawn, dict) \
            or set(drawn) != {player}:
        return None
    who = tuple(p for p, n in wanted(st).items() if n)
    value = ",".join(sorted(drawn[player], key=MATERIALS.index))
    return SealedShare(DRAW, STEP, who, value, distinct=False)


def deal(st: State, draw: str, shares: dict[str, str]) -> dict[str, Any]:
    """The ``draw_materials`` action of every player's share (nothing for a player the bag
    left nothing). Raises ValueError: not this game's draw."""
    if draw != DRAW:
        raise ValueError(f"Colonia has no sealed draw {draw!r}")
    return {"type": "draw_materials",
            "drawn": {p: shares[p].split(",") if shares.get(p) else [] for p in st.players}}
