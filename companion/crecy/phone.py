"""What a player may do from their own phone (their token, not the table's): the steps only
they may see. A mentor dealt to them, a friend card drawn into their hand and a mission
they draw are reported by them, by name; the options that name a card of their hand
(marry, arrange, discard, swap, keep a mission) are chosen by them; and the form of a
friend card of their hand is answered by them before it is played face up (« Règles
d'or »: the hand and the mentor are secret). Everything else is the table's."""

from __future__ import annotations

from typing import Any

from companion.games.cards import ANSWER

from . import engine
from .box import FRIEND
from .state import State

DRAWS = {"mentor_dealt": "mentor_deal", "friend_drawn": "friend_draw",
         "mission_drawn": "mission_draw"}
"""The draws made by hand that only the player who draws them sees, by the step they
answer."""


def own_options(st: State, player: str) -> list[dict[str, Any]]:
    """The legal options of ``player``'s own decision or turn, in record form (cards of the
    hand named): what their phone offers. [] when the game waits for someone else."""
    return [a for a in engine.legal_options(st) if a.get("player") == player]


def drawer(st: State) -> str | None:
    """Who alone sees the draw waited for now (a mentor, a friend into a hand, a mission),
    or None (a public draw, or no draw)."""
    now = engine.pending(st).to_json()
    if now["kind"] == "mentor_deal":
        return str(now.get("for")) if now.get("for") else None
    if now["kind"] == "friend_draw" and now.get("to") not in (None, "display"):
        return str(now["to"])
    if now["kind"] == "mission_draw":
        return str(now.get("for")) if now.get("for") else None
    return None


def owns(st: State, player: str, action: dict[str, Any]) -> bool:
    """Whether ``action`` is ``player``'s own to send from their phone now (the engine
    still checks it when it is applied)."""
    kind = action.get("type")
    if kind in DRAWS:
        now = engine.pending(st).kind
        if now != DRAWS[str(kind)] or drawer(st) != player:
            return False
        if kind == "mentor_dealt":
            return action.get("player") == player
        if kind == "friend_drawn":
            return action.get("to") == player
        return True
    if kind == ANSWER:
        return action.get("card_type") == FRIEND.name and action.get("card") in \
            st.player(player).hand
    return action in own_options(st, player)
