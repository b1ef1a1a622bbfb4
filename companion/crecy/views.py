"""What each viewer sees. Secret by construction (« Règles d'or »: only the mentors and the
friend cards in hand are secret; a mission drawn is seen by its drawer only, one under a
mentor by nobody): a player's view holds their own hand and mentor, nobody else's; the
table's view and every public form of an action hold none."""

from __future__ import annotations

from typing import Any

from .box import CONTRIBUTION, MENTOR, TITLE
from .state import Member, Player, State

HIDDEN = "?"


def _member(m: Member) -> dict[str, Any]:
    return {"id": m.id, "generation": m.gen, "sex": m.sex, "card": m.card,
            "parent": m.parent, "spouse": m.spouse, "arranged": m.arranged,
            "children": m.children, "lost": m.lost, "attached": dict(m.attached)}


def _player(p: Player, mine: bool, everything: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": p.id, "head": p.head, "side": p.side, "gold": p.gold, "income": p.income,
        "prestige": p.prestige, "honour": p.honour, "hand_size": len(p.hand),
        "missions": list(p.missions), "missions_done": list(p.missions_done),
        "under_mentor": p.under_mentor, "family": [_member(m) for m in p.family],
        "pawns": p.pawns, "extra": list(p.extra), "out": p.out,
        "complications": p.complications, "born": p.born, "effects": list(p.effects),
        "mentor_honour": p.mentor_honour,
    }
    if mine or everything:
        out["hand"] = list(p.hand)
        out["mentor"] = p.mentor
    return out


def view(st: State, viewer: str, pending: dict[str, Any],
         everything: bool = False) -> dict[str, Any]:
    """The state as ``viewer`` (``"table"`` or a player id) may see it."""
    detail = dict(pending)
    if pending.get("kind") == "keep_mission" and viewer != pending.get("player") and \
            not everything:
        detail["drawn"] = [HIDDEN] * len(pending.get("drawn", []))
    return {
        "game": "crecy", "generation": st.gen, "round": st.round, "phase": st.phase,
        "first_player": st.players[st.first].id, "turn": st.players[st.turn].id,
        "players": [_player(p, p.id == viewer, everything) for p in st.players],
        "display": list(st.display),
        "titles": [{"name": t, "values": st.book.values(TITLE.name, t)} for t in st.titles],
        "contributions": [{"name": c, "values": st.book.values(CONTRIBUTION.name, c)}
                          for c in st.contributions],
        "occupied": list(st.occupied), "residences": st.residences,
        "enterprises": st.enterprises, "reserve": dict(st.reserve),
        "child_deck": dict(st.child_deck), "child_reserve": dict(st.child_reserve),
        "friend_deck": st.friend_fresh + len(st.friend_recycled),
        "friend_discard": list(st.friend_discard), "missions_left": st.missions_left,
        "mission_discard": len(st.mission_discard), "winner": list(st.winner),
        "pending": detail,
    }


def public_action(obj: dict[str, Any]) -> dict[str, Any]:
    """An action's record form as every player may see it: a friend drawn into a hand,
    a mentor dealt, a mission drawn, a secret card's form (`secret_answer`) are not
    named."""
    kind = obj.get("type")
    if kind == "friend_drawn" and obj.get("to") != "display":
        return {**obj, "name": HIDDEN}
    if kind == "mentor_dealt":
        return {**obj, "mentor": HIDDEN}
    if kind == "mission_drawn":
        return {**obj, "name": HIDDEN}
    if kind == "card_values" and secret_answer(obj):
        return {**obj, "card": HIDDEN, "values": HIDDEN}
    return obj


def secret_answer(obj: dict[str, Any]) -> bool:
    """A card's form answered about a secret card: a mentor (its owner's), or a friend
    card of a hand (``hand``: answered on its owner's phone before it is played face up).
    Its public form names neither the card nor its values."""
    return obj.get("card_type") == MENTOR.name or "hand" in obj


def public_option(obj: dict[str, Any]) -> dict[str, Any]:
    """An option as the table's pages may list it: the cards of a hand it names (to play,
    to discard) masked; the player picks those on their own phone."""
    out = dict(obj)
    if out.get("type") in ("marry", "arrange", "discard", "swap") and out.get("friend"):
        out["friend"] = HIDDEN
    if out.get("type") == "keep_mission":
        out["mission"] = HIDDEN
    return out
