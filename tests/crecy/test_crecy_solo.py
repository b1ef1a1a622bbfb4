"""The standard solo variant (seed 002, « Partie à 1 joueur », « Variante solo standard »)
and the refusal of « Généalogie » (its 15 clue cards are not printed in the seed)."""

from __future__ import annotations

from typing import Any

import pytest
from crecy_positions import ANSWERS, play

from companion.crecy import engine
from companion.crecy.box import FRIEND, SOLO_TABLE
from companion.crecy.game import CrecyGame
from companion.crecy.record import make_header, start
from companion.games.errors import IllegalAction

TABLE = {"aristocrat": "title_contribution", "artisan": "enterprise",
         "scientist": "fertility", "artist": "residence", "diplomat": "mission"}
"""An answer to the activity → action table (the seed gives the scientist's; the rest
fits its example: the artists and the diplomat block the residence and the mission)."""


def solo(**cards: Any) -> dict[str, Any]:
    return make_header(["red"], families={"red": {"head": "A", "side": "matriarch"}},
                       cards={**ANSWERS, **cards})


def friend(name: str, activity: str, sex: str = "male") -> dict[str, Any]:
    return {"type": "card_values", "card_type": FRIEND.name, "card": name, "values": {
        "sex": sex, "nationality": "French", "activity": activity, "gold": 0, "income": 0,
        "friends": 0, "prestige": 0, "effect": "none"}}


def test_the_solo_setup() -> None:
    """Two residences and two enterprises; six friends and four missions out of the game."""
    st = start(solo())
    assert st.solo and (st.residences, st.enterprises) == (2, 2)
    assert st.friend_fresh == 75 - 6 and st.missions_left == 15 - 4


def test_the_activity_table_is_asked_once_with_the_scientist_known() -> None:
    st = start(solo())
    q = engine.pending(st).detail["question"]
    assert (q["card_type"], q["known"]) == (SOLO_TABLE.name, {"scientist": "fertility"})


def test_genealogy_is_refused_with_its_reason() -> None:
    with pytest.raises(ValueError, match="clue cards"):
        CrecyGame().make_header(["red"], solo="genealogy")
    with pytest.raises(ValueError, match="one player"):
        CrecyGame().make_header(["red", "blue"], solo="standard")


def test_a_friend_removed_for_the_solo_game_cannot_be_drawn() -> None:
    st = start(solo(**{SOLO_TABLE.name: {"activities": TABLE}}))
    assert engine.pending(st).kind == "mentor_deal"
    st = play(st, {"type": "mentor_dealt", "player": "red", "mentor": "John Law"})
    with pytest.raises(IllegalAction) as no:
        engine.apply(st, {"type": "friend_drawn", "name": "Friedrich", "to": "display"})
    assert no.value.code == "solo_removed"


def test_the_solo_example_actions_blocked_by_the_display() -> None:
    """« Variante solo standard », the example: 1 scientist, 3 artists, 1 diplomat face up
    block the fertility specialist, the residence and the mission; the scientist and an
    artist taken, the fertility specialist is open again, the other two are not."""
    st = start(solo(**{SOLO_TABLE.name: {"activities": TABLE}}))
    st = play(st, {"type": "mentor_dealt", "player": "red", "mentor": "John Law"})
    for n, activity in (("Sci", "scientist"), ("Art1", "artist"), ("Art2", "artist"),
                        ("Art3", "artist"), ("Dip", "diplomat")):
        st = play(st, {"type": "friend_drawn", "name": n, "to": "display"})
        assert engine.pending(st).kind == "learn"  # asked as it is turned face up: public
        st = play(st, friend(n, activity))
    st = play(st, *({"type": "friend_drawn", "name": f"H{i}", "to": "red"} for i in range(3)),
              {"type": "keep_hand", "player": "red", "redraw": False})
    assert engine.pending(st).kind == "turn"
    red = st.player("red")
    red.family[0].spouse, red.gold = "Husband", 9
    for kind in ("fertility", "residence"):
        with pytest.raises(IllegalAction) as no:
            engine.apply(st, {"type": kind, "player": "red", "member": "head",
                              "pawn": "player"})
        assert no.value.code == "solo_blocked"
    kinds = {o["type"] for o in engine.legal_options(st)}
    assert not kinds & {"fertility", "residence", "mission"} and "enterprise" in kinds
    st = play(st, {"type": "connections", "player": "red", "cards": 2, "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "Sci"},
              {"type": "take_friend", "player": "red", "friend": "Art1"})
    kinds = {o["type"] for o in engine.legal_options(st)}
    assert "fertility" in kinds and not kinds & {"residence", "mission"}
