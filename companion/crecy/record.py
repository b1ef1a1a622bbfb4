"""Crecy records: the header (players, families, the box's learned cards, house rules),
the state it starts, and a record replayed."""

from __future__ import annotations

from typing import Any

from companion.games.cards import CardValueError
from companion.games.errors import ReplayError, RulesError

from . import engine
from .box import book
from .solo import GENEALOGY, REMOVED_FRIENDS, REMOVED_MISSIONS, check_variant
from .state import Member, Player, State, Step
from .vocabulary import (
    CHILD_DECK,
    EXTRA_COLOURS,
    FRIEND_CARDS,
    RESERVE,
    RESIDENCES_BY_PLAYERS,
)

RECORD_VERSION = 1
SIDES = ("patriarch", "matriarch")
HOUSE_RULES = {"extinction_in_generation_3": True, "limited_tracks": False,
               "reserve_only_in_generation_3": False, "free_marriage_without_pawns": False}
"""House rules where the seed can be read two ways and both are playable (docs/crecy.md,
« The 14 ambiguities »), with the default; a record without one reads its default."""


def make_header(players: list[str], first_player: str | None = None, *,
                families: dict[str, dict[str, str]] | None = None,
                cards: dict[str, Any] | None = None,
                house: dict[str, bool] | None = None,
                solo: str | None = None) -> dict[str, Any]:
    """A new game's header. ``families``: each player's family-head card (its name or
    colour as the table calls it) and side; ``cards``: the box's learned cards
    (`CardStore.learned("crecy.")`); ``solo``: the solo variant (one player: standard;
    « Généalogie » is refused, `solo.GENEALOGY`). Raises ValueError for a bad option."""
    if not 1 <= len(players) <= 4 or len(set(players)) != len(players):
        raise ValueError("Crecy is played by 2 to 4 players with different names, or by "
                         "one (the standard solo variant)")
    variant = check_variant(players, solo)
    if first_player is not None and first_player not in players:
        raise ValueError(f"first player {first_player!r} is not a player")
    families = families or {p: {"head": p, "side": "patriarch"} for p in players}
    if not isinstance(families, dict):
        raise ValueError("families: a JSON object, player → {'head': card, 'side': side}")
    if house is not None and (not isinstance(house, dict) or not all(
            isinstance(v, bool) for v in house.values())):
        raise ValueError("house: a JSON object of house rules, each true or false")
    for p in players:
        f = families.get(p)
        if not isinstance(f, dict) or not isinstance(f.get("head"), str) or \
                f.get("side") not in SIDES:
            raise ValueError(f"{p}: a family is {{'head': card, 'side': one of {SIDES}}}")
    house = {**HOUSE_RULES, **(house or {})}
    unknown = sorted(set(house) - set(HOUSE_RULES))
    if unknown:
        raise ValueError(f"unknown house rule(s) {unknown}; known: {sorted(HOUSE_RULES)}")
    try:
        book(cards)
    except CardValueError as exc:
        raise ValueError(f"learned cards: {exc}") from exc
    header = {"game": "crecy", "version": RECORD_VERSION, "players": list(players),
              "first_player": first_player or players[0],
              "families": {p: dict(families[p]) for p in players},
              "cards": cards or {}, "house": house}
    if variant:
        header["solo"] = variant
    return header


def start(header: dict[str, Any]) -> State:
    """The state a header starts. Raises ReplayError."""
    if header.get("game") != "crecy":
        raise ReplayError(f"not a crecy record: game = {header.get('game')!r}")
    try:
        players = list(header["players"])
        families = header["families"]
        first = players.index(header.get("first_player") or players[0])
        st = State(
            players=[Player(p, families[p]["head"], families[p]["side"],
                            family=[Member("head", 1, "male" if families[p]["side"] ==
                                           "patriarch" else "female", "head")])
                     for p in players],
            book=book(header.get("cards")), house=dict(header.get("house") or HOUSE_RULES))
    except (KeyError, TypeError, ValueError, CardValueError) as exc:
        raise ReplayError(f"bad crecy header: {exc}") from exc
    st.first = st.turn = first
    st.reserve = dict.fromkeys(EXTRA_COLOURS, 3)
    st.child_deck = {k: v - RESERVE.get(k, 0) for k, v in CHILD_DECK.items()}
    st.child_reserve = dict(RESERVE)
    st.solo = header.get("solo") == "standard"
    if header.get("solo") not in (None, "standard"):
        raise ReplayError(f"bad crecy header: solo {header.get('solo')!r}: {GENEALOGY}")
    st.friend_fresh = FRIEND_CARDS - (len(REMOVED_FRIENDS) if st.solo else 0)
    st.missions_left -= len(REMOVED_MISSIONS) if st.solo else 0
    st.residences = st.enterprises = RESIDENCES_BY_PLAYERS[len(players)]
    st.todo = [Step("setup_heads", None)]
    engine.settle(st)
    return st


def replay(header: dict[str, Any], actions: list[dict[str, Any]]) -> State:
    """The state after a record. Raises ReplayError naming the refused action."""
    st = start(header)
    for i, obj in enumerate(actions):
        try:
            st = engine.apply(st, obj)
        except RulesError as exc:
            raise ReplayError(f"action {i + 1} refused: {exc}", i, exc) from exc
    return st
