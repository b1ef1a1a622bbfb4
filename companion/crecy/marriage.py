"""Marrying and arranging marriages (« Marier / Arranger un mariage »), formalising the
arranged ones at a generation's start, and the friend effects the engine applies
(`box.EFFECTS`; « Précisions sur les cartes »)."""

from __future__ import annotations

from typing import Any

from companion.games.errors import IllegalAction

from . import draws
from .board import Refusal
from .box import BONUS_EFFECTS, FRIEND
from .family import can_have, free_to_marry, friend, others_with
from .state import Member, Player, State, Step
from .vocabulary import COLOUR_OF, DISPLAY, EXTRA_COLOURS


def _refuse(a: dict[str, Any], why: str, code: str) -> IllegalAction:
    return Refusal(a, why, code)


def free_marriage(st: State, p: Player, values: dict[str, Any], name: str) -> bool:
    """Whether marrying ``name`` takes no pawn (Ariane; Leonid, Maria with another of
    their nationality in the family)."""
    if values["effect"] == "free_marriage":
        return True
    return (values["effect"] == "free_marriage_if_same_nationality"
            and others_with(st.book, p, name, "nationality", values["nationality"]) > 0)


def check_marriage(st: State, p: Player, a: dict[str, Any],
                   arranged: bool) -> tuple[Member, dict[str, Any]]:
    """The member and the friend's values of a legal marry/arrange. Raises IllegalAction
    naming the rule (a card whose values are unknown: code ``unknown_card``)."""
    name = a["friend"]
    if name not in p.hand:
        raise _refuse(a, f"{name} is not in your hand", "not_in_hand")
    try:
        values = friend(st.book, name)
    except KeyError:
        raise _refuse(a, f"what is printed on {name} is not known yet: answer the card's "
                      "form first", "unknown_card") from None
    m = p.member(a["member"])
    gen = st.gen + 1 if arranged else st.gen
    if m is None or m.gen != gen or m.lost:
        which = "a child of the current generation" if arranged else \
            "a member of the current generation"
        raise _refuse(a, f"only {which} may be chosen (« Règles d'or »)", "wrong_generation")
    if not free_to_marry(m):
        raise _refuse(a, "that member already has a spouse", "married")
    if values["sex"] == m.sex:
        raise _refuse(a, "only people of opposite sexes marry (« Se marier »)", "same_sex")
    cost = -values["gold"]
    if cost > 0 and (m.attached.get("effect") == "beauty_queen"):
        cost = max(0, cost - 2)
    if cost > p.gold:
        raise _refuse(a, f"the wedding costs {cost} gold, you have {p.gold}", "gold")
    free = free_marriage(st, p, values, name)
    if a["pawn"] == "free" and not free:
        raise _refuse(a, f"marrying {name} takes a pawn", "pawn")
    if a["pawn"] == "player" and p.pawns <= 0:
        raise _refuse(a, "no player pawn left this round", "pawn")
    if a["pawn"] not in ("player", "free"):
        raise _refuse(a, "a marriage takes a player pawn (or none with its card)", "pawn")
    return m, values


def marry(st: State, p: Player, a: dict[str, Any], arranged: bool) -> None:
    """Steps 1–2 now (the card placed, the wedding paid or the dowry received); steps
    3–6 for a marriage, or at the next generation's start for an arranged one."""
    m, values = check_marriage(st, p, a, arranged)
    m = p.own(m.id)
    if a["pawn"] == "player":
        p.pawns -= 1
    p.hand.remove(a["friend"])
    m.spouse, m.arranged = a["friend"], arranged
    gold = values["gold"]
    if gold < 0 and m.attached.get("effect") == "beauty_queen":
        gold = min(0, gold + 2)
    p.gold += gold
    if not arranged:
        continue_marriage(st, p, m, values)


def continue_marriage(st: State, p: Player, m: Member, values: dict[str, Any]) -> None:
    """Steps 3–6 of « Marier », queued: income or friends from the display, then
    prestige, the effect and the child card (`rest_of_marriage`)."""
    p.income += values["income"]
    steps: list[Step] = []
    if values["friends"] and st.display:
        steps.append(Step("take_friend", p.id, {"left": values["friends"]}))
    steps.append(Step("marriage_rest", p.id, {"member": m.id}))
    st.todo[0:0] = steps


def formalise(st: State, p: Player, a: dict[str, Any]) -> None:
    found = p.member(a["member"])
    if found is None or not found.arranged or found.lost:
        raise _refuse(a, "that member has no arranged marriage to formalise", "not_arranged")
    m = p.own(found.id)
    m.arranged = False
    continue_marriage(st, p, m, friend(st.book, m.spouse or ""))


def rest_of_marriage(st: State, step: Step) -> None:
    """Steps 4–6: prestige, the friend's effect, the child card(s)."""
    p = st.player(step.player or "")
    m = p.member(step.data["member"])
    assert m is not None and m.spouse is not None
    values = friend(st.book, m.spouse)
    p.prestige += values["prestige"]
    steps = apply_effect(st, p, m, m.spouse, values)
    if m.attached.get("effect") == "charming":  # Charmant: +2 gold once he has married
        p.gold += 2
    n = 2 if values["effect"] == "two_children" else 1
    n = min(n, max(0, 3 + m.twins - m.children))
    if n:
        steps.append(draws.child_step(p, m, n, cause="marriage"))
    st.todo[0:0] = steps


def gain_extra(st: State, p: Player, colour: str) -> None:
    """An extra pawn from the reserve; none if the colour is exhausted (« Plateaux
    individuels »)."""
    if st.reserve.get(colour, 0) > 0:
        st.reserve[colour] -= 1
        p.extra.append(colour)


def apply_effect(st: State, p: Player, m: Member, name: str,
                 values: dict[str, Any]) -> list[Step]:
    """Apply a friend's effect; returns the steps it waits for (in order)."""
    effect = values["effect"]
    if effect == "gold3_if_same_nationality":
        if others_with(st.book, p, name, "nationality", values["nationality"]):
            p.gold += 3
    elif effect == "honour2_if_6_cards":
        if len(p.hand) >= 6:
            p.honour += 2
    elif effect.startswith("extra_") and effect[6:] in EXTRA_COLOURS:
        gain_extra(st, p, effect[6:])
    elif effect in ("connections_plus_one", "ask_money_plus_two", "friends_from_deck"):
        p.effects.append(effect)
    elif effect.startswith("residence_less_"):  # Erich: the condition is read at each buy
        p.effects.append(f"{effect}:{name}")
    elif effect == "refresh_display_take_one":
        st.friend_discard += st.display
        st.display = []
        return [draws.friend_step(min(DISPLAY, draws.friends_left(st)), "display"),
                Step("take_friend", p.id, {"left": 1})]
    elif effect == "swap_cards":
        return [Step("swap", p.id, {"count": 0})]
    elif effect in ("free_ask_money_if_artisan", "free_ask_money_if_english"):
        field, value = (("activity", "artisan") if effect.endswith("artisan")
                        else ("nationality", "English"))
        if others_with(st.book, p, name, field, value):
            return [Step("ask_money_free", p.id)]
    elif effect in BONUS_EFFECTS:
        return bonus(st, p, name, values)
    elif effect == "mission_under_mentor" and st.missions_left > 0:
        st.missions_left -= 1
        p.under_mentor += 1
    return []


def bonus(st: State, p: Player, name: str, values: dict[str, Any]) -> list[Step]:
    """Aleksandr, Carlos, Jan, Lucienne, Nicolas, Thomas: the bonus and +1 honour, both
    only when the condition holds; Sophie: the bonus with 12 gold after her dowry
    (« Précisions sur les cartes »)."""
    effect = values["effect"]
    if effect == "bonus_if_12_gold":
        if p.gold < 12:
            return []
    else:
        field = "nationality" if effect.endswith("nationality") else "activity"
        if others_with(st.book, p, name, field, values[field]) < (values.get("kin") or 1):
            return []
        p.honour += 1
    kind, n = values.get("bonus_kind"), values.get("bonus_amount") or 0
    if kind == "friends":
        return [Step("take_friend", p.id, {"left": n})] if n and st.display else []
    if kind in ("gold", "income", "prestige", "honour"):
        setattr(p, kind, getattr(p, kind) + n)
    return []


def marriage_options(st: State, p: Player, arranged: bool) -> list[dict[str, Any]]:
    kind = "arrange" if arranged else "marry"
    gen = st.gen + 1 if arranged else st.gen
    out: list[dict[str, Any]] = []
    free = [m for m in p.family if m.gen == gen and free_to_marry(m)]
    if not free:
        return out
    for name in dict.fromkeys(p.hand):
        values = st.book.values(FRIEND.name, name)
        if values is None:
            continue
        pawns = (["player"] if p.pawns > 0 else []) + (
            ["free"] if free_marriage(st, p, dict(values), name) else [])
        for m in free:
            if m.sex == values["sex"]:
                continue
            for pawn in pawns:  # the sieve above is cheap; the check decides
                a = {"type": kind, "player": p.id, "member": m.id, "friend": name, "pawn": pawn}
                try:
                    check_marriage(st, p, a, arranged)
                except IllegalAction:
                    continue
                out.append(a)
    return out


def free_options(st: State, p: Player) -> list[dict[str, Any]]:
    """The marriages ``p`` may make now without a pawn."""
    return [o for o in marriage_options(st, p, False) + marriage_options(st, p, True)
            if o["pawn"] == "free"]


def can_marry_more(m: Member) -> bool:
    return can_have(m)


__all__ = ["COLOUR_OF", "check_marriage", "formalise", "marriage_options", "marry",
           "rest_of_marriage"]
