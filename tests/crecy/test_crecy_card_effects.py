"""The card effects of seed 002's « Précisions sur les cartes » coded after the first
set: Roger, Erich, the child cards Charmant, Don Juan, Reine des commères, Ravissant
sourire, and the missions « Une machine révolutionnaire », « Une nouvelle guilde des
artisans », « Une fresque pour la cathédrale». Each written from the rulebook's text,
played through `apply`."""

from __future__ import annotations

from typing import Any

import pytest
from crecy_positions import at_actions, child, play

from companion.crecy import engine
from companion.crecy.box import FRIEND, MISSION
from companion.crecy.state import State
from companion.games.errors import IllegalAction


def friend(name: str, **values: Any) -> dict[str, Any]:
    base = {"sex": "male", "nationality": "French", "activity": "diplomat", "gold": 0,
            "income": 0, "friends": 0, "prestige": 0, "effect": "none"}
    return {"type": "card_values", "card_type": FRIEND.name, "card": name,
            "values": {**base, **values}}


def to_generation_two(st: State, *kids_effects: str | None) -> tuple[State, list[str]]:
    """Red's three sons of generation II, with these printed child effects, grow up: the
    end of generation I is played to the start of generation II."""
    red = st.player("red")
    red.family[0].spouse, red.family[0].children = "Wife", len(kids_effects)
    ids = []
    for effect in kids_effects:
        kid = child(st, "red", "female" if effect in ("gossip_queen", "ravishing_smile")
                    else "male")
        if effect:
            kid.attached["effect"] = effect
        ids.append(kid.id)
    for p in st.players:
        p.pawns, p.passed = 0, True
    st.players[1].born, red.born, st.round = 1, len(kids_effects), 2
    st = engine.end_round(st)
    st = play(st, {"type": "extra_dealt", "player": "red", "colour": "green"},
              {"type": "extra_dealt", "player": "blue", "colour": "red"})
    return st, ids


# --- child cards (« Cartes enfant ») ------------------------------------------------------


def test_charming_gives_two_gold_when_he_marries() -> None:
    """Charmant: +2 gold when he marries, received after the marriage is resolved."""
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.attached["effect"] = "charming"
    st.player("red").hand = ["Lise"]
    st = play(st, friend("Lise", sex="female", gold=1),
              {"type": "marry", "player": "red", "member": son.id, "friend": "Lise",
               "pawn": "player"})
    assert st.player("red").gold == 1 + 2


def test_charming_gives_nothing_to_another_son() -> None:
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    st.player("red").hand = ["Lise"]
    st = play(st, friend("Lise", sex="female", gold=1),
              {"type": "marry", "player": "red", "member": son.id, "friend": "Lise",
               "pawn": "player"})
    assert st.player("red").gold == 1


def test_don_juan_takes_a_woman_from_the_display_when_he_grows_up() -> None:
    """Don Juan: when he becomes an adult, take a female friend card from those face up
    (the display's cards whose values are unknown are asked first: they are public)."""
    st = at_actions(gen=1, display=("Lise", "Marc", "D3"))
    st = play(st, friend("Lise", sex="female"), friend("Marc"))
    st, _ = to_generation_two(st, "don_juan")
    assert engine.pending(st).kind == "learn"
    assert engine.pending(st).detail["question"]["card"] == "D3"
    st = play(st, friend("D3"))
    assert engine.pending(st).kind == "take_friend"
    assert engine.pending(st).detail["sex"] == "female"
    with pytest.raises(IllegalAction) as no:
        engine.apply(st, {"type": "take_friend", "player": "red", "friend": "Marc"})
    assert no.value.code == "sex"
    assert [o["friend"] for o in engine.legal_options(st)] == ["Lise"]
    st = play(st, {"type": "take_friend", "player": "red", "friend": "Lise"})
    assert "Lise" in st.player("red").hand and "Lise" not in st.display


def test_don_juan_without_a_woman_on_display_loses_the_bonus() -> None:
    st = at_actions(gen=1, display=("Marc", "Paul"))
    st = play(st, friend("Marc"), friend("Paul"))
    st, _ = to_generation_two(st, "don_juan")
    assert engine.pending(st).kind != "take_friend" and st.player("red").hand == []


def test_gossip_queen_draws_two_friend_cards_when_she_grows_up() -> None:
    """Reine des commères: draw 2 friend cards as soon as she grows up (into the hand,
    privately)."""
    st = at_actions(gen=1)
    st, _ = to_generation_two(st, "gossip_queen")
    assert engine.pending(st).to_json() == {"kind": "friend_draw", "player": None, "left": 2,
                                            "to": "red"}
    st = play(st, {"type": "friend_drawn", "name": "N1", "to": "red"},
              {"type": "friend_drawn", "name": "N2", "to": "red"})
    assert st.player("red").hand == ["N1", "N2"]


def test_ravishing_smile_gives_one_more_gold_for_each_ask_this_generation() -> None:
    """Ravissant sourire: this generation, each « Demander de l'argent à vos amis » gives
    1 more gold (its usual cost paid)."""
    st = at_actions(gen=1)
    st, _ = to_generation_two(st, "ravishing_smile")
    red = st.player("red")
    red.gold, red.honour = 0, 0
    st.turn = st.players.index(red)
    st = play(st, {"type": "ask_money", "player": "red", "gold": 3, "pawn": "player"})
    assert (st.player("red").gold, st.player("red").honour) == (3 + 1, -1)


# --- friends (« Précisions sur les cartes ») ------------------------------------------------


def marry_son(st: State, name: str, **values: Any) -> State:
    son = child(st, "red", "male") if values.get("sex") == "female" else \
        child(st, "red", "female")
    st.player("red").hand.append(name)
    return play(st, friend(name, **values),
                {"type": "marry", "player": "red", "member": son.id, "friend": name,
                 "pawn": "player"})


def test_roger_takes_the_connections_from_the_deck() -> None:
    """Roger: this generation, each time friend cards are taken, all of them may be drawn
    from the deck instead (all from the display or all from the deck)."""
    st = at_actions(gen=2, display=("D1", "D2", "D3", "D4", "D5"))
    st = marry_son(st, "Roger", effect="friends_from_deck")
    st = play(st, {"type": "child_drawn", "card": "boy"})
    st.turn = 0
    st.player("red").gold = 2
    st = play(st, {"type": "connections", "player": "red", "cards": 3, "pawn": "player"})
    assert {"type": "friends_from_deck", "player": "red"} in engine.legal_options(st)
    st = play(st, {"type": "friends_from_deck", "player": "red"})
    assert engine.pending(st).to_json() == {"kind": "friend_draw", "player": None, "left": 3,
                                            "to": "red"}
    st = play(st, *({"type": "friend_drawn", "name": f"N{i}", "to": "red"} for i in range(3)))
    assert st.display == ["D1", "D2", "D3", "D4", "D5"]
    assert st.player("red").hand == ["N0", "N1", "N2"] and st.player("red").gold == 0


def test_roger_all_or_nothing_once_a_card_is_taken_from_the_display() -> None:
    st = at_actions(gen=2)
    st = marry_son(st, "Roger", effect="friends_from_deck")
    st = play(st, {"type": "child_drawn", "card": "boy"})
    st.turn = 0
    st.player("red").gold = 1
    st = play(st, {"type": "connections", "player": "red", "cards": 2, "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "D1"})
    assert {"type": "friends_from_deck", "player": "red"} not in engine.legal_options(st)
    with pytest.raises(IllegalAction) as no:
        engine.apply(st, {"type": "friends_from_deck", "player": "red"})
    assert no.value.code == "not_now"


def test_without_roger_friends_come_from_the_display() -> None:
    st = at_actions(gen=2)
    st.player("red").gold = 1
    st = play(st, {"type": "connections", "player": "red", "cards": 2, "pawn": "player"})
    with pytest.raises(IllegalAction):
        engine.apply(st, {"type": "friends_from_deck", "player": "red"})


@pytest.mark.parametrize(("effect", "gold", "cards"), [
    ("residence_less_gold_if_nationality", 2, 1),
    ("residence_less_card_if_nationality", 3, 0)])
def test_erich_makes_every_residence_cheaper_this_generation(effect: str, gold: int,
                                                             cards: int) -> None:
    """Erich: this generation, « Acheter une Demeure » costs 1 less (gold or a card: the
    icon is lost, the table says which from the card) with another of his kind in the
    family, for every residence, not only his."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.family[0].sex, red.family[0].spouse = "female", "Karl"
    st = play(st, friend("Karl", nationality="Prussian"))
    st = marry_son(st, "Erich", sex="male", nationality="Prussien", effect=effect)
    st = play(st, {"type": "child_drawn", "card": "boy"})
    st.turn = 0
    red = st.player("red")
    red.gold, red.hand = 3, ["H1", "H2"]
    other = child(st, "red", "male")  # any member of generation II, not only Erich's couple
    st = play(st, {"type": "residence", "player": "red", "member": other.id,
                   "pawn": "player"})
    if cards:
        st = play(st, {"type": "discard", "player": "red", "friend": "H1"})
    red = st.player("red")
    assert (red.gold, len(red.hand), red.prestige) == (3 - gold, 2 - cards, 2)


def test_erich_alone_of_his_kind_gives_no_reduction() -> None:
    st = at_actions(gen=2)
    st = marry_son(st, "Erich", sex="male", nationality="Prussian",
                   effect="residence_less_gold_if_nationality")
    st = play(st, {"type": "child_drawn", "card": "boy"})
    st.turn = 0
    st.player("red").gold, st.player("red").hand = 2, ["H1"]
    other = child(st, "red", "male")
    with pytest.raises(IllegalAction) as no:
        engine.apply(st, {"type": "residence", "player": "red", "member": other.id,
                          "pawn": "player"})
    assert no.value.code == "gold"


# --- missions (« Cartes mission ») ----------------------------------------------------------


def mission(name: str, **values: Any) -> dict[str, Any]:
    return {"type": "card_values", "card_type": MISSION.name, "card": name,
            "values": values}


def test_the_guild_counts_as_an_artisan_for_hans_heinrich() -> None:
    """« Une nouvelle guilde des artisans »: kept, it counts as a card of its activity for
    the rest of the game (for friends' effects too): Hans Heinrich's condition is met."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.missions = ["Une nouvelle guilde des artisans"]
    with pytest.raises(IllegalAction) as unknown:
        engine.apply(st, {"type": "validate_mission", "player": "red",
                          "mission": "Une nouvelle guilde des artisans", "honour": 2})
    assert unknown.value.code == "unknown_card"
    st = play(st, mission("Une nouvelle guilde des artisans", effect="counts_as_activity",
                          activity="artisan"),
              {"type": "validate_mission", "player": "red",
               "mission": "Une nouvelle guilde des artisans", "honour": 2})
    assert st.player("red").honour == 2
    st = marry_son(st, "Hans Heinrich", sex="male", activity="artisan",
                   effect="free_ask_money_if_artisan")
    assert engine.pending(st).kind == "ask_money_free"


def test_without_the_guild_hans_heinrich_alone_asks_nothing() -> None:
    st = at_actions(gen=2)
    st = marry_son(st, "Hans Heinrich", sex="male", activity="artisan",
                   effect="free_ask_money_if_artisan")
    assert engine.pending(st).kind == "child_draw"


def test_the_fresco_takes_four_gold_off_each_contribution_this_generation() -> None:
    """« Une fresque pour la cathédrale »: this generation, each contribution costs 4 gold
    less; no gold is gained when it cost less (the court ballet costs 2: it is free)."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.missions, red.gold, red.income = ["Une fresque pour la cathédrale"], 0, 3
    son = child(st, "red", "male")
    st = play(st, {"type": "validate_mission", "player": "red",
                   "mission": "Une fresque pour la cathédrale", "honour": 0},
              {"type": "contribute", "player": "red", "contribution": "Ballet à la Cour",
               "member": son.id, "pawn": "player"})
    red = st.player("red")
    assert (red.gold, red.income, red.honour, red.prestige) == (0, 2, 1, 2)


def test_the_revolutionary_machine_asks_its_activity() -> None:
    st = at_actions(gen=2)
    st.player("red").missions = ["Une machine révolutionnaire"]
    with pytest.raises(IllegalAction) as unknown:
        engine.apply(st, {"type": "validate_mission", "player": "red",
                          "mission": "Une machine révolutionnaire", "honour": 1})
    assert unknown.value.code == "unknown_card"
    q = st.book.question(MISSION.name, "Une machine révolutionnaire")
    assert q["known"] == {"effect": "counts_as_activity"}


def test_a_mission_the_seed_explains_nothing_of_is_validated_without_a_form() -> None:
    st = at_actions(gen=2)
    st.player("red").missions = ["Un empire à soutenir"]
    st = play(st, {"type": "validate_mission", "player": "red",
                   "mission": "Un empire à soutenir", "honour": 3})
    assert st.player("red").honour == 3


# --- effects whose icons the seed lost: the table fills the blanks from the card ---------


def test_jan_gains_his_reward_and_one_honour_with_another_of_his_kind() -> None:
    """Jan: « Gagnez 1 [?] et +1 [Honneur] si vous avez au moins un autre [?] dans votre
    famille »; both rewards need the condition. The blanks are the table's answers."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.family[0].sex, red.family[0].spouse = "female", "Karl"
    st = play(st, friend("Karl", activity="scientist"))
    st = marry_son(st, "Jan", sex="male", activity="scientist",
                   effect="bonus_and_honour_if_same_activity", bonus_kind="gold",
                   bonus_amount=1, kin=1)
    assert (st.player("red").gold, st.player("red").honour) == (1, 1)


def test_aleksandr_needs_two_others_of_his_kind() -> None:
    st = at_actions(gen=2)
    red = st.player("red")
    red.family[0].sex, red.family[0].spouse = "female", "Karl"
    st = play(st, friend("Karl", nationality="Russian"))
    st = marry_son(st, "Aleksandr", sex="male", nationality="Russian",
                   effect="bonus_and_honour_if_same_nationality", bonus_kind="prestige",
                   bonus_amount=1, kin=2)
    assert (st.player("red").prestige, st.player("red").honour) == (0, 0)


def test_sophie_counts_the_gold_after_her_dowry() -> None:
    """Sophie: « +2 [?] si vous avez au moins 12 Or », checked after the dowry."""
    st = at_actions(gen=2)
    st.player("red").gold = 10
    st = marry_son(st, "Sophie", sex="female", gold=2, effect="bonus_if_12_gold",
                   bonus_kind="prestige", bonus_amount=2)
    assert (st.player("red").gold, st.player("red").prestige) == (12, 2)


def test_an_effect_with_blanks_needs_them_filled() -> None:
    st = at_actions(gen=2)
    from companion.games.errors import MalformedAction

    with pytest.raises(MalformedAction, match="bonus_kind"):
        engine.apply(st, friend("Thomas", effect="bonus_and_honour_if_same_activity"))
