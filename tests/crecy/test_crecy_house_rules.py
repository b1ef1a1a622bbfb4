"""House rules where seed 002 can be read two ways and both readings are playable
(other-games.md §3.1, ambiguities 1, 3 and 4; docs/crecy.md): each switch tested both
ways."""

from __future__ import annotations

import pytest
from crecy_positions import at_actions, child, header, play

from companion.crecy import engine
from companion.crecy.box import BOARD
from companion.crecy.record import make_header, start
from companion.crecy.state import Member, State

RANGES = {"income_min": 0, "income_max": 6, "prestige_min": -3, "prestige_max": 10}


def test_the_reserve_waits_for_generation_three_with_the_house_rule() -> None:
    """Setup 2b: the reserve is « used only if the deck runs out during generation III »;
    with ``reserve_only_in_generation_3`` an empty deck before then gives no child."""
    st = at_actions(gen=2, house={"reserve_only_in_generation_3": True})
    son = child(st, "red", "male")
    son.spouse = "Lise"
    st.child_deck = {"girl": 0, "boy": 0, "complication": 0}
    st = play(st, {"type": "have_child", "player": "red", "member": son.id, "sex": None,
                   "pawn": "player"})
    assert engine.pending(st).kind == "turn" and st.child_reserve == {"girl": 9, "boy": 9}
    assert st.player("red").member(son.id).children == 0


def test_by_default_the_reserve_is_shuffled_in_when_the_deck_runs_out() -> None:
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.spouse = "Lise"
    st.child_deck = {"girl": 0, "boy": 0, "complication": 0}
    st = play(st, {"type": "have_child", "player": "red", "member": son.id, "sex": None,
                   "pawn": "player"})
    assert engine.pending(st).kind == "child_draw"
    st = play(st, {"type": "child_drawn", "card": "girl"})
    assert st.player("red").member(son.id).children == 1


def test_limited_tracks_ask_the_board_once_and_hold_income_and_prestige() -> None:
    """« Règles d'or »: income and prestige limited to the tracks (house rule
    ``limited_tracks``); the tracks' ends, not in the seed, are asked once."""
    st = start(header(house={"limited_tracks": True}))
    q = engine.pending(st).detail["question"]
    assert q["card_type"] == BOARD.name
    st = at_actions(gen=1, house={"limited_tracks": True})
    st = play(st, {"type": "card_values", "card_type": BOARD.name, "card": "individual board",
                   "values": RANGES})
    red = st.player("red")
    red.income, red.prestige = 6, 10
    st = play(st, {"type": "adjust", "player": "red", "income": 2, "prestige": 3})
    assert (st.player("red").income, st.player("red").prestige) == (6, 10)
    st = play(st, {"type": "adjust", "player": "red", "income": -9, "prestige": -20})
    assert (st.player("red").income, st.player("red").prestige) == (0, -3)


def test_by_default_income_and_prestige_go_beyond_the_tracks() -> None:
    """« Plateaux individuels »: unlimited (the default)."""
    st = at_actions(gen=1)
    st = play(st, {"type": "adjust", "player": "red", "income": 40, "prestige": -20})
    assert (st.player("red").income, st.player("red").prestige) == (40, -20)


def test_an_unknown_house_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown house rule"):
        make_header(["red", "blue"], house={"bank_limited": True})


def ariane_in_hand(house: dict[str, bool]) -> tuple[State, Member]:
    """Red has placed both pawns and holds Ariane (marrying her takes no pawn); blue,
    with one pawn left, plays."""
    st = at_actions(gen=2, house=house)
    son = child(st, "red", "male")
    red, blue = st.player("red"), st.player("blue")
    red.hand, red.pawns, blue.pawns, st.turn = ["Ariane"], 0, 1, 1
    st = play(st, {"type": "card_values", "card_type": "crecy.friend", "card": "Ariane",
                   "values": {"sex": "female", "nationality": "French",
                              "activity": "artist", "gold": 0, "income": 0, "friends": 0,
                              "prestige": 0, "effect": "free_marriage"}},
              {"type": "ask_money", "player": "blue", "gold": 2, "pawn": "player"})
    return st, son


def test_a_free_marriage_after_the_last_pawn_with_the_house_rule() -> None:
    """Ariane, Leonid, Maria (« Précisions sur les cartes »): « it is still your turn's
    action »; with ``free_marriage_without_pawns`` a player whose pawns are all placed
    still gets turns for it (and passes when done)."""
    st, son = ariane_in_hand({"free_marriage_without_pawns": True})
    assert engine.pending(st).to_json()["player"] == "red" and st.round == 1
    marry = {"type": "marry", "player": "red", "member": son.id, "friend": "Ariane",
             "pawn": "free"}
    assert marry in engine.legal_options(st)
    st = play(st, marry)
    assert st.player("red").member(son.id).spouse == "Ariane"


def test_by_default_the_free_marriage_needs_a_turn_with_a_pawn_left() -> None:
    st, _ = ariane_in_hand({})
    assert st.round == 2  # red had no pawn: the round ended

