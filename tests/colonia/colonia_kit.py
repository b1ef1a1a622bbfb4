"""Colonia states for tests. The seed lacks the setup sheet and the cards' printed values
(docs/colonia.md): the values here are INVENTED for tests, named so, never shipped."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.colonia import engine
from companion.colonia.record import make_header, start
from companion.colonia.state import State

TEST_SHEET = {"money_pound": 5, "money_grivna": 5, "money_mark": 5, "money_gulden": 5,
              "members": 20, "stick_start": 0, "stained_glass_vp": 2}
"""Invented setup-sheet values (the stained glass's 2 VP is the seed's « 1 × 2 PV »)."""

TEST_SHIP = {"city": "bruges", "hold_1": "painting=9", "hold_2": "saddle+shoes=7",
             "hold_3": "clothing=4", "hold_4": None}
TEST_RELIC = {"city": "bergen", "kind": "relic", "price": 3, "currency": "mark", "vp": 2}
TEST_WEEK = {"stalls": "4 3 3 2", "saddler": 1, "wheelwright": 2, "painter": 1, "tailor": 2,
             "shoemaker": 1, "dice": 2, "ships": 2}
TEST_DECREES = ({"day": 3, "text": "invented"}, {"day": 4, "text": "invented"},
                {"day": 6, "text": "invented"})


def learned(players: int) -> dict[str, Any]:
    """A box that knows the invented sheet and cards: ships S1–S16, relics R1–R48, week
    cards W1–W14, decrees D1–D18."""
    return {
        "colonia.setup": {f"{players} players": TEST_SHEET},
        "colonia.ship": {f"S{i}": TEST_SHIP for i in range(1, 17)},
        "colonia.relic": {f"R{i}": TEST_RELIC for i in range(1, 49)},
        "colonia.week": {f"W{i}": TEST_WEEK for i in range(1, 15)},
        "colonia.decree": {f"D{i}": TEST_DECREES[i % 3] for i in range(1, 19)},
    }


def act(st: State, **record: Any) -> State:
    return engine.apply(st, record)


def ready(players: list[str], box: bool = True) -> State:
    """A game past its setup: 4 ships and 10 relics shown, waiting for week 1's card."""
    st = start(make_header(players, cards=learned(len(players)) if box else None))
    for i in range(1, 5):
        st = act(st, type="reveal", deck="ship", card=f"S{i}")
    for i in range(1, 11):
        st = act(st, type="reveal", deck="relic", card=f"R{i}")
    return st


def at(st: State, **changes: Any) -> State:
    """``st`` with fields replaced (placing a seed example's table)."""
    return replace(st, **changes)
