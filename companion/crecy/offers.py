"""Each legal option in plain words for the pages: what it is (who, which family member,
which pawn), what it costs and what it gives, from the rulebook's action texts and the
cards' printed values (seed 002, « Plateau individuel » and « Actions sur le plateau
principal »). The table's words never name a card of a hand (``private=False``); the
owner's phone gets them with the card (``private=True``)."""

from __future__ import annotations

from typing import Any

from .box import CONTRIBUTION, EFFECTS, FRIEND, TITLE
from .state import State
from .vocabulary import ROMAN
from .words import name

PAWN = {"player": "player pawn", "extra": "extra pawn", "free": "no pawn"}
MONEY = {2: ("nothing", "+2 gold"), 3: ("1 honour", "+3 gold"),
         4: ("1 honour, 1 friend card discarded", "+4 gold")}
CONNECT = {1: "nothing", 2: "1 gold", 3: "2 gold"}


def member_label(st: State, pid: str, mid: str | None) -> str:
    """A family member as the scoreboard shows them: the head, or ``daughter II.2`` (the
    generation's numeral and its place in the family's order)."""
    if mid == "head":
        return "the family head"
    p = st.player(pid)
    m = p.member(mid or "")
    if m is None:
        return "a member"
    same = [x.id for x in p.family if x.gen == m.gen]
    word = "daughter" if m.sex == "female" else "son"
    return f"{word} {ROMAN.get(m.gen, str(m.gen))}.{same.index(m.id) + 1}"


def _printed(st: State, kind: str, card: str) -> tuple[str, str]:
    v = st.book.values(kind, card)
    if v is None:
        return ("printed on the card (asked once)", "printed on the card (asked once)")
    cost = ", ".join(x for x in (
        f"{v['cost_gold']} gold" if v.get("cost_gold") else "",
        f"{v['cost_friends']} friend card(s)" if v.get("cost_friends") else "",
        f"{v['cost_income']} income" if v.get("cost_income") else "") if x)
    gain = ", ".join(x for x in (
        f"{v['income']:+d} income" if v.get("income") else "",
        f"{v['prestige']:+d} prestige" if v.get("prestige") else "",
        f"{v['honour']:+d} honour" if v.get("honour") else "",
        f"{v['friends']} friend card(s)" if v.get("friends") else "") if x)
    return cost or "nothing", gain or "nothing"


def _friend(st: State, card: str) -> str:
    v = st.book.values(FRIEND.name, card) or {}
    if not v:
        return f"{card} (its printed values are asked before it is played)"
    gold = v.get("gold", 0)
    money = f"dowry +{gold} gold" if gold > 0 else f"wedding cost {-gold} gold" if gold else ""
    bits = [money, f"{v['income']:+d} income" if v.get("income") else "",
            f"{v['friends']} friend card(s)" if v.get("friends") else "",
            f"{v['prestige']:+d} prestige" if v.get("prestige") else "",
            EFFECTS.get(v.get("effect", "none"), "") if v.get("effect") not in (None, "none")
            else ""]
    return f"{card}: " + (", ".join(b for b in bits if b) or "nothing printed")


def describe(st: State, a: dict[str, Any], private: bool = False) -> dict[str, Any]:
    """``{"steps": [sentence], "cost_text", "gain_text"}`` for the option ``a``."""
    kind, pid = a["type"], a.get("player") or ""
    who = name(pid)
    pawn = f" ({PAWN[a['pawn']]})" if a.get("pawn") in PAWN else ""
    whom = member_label(st, pid, a.get("member")) if "member" in a else ""
    cost, gain = "", ""
    if kind in ("marry", "arrange"):
        card = _friend(st, a["friend"]) if private else "a friend card from the hand"
        verb = "marries" if kind == "marry" else "arranges the marriage of"
        sentence = f"{who} {verb} {whom} to {card}{pawn}"
        cost = "the wedding cost, if the card has one" if kind == "marry" else \
            "nothing now; formalised at the next generation's start"
        gain = "the card's dowry, income or friend cards, prestige and effect; a child card" \
            if kind == "marry" else "the card counts as family now"
    elif kind == "have_child":
        sex = {"female": " until a girl", "male": " until a boy"}.get(a.get("sex") or "", "")
        sentence = f"{who}: {whom} has a child{sex}{pawn}"
        cost, gain = ("1 honour" if sex else "nothing"), "a child card (or a complication)"
    elif kind == "ask_money":
        cost, gain = MONEY.get(a["gold"], ("", f"+{a['gold']} gold"))
        sentence = f"{who} asks friends for {a['gold']} gold{pawn}"
    elif kind == "connections":
        sentence = f"{who} makes connections: {a['cards']} friend card(s){pawn}"
        cost, gain = CONNECT.get(a["cards"], ""), f"{a['cards']} friend card(s) from the display"
    elif kind in ("title", "contribute"):
        card = a.get("title") or a.get("contribution") or ""
        ctype = TITLE.name if kind == "title" else CONTRIBUTION.name
        cost, gain = _printed(st, ctype, card)
        verb = "the title" if kind == "title" else "the contribution"
        sentence = f"{who}: {verb} {card} for {whom}{pawn}"
    elif kind == "fertility":
        sentence = f"{who}: fertility specialist for {whom}{pawn}"
        cost, gain = "2 gold, 1 friend card", "two child cards drawn at once"
    elif kind == "residence":
        sentence = f"{who}: a residence for {whom}{pawn}"
        cost, gain = "3 gold, 1 friend card", "+2 prestige"
    elif kind == "enterprise":
        sentence = f"{who}: an enterprise for {whom}{pawn}"
        cost, gain = "2 prestige, 2 friend cards", "+1 income"
    elif kind == "mission":
        sentence = f"{who} undertakes a mission{pawn}"
        cost, gain = "1 friend card", "a mission card (kept secret)"
    elif kind == "take_friend":
        sentence = f"{who} takes {a['friend']} from the display"
    elif kind == "friends_from_deck":
        sentence = f"{who} draws the friend cards from the deck instead (Roger)"
    elif kind == "discard":
        card = a["friend"] if private else "a card of the hand"
        sentence = f"{who} discards {card}"
    elif kind == "swap":
        card = a["friend"] if private else "a card of the hand"
        sentence = f"{who} swaps {card} for a card from the deck"
    elif kind == "keep_mission":
        sentence = f"{who} keeps the mission {a['mission'] if private else '(secret)'}"
    elif kind == "formalise":
        sentence = f"{who} formalises the arranged marriage of {whom}"
    elif kind == "complication":
        sentence = {"lose_child": f"{who} loses the child",
                    "lose_mother": f"{who} loses the mother"}.get(a["choice"], a["choice"])
    elif kind == "keep_hand":
        sentence = f"{who} {'redraws' if a['redraw'] else 'keeps'} the starting hand"
    elif kind == "choose_child":
        sentence = f"{who} keeps the {a['card']}"
    elif kind == "ask_money_free":
        sentence = f"{who} asks friends for {a['gold']} gold, without a pawn"
    elif kind == "pass":
        sentence = f"{who} places nothing more this round (keeps the extra pawns)"
    elif kind == "mentor_score":
        more = f" and {' + '.join(map(str, a['secondary']))} for secondary objectives" if \
            a["secondary"] else ""
        sentence = (f"{who} turns up the mentor: {a['main']} honour for its main "
                    f"objective{more}, as the box counts it")
    else:
        sentence = f"{who}: {kind.replace('_', ' ')}"
    return {"steps": [sentence], "cost_text": cost, "gain_text": gain}
