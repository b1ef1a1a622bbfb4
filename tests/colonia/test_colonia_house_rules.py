"""Colonia's house rules: where the seed allows two readings (other-games.md §3.2), the
usual one is the default and the other a switch in the header (docs/colonia.md). Each test
plays the same position both ways: the two must differ."""

from __future__ import annotations

from dataclasses import replace

import pytest
from colonia_kit import act, at, learned, ready

from companion.colonia.cards import Decree
from companion.colonia.game import GAME
from companion.colonia.record import HOUSE_RULES, make_header, replay, start
from companion.colonia.state import State, Voting

FOUR = ["mauve", "green", "yellow", "red"]


def _with(st: State, rule: str, on: bool) -> State:
    return replace(st, house=frozenset({rule}) if on else frozenset())


@pytest.mark.parametrize("on", [False, True])
def test_a_card_the_reserve_cannot_field(on: bool) -> None:
    """Ambiguity 2: red plays 4 with 2 in reserve and 3 on the Tuesday street. Usual
    reading: the streets make up the card's number; the house rule: the reserve only."""
    st = at(ready(FOUR), week=2, day="tuesday", step="family",
            order=("green", "yellow", "mauve", "red"))
    st = _with(st.with_seat(replace(st.seat("red"), reserve=2, streets=(3, 0, 0, 0))),
               "zero_card_reserve_only", on)
    st = act(st, type="reveal_family", answers={"mauve": 7, "green": 3, "yellow": 5, "red": 4})
    red = st.seat("red")
    assert red.votes == 0 and st.order[-1] == "red"
    assert (red.reserve, red.street("tuesday")) == ((3, 2) if on else (1, 4))  # the old Tuesday street home
    assert dict(st.hall)["red"] == (2 if on else 4)


def _tied(on: bool) -> State:
    st = ready(FOUR)
    for color, w in {"mauve": 5, "green": 3, "red": 4, "yellow": 4}.items():
        st = st.with_seat(replace(st.seat(color), votes=w, card=w))
    st = at(st, week=1, day="wednesday", step="vote", order=("red", "mauve", "yellow", "green"),
            decrees=(Voting(Decree("D1", 3, None)),), stalls=((0, 1, 0, 0, 0),),
            bought=(None,))
    return _with(st, "tied_vote_mayors_side", on)


@pytest.mark.parametrize("on", [False, True])
def test_a_tied_vote(on: bool) -> None:
    """Ambiguity 3, 8 to 8 with red the mayor voting no: usual reading, red decides freely
    (and could adopt); the house rule, the decree goes red's way: rejected."""
    votes = {"mauve": "yes", "green": "yes", "red": "no", "yellow": "no"}
    before = _tied(on)
    st = act(before, type="reveal_votes", answers=votes)
    if on:
        assert st.decrees[0].adopted is False and st.step == "market"
        line = GAME.headline(before, GAME.parse_action(
            {"type": "reveal_votes", "answers": votes}), st)
        assert "the mayor's side" in line
    else:
        assert st.step == "mayor"
        assert act(st, type="mayor_decides", player="red", adopt=True).decrees[0].adopted


def test_a_tied_vote_without_the_mayors_vote_is_still_decided_freely() -> None:
    """The mayor's card counting zero: no side of theirs to follow, so they decide."""
    st = _tied(True)
    st = st.with_seat(replace(st.seat("red"), votes=0))
    st = st.with_seat(replace(st.seat("yellow"), votes=8))
    st = act(st, type="reveal_votes", answers={"mauve": "yes", "green": "yes", "yellow": "no"})
    assert st.step == "mayor"


@pytest.mark.parametrize("on", [False, True])
def test_a_six_for_the_good_roll(on: bool) -> None:
    """Ambiguity 5: usual choice, a 6 lets the player pick any good; the house rule rolls
    it again."""
    st = ready(FOUR)
    for color, w in {"mauve": 5, "green": 3, "red": 7, "yellow": 4}.items():
        st = st.with_seat(replace(st.seat(color), votes=w, card=w))
    st = at(st, week=2, day="friday", step="vote", order=("red", "mauve", "yellow", "green"),
            decrees=(Voting(Decree("D", 5, None, "good_roll")),))
    st = act(_with(st, "good_roll_six_again", on), type="reveal_votes",
             answers=dict.fromkeys(FOUR, "yes"))
    st = act(st, type="good_roll", face=6)
    if on:
        assert st.step == "good_roll" and st.rolling[0] == "red"
        assert GAME.chance_spec(st) is not None
        st = act(st, type="good_roll", face=3)
        assert st.seat("red").goods == (0, 0, 1, 0, 0)
    else:
        assert st.step == "pick_good"


def test_every_house_rule_is_in_the_header_and_replays() -> None:
    header = make_header(FOUR, cards=learned(4), house=dict.fromkeys(HOUSE_RULES, True))
    assert header["house_rules"] == dict.fromkeys(HOUSE_RULES, True)
    assert start(header).house == frozenset(HOUSE_RULES)
    assert replay(header, []).house == frozenset(HOUSE_RULES)
    assert start(make_header(FOUR, cards=learned(4))).house == frozenset()
    with pytest.raises(ValueError, match="house rules"):
        make_header(FOUR, house={"good_roll_six_again": "yes"})
