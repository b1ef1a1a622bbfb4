"""Positions built as seed 002's worked examples describe them (the state's fields set
directly, then played through `apply`)."""

from __future__ import annotations

from typing import Any

from companion.crecy import engine
from companion.crecy.record import make_header, start
from companion.crecy.state import Member, State

# What the examples do not print: the table's answers (any values that fit the forms).
ANSWERS: dict[str, dict[str, dict[str, Any]]] = {
    "crecy.friend": {
        "Gertrude": {"sex": "female", "nationality": "Prussian", "activity": "artist",
                     "gold": 1, "income": 0, "friends": 1, "prestige": 1,
                     "effect": "gold3_if_same_nationality"},
        "Friedrich": {"sex": "male", "nationality": "Prussian", "activity": "diplomat",
                      "gold": -3, "income": 1, "friends": 0, "prestige": 1, "effect": "none"},
        "Evgenia": {"sex": "female", "nationality": "Russian", "activity": "artist", "gold": 0,
                    "income": 0, "friends": 2, "prestige": 1, "effect": "extra_yellow"},
        "Ann": {"sex": "female", "nationality": "English", "activity": "scientist", "gold": 1,
                "income": 0, "friends": 1, "prestige": 0, "effect": "honour2_if_6_cards"},
        "Pierre": {"sex": "male", "nationality": "French", "activity": "aristocrat",
                   "gold": -2, "income": 1, "friends": 0, "prestige": 0, "effect": "extra_red"},
        "Claire": {"sex": "female", "nationality": "French", "activity": "artist", "gold": 2,
                   "income": 0, "friends": 0, "prestige": 0,
                   "effect": "connections_plus_one"},
        "Fehmi": {"sex": "female", "nationality": "Turkish", "activity": "diplomat",
                  "gold": 1, "income": 0, "friends": 1, "prestige": 0,
                  "effect": "refresh_display_take_one"},
    },
    "crecy.head": {f"{c}/{s}": {"income": 2, "gold": 6, "friends": 3, "prestige": 0,
                                "extra": "none"}
                   for c in ("A", "B", "C") for s in ("patriarch", "matriarch")},
    "crecy.generation": {
        g: {"title_1": f"Titre {g}.1" if g != "I" else "Comte", "title_2": f"Titre {g}.2",
            "title_3": f"Titre {g}.3",
            "contribution_1": "Ballet à la Cour" if g == "II" else f"Contribution {g}.1",
            "contribution_2": f"Contribution {g}.2", "contribution_3": f"Contribution {g}.3"}
        for g in ("I", "II", "III")},
}
_CARD = {"cost_gold": 3, "cost_friends": 1, "cost_income": 0, "income": 1, "prestige": 1,
         "honour": 0, "friends": 0}
for g in ("I", "II", "III"):
    offer = ANSWERS["crecy.generation"][g]
    for i in (1, 2, 3):
        if offer[f"title_{i}"] != "Comte":
            ANSWERS.setdefault("crecy.title", {})[offer[f"title_{i}"]] = dict(_CARD)
        if offer[f"contribution_{i}"] != "Ballet à la Cour":
            ANSWERS.setdefault("crecy.contribution", {})[offer[f"contribution_{i}"]] = dict(_CARD)


def header(n: int = 2, **options: Any) -> dict[str, Any]:
    players = ["red", "blue", "green"][:n]
    families = {p: {"head": "ABC"[i], "side": "patriarch"} for i, p in enumerate(players)}
    return make_header(players, families=families, cards=ANSWERS, **options)


def at_actions(gen: int = 1, n: int = 2, display: tuple[str, ...] = ("D1", "D2", "D3", "D4", "D5"),
               **options: Any) -> State:
    """Generation ``gen``'s first round, red to play two player pawns, nothing else."""
    st = start(header(n, **options))
    st.todo.clear()
    st.phase, st.gen, st.round, st.turn = "actions", gen, 1, 0
    st.display = list(display)
    from companion.crecy.flow import offer

    st.titles, st.contributions = offer(st, gen)
    for p in st.players:
        p.gold, p.income, p.prestige, p.honour, p.hand, p.extra = 0, 0, 0, 0, [], []
        p.pawns, p.mentor = 2, "John Law"
        if gen > 1:
            p.family[0].spouse = f"Wife of {p.id}"
            p.family[0].children = 1
    st.friend_fresh = 75 - len(st.display) - (n if gen > 1 else 0)
    return st


def child(st: State, pid: str, sex: str, parent: str = "head", gen: int = 2) -> Member:
    """A grown child (generation ``gen``) of ``parent`` in ``pid``'s family."""
    m = Member(st.new_id(), gen, sex, "boy" if sex == "male" else "girl", parent=parent)
    st.player(pid).family.append(m)
    return m


def play(st: State, *actions: dict[str, Any]) -> State:
    for a in actions:
        st = engine.apply(st, a)
    return st
