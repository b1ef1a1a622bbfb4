"""What a player may do from their own phone (their token, not the table's): the steps only
they may see. A mentor dealt to them, a friend card drawn into their hand and a mission
they draw are reported by them, by name; the options that name a card of their hand
(marry, arrange, discard, swap, keep a mission) are chosen by them; and the form of a
friend card of their hand is answered by them before it is played face up, and their
mentor's (« Règles d'or »: the hand and the mentor are secret; neither answer names the
card in public, `views.secret_answer`). Everything else is the table's."""

from __future__ import annotations

from typing import Any

from companion.games.cards import ANSWER

from . import engine
from .box import FRIEND, MENTOR
from .state import State

DRAWS = {"mentor_dealt": "mentor_deal", "friend_drawn": "friend_draw",
         "mission_drawn": "mission_draw"}
"""The draws made by hand that only the player who draws them sees, by the step they
answer."""


HAND_OPTIONS = ("marry", "arrange", "discard", "swap", "keep_mission")
"""The options that name a card of a hand (or a mission drawn): chosen on the phone."""


def own_options(st: State, player: str) -> list[dict[str, Any]]:
    """The legal options of ``player``'s decision or turn that name a card of their hand
    (or a mission they drew), in record form: what their phone offers. The others are the
    table's."""
    return [a for a in engine.legal_options(st)
            if a.get("player") == player and a["type"] in HAND_OPTIONS]


def unknown_cards(st: State, player: str) -> list[str]:
    """The cards of ``player``'s hand whose printed values the box does not know yet: to
    play one face up, its form is answered first (from the phone)."""
    return [c for c in st.player(player).hand if st.book.values(FRIEND.name, c) is None]


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
    if kind == ANSWER and action.get("card_type") == MENTOR.name:
        return action.get("card") == st.player(player).mentor and "hand" not in action
    if kind == ANSWER:  # ``hand``: its public form names nothing (`views.secret_answer`)
        return action.get("card_type") == FRIEND.name and action.get("hand") == player \
            and action.get("card") in st.player(player).hand
    return action in own_options(st, player)
