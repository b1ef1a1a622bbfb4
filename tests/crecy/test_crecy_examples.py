"""Seed 002's worked examples, each played through `apply` from a position built as the
seed describes it (the section of the rulebook named in each test)."""

from __future__ import annotations

import pytest
from crecy_positions import at_actions, child, play

from companion.crecy import engine
from companion.games.errors import IllegalAction


def test_gertrude() -> None:
    """« Marier », the example: dowry 1, one friend from the display, +1 prestige, +3 gold
    for Friedrich the other Prussian, a girl drawn for the couple."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.family[0].sex, red.family[0].spouse = "female", "Friedrich"
    son = child(st, "red", "male")
    red.hand = ["Gertrude"]
    st = play(st, {"type": "marry", "player": "red", "member": son.id, "friend": "Gertrude",
                   "pawn": "player"})
    assert engine.pending(st).kind == "take_friend"
    st = play(st, {"type": "take_friend", "player": "red", "friend": "D2"})
    red = st.player("red")
    assert (red.gold, red.prestige, red.hand) == (1 + 3, 1, ["D2"])
    assert engine.pending(st).kind == "child_draw"
    st = play(st, {"type": "child_drawn", "card": "girl"})
    red = st.player("red")
    kids = [m for m in red.family if m.parent == son.id]
    assert [(k.sex, k.gen) for k in kids] == [("female", 3)] and red.member(son.id).children == 1
    assert red.born == 1 and engine.pending(st).player == "blue"


def test_ann_and_evgenia_at_generation_two() -> None:
    """« Début d'une génération », the example: Evgenia formalised first (2 friends, +1
    prestige, a yellow pawn), then Ann (1 friend, +2 honour with 7 cards in hand)."""
    st = at_actions(gen=1, display=("D1", "D2", "D3", "D4", "D5"))
    red = st.player("red")
    red.family[0].spouse, red.family[0].children = "Wife", 3
    a, b, _c = (child(st, "red", "male") for _ in range(3))
    a.spouse, a.arranged, b.spouse, b.arranged = "Ann", True, "Evgenia", True
    red.hand = ["H1", "H2", "H3", "H4"]
    st.round, st.turn = 2, 0
    for p in st.players:
        p.pawns, p.passed = 0, True
    st.players[1].born = 1                                 # blue does not die out
    red.born = 3
    st = engine.end_round(st)                              # the end of generation I
    assert st.gen == 2 and engine.pending(st).kind == "extra_deal"
    st = play(st, {"type": "extra_dealt", "player": "red", "colour": "green"},
              {"type": "extra_dealt", "player": "blue", "colour": "red"})
    assert engine.pending(st).kind == "formalise"
    assert engine.pending(st).player == "red"
    st = play(st, {"type": "formalise", "player": "red", "member": b.id},
              {"type": "take_friend", "player": "red", "friend": "D1"},
              {"type": "take_friend", "player": "red", "friend": "D2"},
              {"type": "child_drawn", "card": "boy"})
    red = st.player("red")
    assert len(red.hand) == 6 and red.prestige == 1 and sorted(red.extra) == ["green", "yellow"]
    honour = red.honour
    st = play(st, {"type": "formalise", "player": "red", "member": a.id},
              {"type": "take_friend", "player": "red", "friend": "D3"})
    red = st.player("red")
    assert len(red.hand) == 7 and red.honour == honour + 2


def test_ann_first_gives_no_honour() -> None:
    st = at_actions(gen=1)
    red = st.player("red")
    red.family[0].spouse, red.family[0].children = "Wife", 2
    a, b = (child(st, "red", "male") for _ in range(2))
    a.spouse, a.arranged, b.spouse, b.arranged = "Ann", True, "Evgenia", True
    red.hand, red.born, st.players[1].born = ["H1", "H2", "H3", "H4"], 2, 1
    for p in st.players:
        p.pawns, p.passed = 0, True
    st.round = 2
    st = engine.end_round(st)
    st = play(st, {"type": "extra_dealt", "player": "red", "colour": "green"},
              {"type": "extra_dealt", "player": "blue", "colour": "red"},
              {"type": "formalise", "player": "red", "member": a.id},
              {"type": "take_friend", "player": "red", "friend": "D1"})
    assert len(st.player("red").hand) == 5 and st.player("red").honour == 2  # 2 children only


def test_connections_with_three_cards_left() -> None:
    """« Nouer des relations », the example: pay 1 for 2, the last one taken free, 5 new."""
    st = at_actions(display=("D1", "D2", "D3"))
    st.player("red").gold = 1
    st = play(st, {"type": "connections", "player": "red", "cards": 2, "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "D3"},
              {"type": "take_friend", "player": "red", "friend": "D1"})
    red = st.player("red")
    assert red.gold == 0 and sorted(red.hand) == ["D1", "D2", "D3"] and st.display == []
    assert engine.pending(st).kind == "friend_draw"
    st = play(st, *({"type": "friend_drawn", "name": f"N{i}", "to": "display"} for i in range(5)))
    assert st.display == [f"N{i}" for i in range(5)] and engine.pending(st).player == "blue"


def test_the_count_title() -> None:
    """« Acquérir un titre », the example: 4 gold and 2 friend cards, +2 prestige, +1
    income, the action closed for the round, no second title for the head."""
    st = at_actions()
    red = st.player("red")
    red.gold, red.hand = 5, ["H1", "H2", "H3"]
    st = play(st, {"type": "title", "player": "red", "title": "Comte", "member": "head",
                   "pawn": "player"})
    assert engine.pending(st).kind == "discard"  # the cost's 2 cards, picked one by one
    st = play(st, {"type": "discard", "player": "red", "friend": "H1"},
              {"type": "discard", "player": "red", "friend": "H3"})
    red = st.player("red")
    assert (red.gold, red.hand, red.prestige, red.income) == (1, ["H2"], 2, 1)
    assert red.family[0].attached == {"title": "Comte"} and "Comte" not in st.titles
    assert st.friend_discard == ["H1", "H3"] and "title" in st.occupied
    st.turn = 0
    with pytest.raises(IllegalAction, match="once per round"):
        engine.apply(st, {"type": "title", "player": "red", "title": "Titre I.2",
                          "member": "head", "pawn": "player"})


def test_the_court_ballet() -> None:
    """« Contribuer à la vie publique », the example (generation II): 2 gold, -1 income,
    +1 honour, +2 prestige; the couple can never contribute again."""
    st = at_actions(gen=2)
    red = st.player("red")
    son = child(st, "red", "male")
    son.spouse = "Gertrude"
    red.gold, red.income = 3, 2
    st = play(st, {"type": "contribute", "player": "red", "contribution": "Ballet à la Cour",
                   "member": son.id, "pawn": "player"})
    red = st.player("red")
    assert (red.gold, red.income, red.honour, red.prestige) == (1, 1, 1, 2)
    assert red.member(son.id).attached == {"contribution": "Ballet à la Cour"}


def test_fertility_with_a_complication() -> None:
    """« Consulter un spécialiste en fertilité », the example: a boy, then a complication:
    the child is lost, the complication kept (immune for the generation)."""
    st = at_actions(gen=2)
    red = st.player("red")
    son = child(st, "red", "male")
    son.spouse, son.children = "Gertrude", 1
    red.gold, red.hand = 2, ["H1"]
    st = play(st, {"type": "fertility", "player": "red", "member": son.id, "pawn": "player"},
              {"type": "discard", "player": "red", "friend": "H1"},
              {"type": "child_drawn", "card": "boy"},
              {"type": "child_drawn", "card": "complication"})
    assert engine.pending(st).kind == "complication"
    st = play(st, {"type": "complication", "player": "red", "choice": "lose_child"})
    red = st.player("red")
    assert red.gold == 0 and red.member(son.id).children == 2 and red.immune
    assert red.complications == 1 and engine.pending(st).player == "blue"


def test_a_couple_that_cannot_have_two_more_children_has_no_fertility() -> None:
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.spouse, son.children = "Gertrude", 2
    st.player("red").gold, st.player("red").hand = 2, ["H1"]
    with pytest.raises(IllegalAction, match="at least 2 more children"):
        engine.apply(st, {"type": "fertility", "player": "red", "member": son.id,
                          "pawn": "player"})


def test_generation_end_prestige_and_children() -> None:
    """« Fin de la génération », the examples: prestige 6 → +6 honour; couples with 2 and 3
    children born this generation → +5 honour."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.prestige, red.born = 6, 5
    st.players[1].born = 1
    st.round = 3
    for p in st.players:
        p.pawns, p.passed = 0, True
    st = engine.end_round(st)
    assert st.player("red").honour == 6 + 5 and st.gen == 3


def test_income_four() -> None:
    """« Phase de revenu », the example: income 4 → 4 gold at the end of the round."""
    st = at_actions()
    st.player("red").income = 4
    for p in st.players:
        p.pawns, p.passed = 0, True
    st = engine.end_round(st)
    assert st.player("red").gold == 4 and st.round == 2


def test_no_income_after_the_last_round() -> None:
    st = at_actions(gen=3)
    st.round = 4
    for p in st.players:
        p.pawns, p.passed, p.income, p.born = 0, True, 4, 1
    st = engine.end_round(st)
    assert st.player("red").gold == 0 and engine.pending(st).kind == "mentor_score"


def test_john_law() -> None:
    """« Décompte final », the example: income 8 → 9 honour (the table reads the mentor),
    one mission under the mentor → one secondary objective, 4 honour."""
    st = at_actions(gen=3)
    st.round = 4
    for p in st.players:
        p.pawns, p.passed, p.born = 0, True, 1
    st.player("red").income, st.player("red").under_mentor = 8, 1
    st = engine.end_round(st)
    with pytest.raises(IllegalAction, match="1 mission"):
        engine.apply(st, {"type": "mentor_score", "player": "red", "main": 9,
                          "secondary": [4, 2]})
    st = play(st, {"type": "mentor_score", "player": "red", "main": 9, "secondary": [4]},
              {"type": "mentor_score", "player": "blue", "main": 3, "secondary": []})
    assert st.player("red").honour == 1 + 13 and engine.is_over(st)
    assert st.winner == ["red"]


def test_claire() -> None:
    """« Précisions sur les cartes », Claire: 3 on display, take 1, Claire's one more, the
    last one free."""
    st = at_actions(display=("D1", "D2", "D3"))
    st.player("red").effects = ["connections_plus_one"]
    st = play(st, {"type": "connections", "player": "red", "cards": 1, "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "D1"},
              {"type": "take_friend", "player": "red", "friend": "D2"})
    assert sorted(st.player("red").hand) == ["D1", "D2", "D3"]
    assert engine.pending(st).kind == "friend_draw"


def test_fehmi() -> None:
    """« Précisions sur les cartes », Fehmi: one friend as usual, then the display
    discarded, 5 new dealt, one of them taken."""
    st = at_actions(gen=2, display=("D1", "D2", "D3", "D4", "D5"))
    red = st.player("red")
    son = child(st, "red", "male")
    red.hand = ["Fehmi"]
    st = play(st, {"type": "marry", "player": "red", "member": son.id, "friend": "Fehmi",
                   "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "D1"})
    assert engine.pending(st).kind == "friend_draw"
    assert st.friend_discard == ["D2", "D3", "D4", "D5"]
    st = play(st, *({"type": "friend_drawn", "name": f"N{i}", "to": "display"} for i in range(5)),
              {"type": "take_friend", "player": "red", "friend": "N4"})
    assert st.player("red").hand == ["D1", "N4"] and engine.pending(st).kind == "child_draw"


def test_the_extra_pawn_example() -> None:
    """« Nombre d'actions », the example: marrying Pierre gives a red pawn; then two more
    actions, one of them the mission; or the red pawn kept while the player pawn is used."""
    st = at_actions()
    red = st.player("red")
    red.family[0].sex = "female"
    red.hand, red.gold = ["Pierre", "H1"], 5
    st = play(st, {"type": "marry", "player": "red", "member": "head", "friend": "Pierre",
                   "pawn": "player"},
              {"type": "child_drawn", "card": "boy"})
    red = st.player("red")
    assert red.extra == ["red"] and red.pawns == 1 and red.income == 1
    st = play(st, {"type": "ask_money", "player": "blue", "gold": 2,
                   "pawn": "player"})
    kinds = {(a["type"], a.get("pawn")) for a in engine.legal_options(st)}
    assert ("mission", "extra") in kinds and ("residence", "extra") not in kinds


def test_a_player_with_a_player_pawn_must_play_it_and_keeps_the_green_pawn() -> None:
    """« Phase d'actions », the example: the green pawn's action is taken, the player pawn
    must be played; the green pawn is kept for a later round of the generation."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.pawns, red.extra = 1, ["green"]
    st.occupied = ["residence"]
    options = engine.legal_options(st)
    assert {a["pawn"] for a in options if "pawn" in a} == {"player"}
    assert not any(a["type"] == "pass" for a in options)
    st = play(st, {"type": "ask_money", "player": "red", "gold": 2,
                   "pawn": "player"})
    st = play(st, {"type": "ask_money", "player": "blue", "gold": 2,
                   "pawn": "player"})
    assert engine.pending(st).player == "red"          # may pass with only the green pawn
    st = play(st, {"type": "pass", "player": "red"})
    assert st.player("red").extra == ["green"]


def test_ann_counts_at_least_six_cards() -> None:
    """The example says "au moins 6 cartes Ami en main": exactly 6 after her friend card
    is taken gives the 2 honour."""
    st = at_actions(gen=2)
    red = st.player("red")
    son = child(st, "red", "male")
    red.hand = ["Ann", "H1", "H2", "H3", "H4", "H5"]
    st = play(st, {"type": "marry", "player": "red", "member": son.id, "friend": "Ann",
                   "pawn": "player"},
              {"type": "take_friend", "player": "red", "friend": "D1"})
    assert len(st.player("red").hand) == 6 and st.player("red").honour == 2


def test_surprise_twins_draws_again_beyond_the_limit() -> None:
    """« Cartes enfant », Jumeaux surprise: another child at once, even past 3."""
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.spouse, son.children = "Gertrude", 2
    st = play(st, {"type": "have_child", "player": "red", "member": son.id, "sex": None,
                   "pawn": "player"},
              {"type": "child_drawn", "card": "girl", "effect": "surprise_twins"})
    assert engine.pending(st).kind == "child_draw"
    st = play(st, {"type": "child_drawn", "card": "boy"})
    assert st.player("red").member(son.id).children == 4
    with pytest.raises(IllegalAction, match="at most 3 children"):
        st.turn = 0
        engine.apply(st, {"type": "have_child", "player": "red", "member": son.id,
                          "sex": None, "pawn": "player"})


def test_drawing_until_a_girl_costs_one_honour_and_puts_boys_back() -> None:
    """« Avoir des enfants »: 1 honour, draw until the sex wanted; the rejected cards are
    shuffled back."""
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.spouse = "Gertrude"
    deck = dict(st.child_deck)
    st = play(st, {"type": "have_child", "player": "red", "member": son.id, "sex": "female",
                   "pawn": "player"},
              {"type": "child_drawn", "card": "boy"}, {"type": "child_drawn", "card": "boy"})
    with pytest.raises(IllegalAction, match="printed effect"):
        engine.apply(st, {"type": "child_drawn", "card": "girl", "effect": "dragon"})
    st = play(st, {"type": "child_drawn", "card": "girl"})
    assert st.player("red").honour == -1 and st.child_deck == {**deck, "girl": deck["girl"] - 1}


def test_losing_the_mother_then_drawing_until_a_child() -> None:
    """« Complications à la naissance »: lose the mother, draw until a girl or a boy, placed
    under the father; a widower may remarry; the head matriarch cannot die."""
    st = at_actions(gen=2)
    son = child(st, "red", "male")
    son.spouse = "Gertrude"
    st = play(st, {"type": "have_child", "player": "red", "member": son.id, "sex": None,
                   "pawn": "player"},
              {"type": "child_drawn", "card": "complication"},
              {"type": "complication", "player": "red", "choice": "lose_mother"},
              {"type": "child_drawn", "card": "complication"},  # immune: discarded
              {"type": "child_drawn", "card": "boy"})
    red = st.player("red")
    assert red.member(son.id).spouse is None and red.member(son.id).children == 1
    assert "Gertrude" in st.friend_discard and st.child_discard == 1
    st2 = at_actions(gen=1)
    st2.player("red").family[0].sex, st2.player("red").family[0].spouse = "female", "Pierre"
    st2 = play(st2, {"type": "have_child", "player": "red", "member": "head", "sex": None,
                     "pawn": "player"}, {"type": "child_drawn", "card": "complication"})
    options = [o["choice"] for o in engine.legal_options(st2)]
    assert options == ["lose_child"]
    with pytest.raises(IllegalAction, match="family head cannot die"):
        engine.apply(st2, {"type": "complication", "player": "red", "choice": "lose_mother"})


def test_a_negative_income_takes_only_the_gold_there_is() -> None:
    st = at_actions()
    st.player("red").income, st.player("red").gold = -2, 1
    for p in st.players:
        p.pawns, p.passed = 0, True
    assert engine.end_round(st).player("red").gold == 0


def test_robert_asks_for_money_without_a_pawn_with_another_englishman() -> None:
    """« Précisions sur les cartes », Robert: with another English friend in the family,
    ask friends for money at once without a pawn, paying its cost (typed « Anglais »)."""
    st = at_actions(gen=2)
    red = st.player("red")
    red.family[0].sex, red.family[0].spouse = "female", "Edward"
    son = child(st, "red", "female")
    red.hand = ["Robert", "H1"]
    from companion.crecy.box import FRIEND

    st.book = st.book.learn(FRIEND.name, "Edward", {
        "sex": "male", "nationality": "Anglais", "activity": "diplomat", "gold": 0,
        "income": 0, "friends": 0, "prestige": 0, "effect": "none"}).learn(
        FRIEND.name, "Robert", {"sex": "male", "nationality": "English",
                                "activity": "artist", "gold": -1, "income": 1, "friends": 0,
                                "prestige": 0, "effect": "free_ask_money_if_english"})
    red.gold = 1
    st = play(st, {"type": "marry", "player": "red", "member": son.id, "friend": "Robert",
                   "pawn": "player"})
    assert engine.pending(st).kind == "ask_money_free"
    st = play(st, {"type": "ask_money_free", "player": "red", "gold": 4},
              {"type": "discard", "player": "red", "friend": "H1"})
    red = st.player("red")
    assert (red.gold, red.honour, red.hand, red.pawns) == (4, -1, [], 1)
    assert engine.pending(st).kind == "child_draw"


def test_isabella_swaps_cards() -> None:
    """« Précisions sur les cartes », Isabella: discard X friend cards, draw X (X may be 0)."""
    st = at_actions(gen=2)
    red = st.player("red")
    son = child(st, "red", "male")
    red.hand = ["Isabella", "H1", "H2", "H3"]
    from companion.crecy.box import FRIEND

    st.book = st.book.learn(FRIEND.name, "Isabella", {
        "sex": "female", "nationality": "Italian", "activity": "artist", "gold": 0,
        "income": 1, "friends": 0, "prestige": 0, "effect": "swap_cards"})
    st = play(st, {"type": "marry", "player": "red", "member": son.id, "friend": "Isabella",
                   "pawn": "player"},
              {"type": "swap", "player": "red", "friend": "H1"},
              {"type": "swap", "player": "red", "friend": "H3"},
              {"type": "swap", "player": "red", "friend": None})
    assert engine.pending(st).to_json() == {"kind": "friend_draw", "player": None, "left": 2,
                                            "to": "red"}
    st = play(st, {"type": "friend_drawn", "name": "N1", "to": "red"},
              {"type": "friend_drawn", "name": "N2", "to": "red"})
    assert st.player("red").hand == ["H2", "N1", "N2"] and st.friend_discard == ["H1", "H3"]
    assert engine.pending(st).kind == "child_draw"


def test_eustachy_at_the_fertility_specialist() -> None:
    """« Précisions sur les cartes », Eustachy: at the fertility specialist, 4 cards: one
    kept of the first two, one of the last two, the others discarded."""
    st = at_actions(gen=2)
    red = st.player("red")
    daughter = child(st, "red", "female")
    daughter.spouse = "Eustachy"
    from companion.crecy.box import FRIEND

    st.book = st.book.learn(FRIEND.name, "Eustachy", {
        "sex": "male", "nationality": "Polish", "activity": "scientist", "gold": -1,
        "income": 1, "friends": 0, "prestige": 0, "effect": "choose_child_of_two"})
    red.gold, red.hand = 2, ["H1"]
    deck = dict(st.child_deck)
    st = play(st, {"type": "fertility", "player": "red", "member": daughter.id,
                   "pawn": "player"},
              {"type": "discard", "player": "red", "friend": "H1"},
              {"type": "child_drawn", "card": "boy"},
              {"type": "child_drawn", "card": "girl"})
    assert engine.pending(st).to_json()["pair"] == [["boy", None], ["girl", None]]
    st = play(st, {"type": "choose_child", "player": "red", "card": "girl"},
              {"type": "child_drawn", "card": "complication"},
              {"type": "child_drawn", "card": "boy"},
              {"type": "choose_child", "player": "red", "card": "boy"})
    red = st.player("red")
    assert [m.card for m in red.family if m.parent == daughter.id] == ["girl", "boy"]
    assert st.child_discard == 2 and not red.immune
    assert sum(st.child_deck.values()) == sum(deck.values()) - 4
