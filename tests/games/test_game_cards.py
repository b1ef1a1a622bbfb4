"""A box that learns its cards (`companion.games.cards`, `companion.games.cardstore`): the
form of a card type, the book of shipped and learned values, the answer as a record action,
and the table's store on a real file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.cards import (
    ANSWER,
    CardBook,
    CardType,
    CardValueError,
    Field,
    Printed,
    answer_action,
    parse_answer,
)
from companion.games.cardstore import CardStore, cards_path

FRIEND = CardType("test.friend", "a friend card", (
    Field("sex", "choice", "Sex", ("female", "male")),
    Field("prestige", "int", "Prestige", low=-5, high=5),
    Field("effect", "text", "Effect", optional=True),
))
OTHER = CardType("other.tile", "a tile", (Field("points", "int", "Points"),))


def book() -> CardBook:
    return CardBook({FRIEND.name: FRIEND}, shipped={
        (FRIEND.name, "Gertrude"): Printed({"sex": "female"}, "seed p.12"),
        (FRIEND.name, "Pierre"): Printed({"sex": "male", "prestige": 0}, "seed p.9"),
    })


def test_a_card_is_known_only_when_every_required_value_is() -> None:
    b = book()
    assert not b.knows(FRIEND.name, "Gertrude")          # prestige unknown
    assert b.values(FRIEND.name, "Pierre") == {"sex": "male", "prestige": 0, "effect": None}
    assert b.source(FRIEND.name, "Pierre") == "seed p.9"
    assert not b.knows(FRIEND.name, "Nobody") and b.source(FRIEND.name, "Nobody") is None


def test_the_question_is_the_types_form_with_what_is_known() -> None:
    q = book().question(FRIEND.name, "Gertrude")
    assert q["question"] == "What is printed on a friend card Gertrude?"
    assert [f["name"] for f in q["fields"]] == ["sex", "prestige", "effect"]
    assert q["fields"][0]["choices"] == ["female", "male"]
    assert q["known"] == {"sex": "female"} and q["source"] == "seed p.12"


def test_an_answer_is_learned_checked_and_corrected() -> None:
    b = book().learn(FRIEND.name, "Gertrude", {"sex": "female", "prestige": "1"})
    assert b.values(FRIEND.name, "Gertrude") == {"sex": "female", "prestige": 1, "effect": None}
    assert b.source(FRIEND.name, "Gertrude") == "the table"
    b2 = b.learn(FRIEND.name, "Gertrude", {"sex": "female", "prestige": 2})
    assert b2.values(FRIEND.name, "Gertrude")["prestige"] == 2  # type: ignore[index]
    assert b.values(FRIEND.name, "Gertrude")["prestige"] == 1  # type: ignore[index]


@pytest.mark.parametrize("values, words", [
    ({"sex": "other", "prestige": 1}, "Sex: 'other' is not one of"),
    ({"sex": "male"}, "Prestige: a value is needed"),
    ({"sex": "male", "prestige": 9}, "Prestige: 9 is not in -5..5"),
    ({"sex": "male", "prestige": "two"}, "Prestige: a whole number"),
    ({"sex": "male", "prestige": True}, "Prestige: a whole number"),
    ({"sex": "male", "prestige": 1, "colour": "red"}, "has no field 'colour'"),
    ([1, 2], "the values are a JSON object"),
])
def test_a_bad_answer_is_refused_naming_the_field(values: object, words: str) -> None:
    with pytest.raises(CardValueError, match=words) as err:
        book().learn(FRIEND.name, "Pierre", values)
    assert err.value.code == "bad_card_values"


def test_an_unknown_type_or_a_nameless_card_is_refused() -> None:
    with pytest.raises(CardValueError, match=r"no card type 'x\.y'"):
        book().learn("x.y", "A", {})
    with pytest.raises(CardValueError, match="printed name"):
        book().learn(FRIEND.name, " ", {"sex": "male", "prestige": 0})


def test_an_answer_is_a_record_action_and_learned_json_round_trips() -> None:
    act = answer_action(FRIEND.name, "Ann", {"sex": "female", "prestige": 0})
    assert act["type"] == ANSWER == "card_values"
    kind, card, values = parse_answer(json.loads(json.dumps(act)))
    b = book().learn(kind, card, values)
    data = b.learned_json()
    assert data == {"test.friend": {"Ann": {"sex": "female", "prestige": 0, "effect": None}}}
    again = book().with_learned_json({**data, "other.tile": {"T": {"points": 1}}})
    assert again.learned == b.learned           # another game's types are left out
    with pytest.raises(CardValueError):
        parse_answer({"type": ANSWER, "card": "Ann"})


def test_the_store_keeps_answers_on_disk_for_the_next_game(tmp_path: Path) -> None:
    path = cards_path(tmp_path / "boxcheck.json")
    assert path == tmp_path / "cards.json"
    store = CardStore(path)
    assert store.learned() == {}
    store.save(FRIEND, "Ann", {"sex": "female", "prestige": 1})
    store.save(OTHER, "T1", {"points": 3})
    again = CardStore(path)                     # a later process
    assert again.learned("test.") == {"test.friend": {
        "Ann": {"sex": "female", "prestige": 1, "effect": None}}}
    assert book().with_learned_json(again.learned()).knows(FRIEND.name, "Ann")
    with pytest.raises(CardValueError):
        again.save(FRIEND, "Bad", {"sex": "male"})
    assert "Bad" not in CardStore(path).learned()["test.friend"]
    assert again.forget("test.friend", "Ann") and not again.forget("test.friend", "Ann")
    assert CardStore(path).learned() == {"other.tile": {"T1": {"points": 3}}}


def test_a_bad_store_file_is_read_leniently(tmp_path: Path) -> None:
    path = tmp_path / "cards.json"
    path.write_text("{not json", "utf-8")
    store = CardStore(path)
    assert store.learned() == {} and "cannot read" in store.problems[0]
    path.write_text(json.dumps({"test.friend": {"A": [1], "B": {"sex": "male"}}}), "utf-8")
    store = CardStore(path)
    assert list(store.learned()["test.friend"]) == ["B"] and len(store.problems) == 1


def test_a_store_that_cannot_write_keeps_what_it_had(tmp_path: Path) -> None:
    from companion.store import StorageUnavailable

    blocked = tmp_path / "file"
    blocked.write_text("x", "utf-8")
    store = CardStore(blocked / "cards.json")   # its folder is a file
    with pytest.raises(StorageUnavailable):
        store.save(FRIEND, "Ann", {"sex": "female", "prestige": 1})
    assert store.learned() == {}
