"""The actions of the individual boards (have a child, ask friends for money, make
connections; repeatable) and of the main board (title, contribution, fertility,
residence, enterprise, mission; each once per round), with their costs.

Each ``check_*`` raises IllegalAction naming the rule and changes nothing; each ``do_*``
applies a checked action to a copy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.errors import IllegalAction

from . import draws, solo
from .box import CONTRIBUTION, FRIEND, TITLE
from .family import can_have, of_generation, others_with, printed
from .state import Member, Player, State, Step
from .vocabulary import COLOUR_OF, MAIN_ACTIONS

Check = Callable[[State, Player, dict[str, Any]], None]


class Refusal(IllegalAction):
    """An IllegalAction whose message is written when read (the legal options try many
    candidates and read none of their refusals)."""

    def __init__(self, a: dict[str, Any], why: str, code: str) -> None:
        Exception.__init__(self)
        self.a, self.why, self.code, self.rule = a, why, code, None

    def __str__(self) -> str:
        return f"illegal: {self.a!r} — {self.why}"


def refuse(a: dict[str, Any], why: str, code: str) -> IllegalAction:
    return Refusal(a, why, code)


def check_pawn(st: State, p: Player, a: dict[str, Any]) -> None:
    """Main board: once per round, a player pawn or an extra pawn of the action's colour;
    individual board: a player pawn."""
    kind, pawn = a["type"], a.get("pawn")
    if kind in MAIN_ACTIONS:
        if kind in st.occupied:
            raise refuse(a, "a main-board action is taken once per round, and this one is "
                         "taken (« Actions sur le plateau principal »)", "occupied")
        activity = solo.blocked(st, kind) if st.solo else None
        if activity:
            raise refuse(a, f"a friend card face up is a {activity}: its action is unavailable "
                         "while it stays on display (« Variante solo standard »)",
                         "solo_blocked")
        if pawn == "extra":
            if COLOUR_OF[kind] not in p.extra:
                raise refuse(a, f"no {COLOUR_OF[kind]} extra pawn", "pawn")
            return
    if pawn != "player":
        raise refuse(a, "this action takes a player pawn", "pawn")
    if p.pawns <= 0:
        raise refuse(a, "no player pawn left this round", "pawn")


def take_pawn(st: State, p: Player, a: dict[str, Any]) -> None:
    if a["pawn"] == "extra":
        colour = COLOUR_OF[a["type"]]
        p.extra.remove(colour)
        st.played_extra.append(colour)
    else:
        p.pawns -= 1
    if a["type"] in MAIN_ACTIONS:
        st.occupied.append(a["type"])


def check_discard(p: Player, a: dict[str, Any], n: int) -> None:
    if len(p.hand) < n:
        raise refuse(a, f"this costs {n} friend card(s) from your hand; you hold "
                     f"{len(p.hand)}", "discard")


def pay(st: State, p: Player, a: dict[str, Any], gold: int = 0, cards: int = 0) -> None:
    """Pay ``gold`` now; the ``cards`` are the player's to pick next (a ``discard`` step,
    before anything the action gives)."""
    p.gold -= gold
    if cards:
        st.todo.insert(0, Step("discard", p.id, {"left": cards}))


def member_of(st: State, p: Player, a: dict[str, Any], couple: bool = False) -> Member:
    m = p.member(a.get("member") or "")
    if m is None or m.gen != st.gen or m.lost:
        raise refuse(a, "actions apply to the current generation (« Généralités sur les "
                     "actions »)", "wrong_generation")
    if couple and not m.couple():
        raise refuse(a, "only a married couple has children", "not_a_couple")
    return m


# --- individual boards -------------------------------------------------------------------


def check_have_child(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    m = member_of(st, p, a, couple=True)
    if not can_have(m):
        raise refuse(a, "a couple has at most 3 children", "child_limit")
    if a.get("sex") not in (None, "female", "male"):
        raise refuse(a, "the sex wanted is female, male or none", "bad_sex")


def do_have_child(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    m = p.member(a["member"])
    assert m is not None
    until = {"female": "girl", "male": "boy"}.get(a.get("sex") or "")
    if until:
        p.honour -= 1
    draws.start_child_draws(st, p, m, 1, until=until)


def money_bonus(p: Player) -> int:
    """Gold added to each ask this generation: Miranda 2, Ravissant sourire 1."""
    return 2 * p.effects.count("ask_money_plus_two") + p.effects.count("ask_money_plus_one")


def residence_cost(st: State, p: Player) -> tuple[int, int]:
    """A residence's gold and friend cards now: 3 and 1, less Erich's 1 while another of
    his nationality or activity is in the family (« Précisions sur les cartes », Erich:
    every residence this generation, not only his)."""
    gold, cards = 3, 1
    for e in p.effects:
        if not e.startswith("residence_less_"):
            continue
        effect, name = e.split(":", 1)
        field = effect.rsplit("_if_", 1)[1]
        if others_with(st.book, p, name, field, printed(st.book, FRIEND.name, name, field)):
            if "_gold_" in effect:
                gold -= 1
            else:
                cards -= 1
    return max(0, gold), max(0, cards)


def card_gold(p: Player, kind: str, values: Any) -> int:
    """A title's or contribution's gold cost now: « Une fresque pour la cathédrale » takes
    4 off each contribution this generation (never below 0: no gold is gained)."""
    cost = int(values["cost_gold"])
    if kind == "contribute":
        cost -= 4 * p.effects.count("contributions_4_less")
    return max(0, cost)


def check_ask_money(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    if a.get("gold") not in (2, 3, 4):
        raise refuse(a, "ask for 2, 3 or 4 gold", "bad_amount")
    if a["gold"] == 4:
        check_discard(p, a, 1)


def do_ask_money(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    if a["gold"] >= 3:
        p.honour -= 1
    if a["gold"] == 4:
        pay(st, p, a, cards=1)
    p.gold += a["gold"] + money_bonus(p)


def check_connections(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    n = a.get("cards")
    if n not in (1, 2, 3):
        raise refuse(a, "take 1, 2 or 3 friend cards", "bad_amount")
    if n - 1 > p.gold:
        raise refuse(a, f"{n} cards cost {n - 1} gold, you have {p.gold}", "gold")
    if len(st.display) < n and "friends_from_deck" not in p.effects:  # Roger: the deck
        raise refuse(a, f"only {len(st.display)} friend cards are on display", "display")


def do_connections(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    p.gold -= a["cards"] - 1
    n = a["cards"] + p.effects.count("connections_plus_one")  # Claire, before the free last
    st.todo.insert(0, Step("take_friend", p.id, {"left": n}))


# --- the main board ---------------------------------------------------------------------


def _card_cost(st: State, kind: str, name: str) -> dict[str, Any]:
    values = st.book.values(kind, name)
    if values is None:
        raise IllegalAction(f"illegal: {name} — what is printed on it is not known yet",
                            code="unknown_card")
    return dict(values)


def check_card(st: State, p: Player, a: dict[str, Any]) -> None:
    """A title or a contribution: on offer, its cost paid, one per member or couple."""
    check_pawn(st, p, a)
    title = a["type"] == "title"
    name = a.get("title" if title else "contribution")
    offer = st.titles if title else st.contributions
    if name not in offer:
        raise refuse(a, f"{name!r} is not on offer this generation", "not_on_offer")
    values = _card_cost(st, TITLE.name if title else CONTRIBUTION.name, name)
    m = member_of(st, p, a)
    slot = "title" if title else "contribution"
    if slot in m.attached:
        raise refuse(a, f"a member or couple holds at most one {slot} (« Règles d'or »)",
                     "one_per_couple")
    cost = card_gold(p, a["type"], values)
    if cost > p.gold:
        raise refuse(a, f"it costs {cost} gold, you have {p.gold}", "gold")
    check_discard(p, a, values["cost_friends"])


def do_card(st: State, p: Player, a: dict[str, Any]) -> None:
    title = a["type"] == "title"
    name = a["title" if title else "contribution"]
    values = _card_cost(st, TITLE.name if title else CONTRIBUTION.name, name)
    take_pawn(st, p, a)
    (st.titles if title else st.contributions).remove(name)
    m = p.own(a["member"])
    m.attached["title" if title else "contribution"] = name
    p.income += values["income"] - values["cost_income"]
    p.prestige += values["prestige"]
    p.honour += values["honour"]
    if values["friends"] and st.display:
        st.todo.insert(0, Step("take_friend", p.id, {"left": values["friends"]}))
    pay(st, p, a, card_gold(p, a["type"], values), values["cost_friends"])


def check_fertility(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    m = member_of(st, p, a, couple=True)
    if not can_have(m, 2):
        raise refuse(a, "only a couple that may have at least 2 more children",
                     "child_limit")
    if p.gold < 2:
        raise refuse(a, f"it costs 2 gold, you have {p.gold}", "gold")
    check_discard(p, a, 1)


def do_fertility(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    m = p.member(a["member"])
    assert m is not None
    draws.start_child_draws(st, p, m, 2, cause="fertility")
    pay(st, p, a, 2, 1)


def check_building(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    kind = a["type"]
    if (st.residences if kind == "residence" else st.enterprises) <= 0:
        raise refuse(a, f"no {kind} card is left", "none_left")
    m = member_of(st, p, a)
    if kind in m.attached:
        raise refuse(a, f"a member or couple holds at most one {kind} (« Règles d'or »)",
                     "one_per_couple")
    if kind == "residence":
        gold, cards = residence_cost(st, p)
        if p.gold < gold:
            raise refuse(a, f"it costs {gold} gold, you have {p.gold}", "gold")
        check_discard(p, a, cards)
    else:
        check_discard(p, a, 2)


def do_building(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    m = p.own(a["member"])
    if a["type"] == "residence":
        pay(st, p, a, *residence_cost(st, p))
        st.residences -= 1
        m.attached["residence"] = f"residence {st.residences + 1}"
        p.prestige += 2
    else:
        pay(st, p, a, 0, 2)
        p.prestige -= 2
        st.enterprises -= 1
        m.attached["enterprise"] = f"enterprise {st.enterprises + 1}"
        p.income += 1


def check_mission(st: State, p: Player, a: dict[str, Any]) -> None:
    check_pawn(st, p, a)
    need = 1 if st.gen == 3 else 2
    if st.missions_left < need:
        raise refuse(a, "the mission deck is empty", "none_left")
    check_discard(p, a, 1)


def do_mission(st: State, p: Player, a: dict[str, Any]) -> None:
    take_pawn(st, p, a)
    if st.gen == 3:  # face down under the mentor, seen by nobody (« Entreprendre une mission »)
        st.missions_left -= 1
        p.under_mentor += 1
    else:
        st.todo.insert(0, Step("mission_draw", None, {"player": p.id, "left": 2, "drawn": []}))
    pay(st, p, a, 0, 1)


CHECKS: dict[str, tuple[Check, Check]] = {
    "have_child": (check_have_child, do_have_child),
    "ask_money": (check_ask_money, do_ask_money),
    "connections": (check_connections, do_connections),
    "title": (check_card, do_card),
    "contribute": (check_card, do_card),
    "fertility": (check_fertility, do_fertility),
    "residence": (check_building, do_building),
    "enterprise": (check_building, do_building),
    "mission": (check_mission, do_mission),
}


def members(st: State, p: Player) -> list[Member]:
    return of_generation(p, st.gen)
