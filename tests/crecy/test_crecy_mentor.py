"""The mentor's score from its learned form (« Décompte final »): the seed's John Law
example through `apply`, the count the phone shows, the refusals, and a mentor's form
kept secret (its public form, its narration)."""

from __future__ import annotations

from typing import Any

import pytest
from crecy_positions import at_actions, child, play

from companion.crecy import engine, mentor, views, words
from companion.crecy.state import State
from companion.games.errors import IllegalAction, MalformedAction

ARTISAN = {"sex": "female", "nationality": "French", "activity": "artisan", "gold": 0,
           "income": 0, "friends": 0, "prestige": 0, "effect": "none"}


def john_law(**more: Any) -> dict[str, Any]:
    """John Law as a table might type it: the example gives income 8 → 9 (1 per income,
    +1) and « 8 Or » → 4; the arranged marriages' count and honour are not in the seed
    (2 and 5 here: any value that fits the form)."""
    values: dict[str, Any] = {
        "main_count": "income", "main_per": 1, "main_plus": 1,
        "s1_count": "arranged", "s1_kind": "artisan", "s1_row": 4, "s1_at_least": 2,
        "s1_honour": 5,
        "s2_count": "gold", "s2_at_least": 8, "s2_honour": 4,
        "s3_count": "none"}
    return {"type": "card_values", "card_type": "crecy.mentor", "card": "John Law",
            "values": {**values, **more}}


def at_the_end(answer: bool = True) -> State:
    """Generation III's last round over: red holds John Law, income 8, 8 gold, one mission
    under the mentor, one arranged marriage with an artisan in the 4th row; blue holds a
    mentor the box does not know."""
    st = at_actions(gen=3)
    st = play(st, {"type": "card_values", "card_type": "crecy.friend", "card": "Artisane",
                   "values": ARTISAN})
    if answer:
        st = play(st, john_law())
    st.round = 4
    for p in st.players:
        p.pawns, p.passed, p.born = 0, True, 1
    red = st.player("red")
    st.player("blue").mentor = "Mentor B"
    red.income, red.gold, red.under_mentor = 8, 8, 1  # no income after the last round
    son = child(st, "red", "male", gen=3)
    grandchild = child(st, "red", "male", parent=son.id, gen=4)
    grandchild.spouse, grandchild.arranged = "Artisane", True
    st = engine.end_round(st)
    return st


def test_john_law_from_the_learned_form() -> None:
    st = at_the_end()
    red = st.player("red")
    assert red.gold == 8
    count = mentor.score(st.book, red)
    assert count is not None
    assert count.main == 9 and [o.met for o in count.secondary] == [False, True]
    assert count.best() == [4] and count.total == 13
    assert engine.pending(st).kind == "mentor_score"
    assert engine.legal_options(st) == [{"type": "mentor_score", "player": "red", "main": 9,
                                         "secondary": [4]}]
    with pytest.raises(IllegalAction, match="gives 9") as wrong:
        engine.apply(st, {"type": "mentor_score", "player": "red", "main": 10,
                          "secondary": [4]})
    assert wrong.value.code == "mentor_count"
    with pytest.raises(IllegalAction, match=r"met of \[4\]"):  # 1 arranged: not met
        engine.apply(st, {"type": "mentor_score", "player": "red", "main": 9,
                          "secondary": [5]})
    before = red.honour
    st = play(st, {"type": "mentor_score", "player": "red", "main": 9, "secondary": [4]})
    assert st.player("red").honour == before + 13
    # blue's mentor is not known: the table types the count, as before
    assert engine.legal_options(st) == []
    st = play(st, {"type": "mentor_score", "player": "blue", "main": 3, "secondary": []})
    assert engine.is_over(st)


def test_a_second_arranged_artisan_meets_the_other_objective() -> None:
    st = at_the_end()
    red = st.player("red")
    other = child(st, "red", "female", gen=4)
    other.spouse, other.arranged = "Artisane", True
    count = mentor.score(st.book, red)
    assert count is not None and count.best() == [5] and count.total == 14
    red.under_mentor = 2
    count = mentor.score(st.book, red)
    assert count is not None and count.best() == [5, 4]


def test_counts() -> None:
    st = at_the_end()
    red = st.player("red")
    assert mentor.count(st.book, red, "arranged") == 1
    assert mentor.count(st.book, red, "arranged", "artisan", 4) == 1
    assert mentor.count(st.book, red, "arranged", "diplomat") == 0
    assert mentor.count(st.book, red, "friends", "french") == 1  # the French word works too
    assert mentor.count(st.book, red, "children") == 2
    assert mentor.count(st.book, red, "sons", row=3) == 1
    assert mentor.count(st.book, red, "marriages", row=4) == 0


def test_unknown_or_other_is_counted_by_the_table() -> None:
    st = at_the_end(answer=False)
    assert mentor.score(st.book, st.player("red")) is None
    assert engine.legal_options(st) == []
    st = play(st, john_law(main_count="other"))
    assert mentor.score(st.book, st.player("red")) is None
    st = play(st, {"type": "mentor_score", "player": "red", "main": 11, "secondary": [4]})
    assert st.player("red").mentor_honour == 15


def test_a_secondary_objective_needs_its_count_and_honour() -> None:
    st = at_actions(gen=1)
    with pytest.raises(MalformedAction, match="s2_honour"):
        engine.apply(st, john_law(s2_honour=None))


def test_a_mentor_form_is_secret_in_public() -> None:
    st = at_actions(gen=1)
    action = john_law()
    shown = views.public_action(action)
    assert "John Law" not in str(shown) and "income" not in str(shown)
    after = engine.apply(st, action)
    told = words.headline(st, action, after)
    assert "John Law" not in told


def test_a_hand_card_s_form_names_nothing_until_it_is_played() -> None:
    """The early name (a hand card's form answered just before it is played face up named
    it to the table): the phone's answer carries ``hand``, its public form and narration
    name nothing, and the box keeps the card only once it is seen."""
    from companion.crecy import learned, phone

    st = at_actions(gen=1)
    st.player("red").hand = ["Inconnue"]
    form = {"type": "card_values", "card_type": "crecy.friend", "card": "Inconnue",
            "values": ARTISAN}
    assert not phone.owns(st, "red", form)                  # public: not the phone's
    assert phone.owns(st, "red", {**form, "hand": "red"})
    assert not phone.owns(st, "blue", {**form, "hand": "blue"})
    with pytest.raises(IllegalAction, match="not a friend card of blue's hand"):
        engine.apply(st, {**form, "hand": "blue"})
    after = engine.apply(st, {**form, "hand": "red"})
    assert "Inconnue" not in str(views.public_action({**form, "hand": "red"}))
    assert "Inconnue" not in words.headline(st, {**form, "hand": "red"}, after)
    assert learned.kept(st, after) == [] and ("crecy.friend", "Inconnue") not in \
        learned.public(after)
    options = [a for a in engine.legal_options(after) if a.get("friend") == "Inconnue"]
    married = engine.apply(after, options[0])
    [(kind, card, values)] = learned.kept(after, married)
    assert (kind, card) == ("crecy.friend", "Inconnue") and ARTISAN.items() <= values.items()
