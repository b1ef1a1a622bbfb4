"""Colonia's record header and the state it starts from."""

from __future__ import annotations

from typing import Any

from companion.games.cards import CardValueError
from companion.games.errors import ReplayError, RulesError

from . import cards as c
from . import flow
from .engine import apply
from .state import State
from .vocabulary import COLORS

RECORD_VERSION = 1


HOUSE_RULES = {
    "stained_glass_keeps_money": "The winner of a stained-glass window keeps that money "
                                 "(the seed's « l'argent … va à la banque » read otherwise)",
    "zero_card_reserve_only": "A family card the reserve cannot field sends only the "
                              "reserve's members (the streets stay where they are)",
    "tied_vote_mayors_side": "A tied vote goes the way the mayor voted (the mayor decides "
                             "freely only when they did not vote)",
    "good_roll_six_again": "A 6 rolled for the good-roll decree is rolled again (instead "
                           "of the player picking any good)",
}
"""Colonia's house rules, each where the seed allows two readings (docs/colonia.md); off by
default."""


def house_rules(given: Any) -> dict[str, bool]:
    """Every house rule, on or off. Raises ValueError for an unknown one or not a bool."""
    given = given or {}
    if not isinstance(given, dict):
        raise ValueError("house_rules is a JSON object of true/false")
    unknown = sorted(set(given) - set(HOUSE_RULES))
    if unknown or not all(isinstance(v, bool) for v in given.values()):
        raise ValueError(f"Colonia's house rules are {sorted(HOUSE_RULES)}, each true or "
                         f"false; got {given!r}")
    return {k: bool(given.get(k, False)) for k in HOUSE_RULES}


def make_header(players: list[str], first_player: str | None = None,
                cards: Any = None, house: Any = None) -> dict[str, Any]:
    """A header: the players (colours), who sits first, the printed values the box has
    learned (``cards``, `CardBook.learned_json` form), so the record replays anywhere, and
    the house rules (`HOUSE_RULES`). Raises ValueError for bad players or values."""
    if (not isinstance(players, list) or len(set(players)) != len(players)
            or not 2 <= len(players) <= len(COLORS) or any(p not in COLORS for p in players)):
        raise ValueError(f"Colonia is played by 2 to 6 different colours of {list(COLORS)}, "
                         f"not {players!r}")
    if first_player is not None and first_player not in players:
        raise ValueError(f"first player {first_player!r} is not among {players!r}")
    try:
        learned = c.book(cards).learned_json()
    except CardValueError as exc:
        raise ValueError(str(exc)) from exc
    return {"game": "colonia", "version": RECORD_VERSION, "players": list(players),
            "first_player": first_player or players[0], "cards": learned,
            "house_rules": house_rules(house)}


def start(header: dict[str, Any]) -> State:
    """The state a header describes (waiting for the setup sheet if the box does not know
    it). Raises ReplayError."""
    if header.get("game") != "colonia":
        raise ReplayError(f"not a Colonia record: game = {header.get('game')!r}")
    try:
        players = list(header["players"])
        make_header(players, header.get("first_player"), header.get("cards"),
                    header.get("house_rules"))
        house = frozenset(k for k, v in house_rules(header.get("house_rules")).items() if v)
        first = players.index(header.get("first_player") or players[0])
        book = c.book(header.get("cards"))
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"bad header: {exc}") from exc
    ordered = tuple(players[first:] + players[:first])
    return flow.begin(State(ordered, (), book, None, "card_values", house=house))


def replay(header: dict[str, Any], actions: list[dict[str, Any]]) -> State:
    """The state after a record's actions. Raises ReplayError naming the action."""
    st = start(header)
    for i, obj in enumerate(actions):
        try:
            st = apply(st, obj)
        except RulesError as exc:
            raise ReplayError(f"action {i + 1} refused: {exc}", i, exc) from exc
    return st
