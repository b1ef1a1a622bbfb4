"""Crecy's narration: what each action did, for everyone at the table (nothing private:
a hand's cards, a mentor, a mission drawn are not named)."""

from __future__ import annotations

from typing import Any

from .box import TYPES
from .state import State

PAWN = {"player": "", "extra": " with an extra pawn", "free": " without a pawn"}


def name(pid: str | None) -> str:
    return (pid or "the table").capitalize()


def member_words(st: State, pid: str, mid: str | None) -> str:
    if mid == "head":
        return f"{name(pid)}'s family head"
    try:
        m = st.player(pid).member(mid or "")
    except KeyError:
        m = None
    if m is None:
        return "a member"
    return f"{'a son' if m.sex == 'male' else 'a daughter'} of generation {m.gen}"


def headline(before: State, a: dict[str, Any], after: State) -> str:
    """One sentence for the action ``a`` (its record form)."""
    kind, who = a["type"], name(a.get("player"))
    pawn = PAWN.get(a.get("pawn") or "", "")
    if kind == "marry":
        whom = member_words(before, a["player"], a["member"])
        return f"{who} marries {whom} to {a['friend']}{pawn}."
    if kind == "arrange":
        return (f"{who} arranges the marriage of {member_words(before, a['player'], a['member'])}"
                f" with {a['friend']}{pawn}.")
    if kind == "have_child":
        until = f", drawing until a {'girl' if a['sex'] == 'female' else 'boy'} (1 honour)" \
            if a["sex"] else ""
        return f"{who} has a child{until}{pawn}."
    if kind == "ask_money":
        return f"{who} asks friends for {a['gold']} gold{pawn}."
    if kind == "connections":
        return f"{who} makes connections: {a['cards']} friend card(s){pawn}."
    if kind in ("title", "contribute"):
        what = a.get("title") or a.get("contribution")
        verb = "acquires the title" if kind == "title" else "contributes to public life:"
        return f"{who} {verb} {what}{pawn}."
    if kind in ("fertility", "residence", "enterprise", "mission"):
        return {"fertility": f"{who} consults a fertility specialist{pawn}.",
                "residence": f"{who} buys a residence{pawn}.",
                "enterprise": f"{who} founds an enterprise{pawn}.",
                "mission": f"{who} undertakes a mission{pawn}."}[kind]
    if kind == "pass":
        return f"{who} keeps their extra pawns and places nothing more this round."
    if kind == "ask_money_free":
        return f"{who} asks friends for {a['gold']} gold, without a pawn."
    if kind == "choose_child":
        return f"{who} keeps the {a['card']} card and discards the other."
    if kind == "swap":
        return (f"{who} discards {a['friend']} (Isabella)." if a["friend"]
                else f"{who} is done discarding (Isabella).")
    if kind == "discard":
        return f"{who} discards {a['friend']}."
    if kind == "take_friend":
        return f"{who} takes {a['friend']} from the display."
    if kind == "friends_from_deck":
        return f"{who} draws those friend cards from the deck instead (Roger)."
    if kind == "complication":
        return f"{who} {'loses the child' if a['choice'] == 'lose_child' else 'loses the mother'}."
    if kind == "formalise":
        whom = member_words(before, a["player"], a["member"])
        return f"{who} formalises the arranged marriage of {whom}."
    if kind == "keep_hand":
        return f"{who} {'redraws the starting hand' if a['redraw'] else 'keeps the starting hand'}."
    if kind == "keep_mission":
        return f"{who} keeps the mission {a['mission']}."
    if kind == "mentor_score":
        return (f"{who}'s mentor: {a['main']} honour, and {sum(a['secondary'])} for "
                f"{len(a['secondary'])} secondary objective(s).")
    if kind == "child_drawn":
        effect = f" ({a['effect']})" if a.get("effect") else ""
        return f"Child card: {a['card']}{effect}."
    if kind == "friend_drawn":
        return (f"{a['name']} is dealt to the display." if a["to"] == "display"
                else f"{name(a['to'])} draws a friend card.")
    if kind == "mission_drawn":
        return "A mission card is drawn."
    if kind == "mentor_dealt":
        return f"{who} is dealt a mentor."
    if kind == "extra_dealt":
        return f"{who} is dealt a {a['colour']} extra pawn."
    if kind == "card_values" and a["card_type"] == "crecy.mentor":
        return "A player tells the box what their mentor card prints (on their phone)."
    if kind == "card_values" and "hand" in a:
        return (f"{name(a['hand'])} tells the box what a card of their hand prints (on "
                "their phone).")
    if kind == "card_values":
        kind = TYPES.get(a["card_type"])
        return f"The table says what is printed on {kind.title if kind else 'card'} {a['card']}."
    if kind == "validate_mission":
        return f"{who} completes the mission {a['mission']}: {a['honour']} honour."
    if kind == "adjust":
        parts = [f"{v:+d} {k}" for k in ("gold", "income", "prestige", "honour")
                 if (v := a.get(k) or 0)]
        note = f" ({a['note']})" if a.get("note") else ""
        return f"{who} corrects: {', '.join(parts) or 'nothing'}{note}."
    return f"{who}: {kind}."


def now_text(st: State, pending: dict[str, Any]) -> str:
    kind, who = pending["kind"], pending.get("player")
    if kind == "over":
        winners = " and ".join(name(w) for w in st.winner) or "nobody"
        return f"The game is over: {winners} won."
    if kind == "learn":
        return str(pending["question"]["question"])
    if kind == "turn":
        return f"Generation {st.gen}, round {st.round}: {name(who)} to place a pawn."
    draws = {"child_draw": "Draw a child card.", "friend_draw": "Draw a friend card.",
             "mission_draw": "Draw a mission card.", "mentor_deal": "Deal a mentor.",
             "extra_deal": "Deal an extra pawn."}
    if kind in draws:
        return draws[kind]
    asks = {"take_friend": "take a friend card from the display",
            "discard": "discard a friend card from their hand (the cost)",
            "choose_child": "keep one of the two child cards drawn",
            "swap": "discard cards to draw as many (Isabella), or be done",
            "ask_money_free": "ask friends for money without a pawn (2, 3 or 4 gold)",
            "complication": "a complication: lose the child or the mother",
            "formalise": "formalise an arranged marriage (in the order they choose)",
            "keep_hand": "keep the starting hand or redraw it once",
            "keep_mission": "keep one of the two missions drawn",
            "mentor_score": "reveal the mentor and enter its honour"}
    if kind == "take_friend" and pending.get("sex"):
        return f"{name(who)}: take a woman from the display (Don Juan grows up)."
    return f"{name(who)}: {asks.get(kind, kind.replace('_', ' '))}."
