"""A box that learns its cards: printed values a game does not ship, asked once at the table.

A game whose rulebook does not give every card's printed values (the project has the
rules, not the cards) describes each kind of card by a `CardType` (its fields, as a form
to fill) and ships what it does know as `Printed` values with their source. When a card
whose values are unknown enters play, the engine waits for a ``card_values`` action: the
`CardBook.question` is the form the page shows ("what is printed on this card?"), the
answer is an ordinary record action (`answer_action`), so a record carries every value it
used and replays anywhere. The table keeps the answers in its box data
(`companion.games.cardstore.CardStore`) and hands them to each new game
(`CardBook.learned_json` in the header), so a card is asked once per box, not per game.

    FRIEND = CardType("crecy.friend", "a friend card", (
        Field("sex", "choice", "Sex", ("female", "male")), Field("prestige", "int", "Prestige")))
    book = CardBook({FRIEND.name: FRIEND}, shipped={}, learned={})
    book.knows("crecy.friend", "Gertrude")          # False: ask
    book.question("crecy.friend", "Gertrude")       # the form, as JSON
    book = book.learn("crecy.friend", "Gertrude", {"sex": "female", "prestige": 1})
    book.values("crecy.friend", "Gertrude")         # {"sex": "female", "prestige": 1}

Bad answers raise `CardValueError` (a `MalformedAction`: the API answers 400).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.games.errors import MalformedAction

__all__ = [
    "ANSWER",
    "CardBook",
    "CardType",
    "CardValueError",
    "Field",
    "Printed",
    "answer_action",
    "parse_answer",
]

ANSWER = "card_values"
"""The record ``type`` of an answer: ``{"type": "card_values", "card_type", "card",
"values"}``."""

FIELD_KINDS = ("text", "int", "choice")


class CardValueError(MalformedAction):
    """An answer that does not fit its card type's form (the field and the value named)."""

    code = "bad_card_values"


@dataclass(frozen=True, slots=True)
class Field:
    """One printed value: ``kind`` ``text``, ``int`` (``low``..``high``) or ``choice``
    (one of ``choices``); ``optional`` fields may be left out (None)."""

    name: str
    kind: str
    label: str
    choices: tuple[str, ...] = ()
    optional: bool = False
    low: int = -99
    high: int = 99

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name}: kind {self.kind!r} not one of {FIELD_KINDS}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"field {self.name}: a choice needs its choices")

    def check(self, value: Any) -> Any:
        """The value as stored. Raises CardValueError naming the field."""
        if value is None or value == "":
            if self.optional:
                return None
            raise CardValueError(f"{self.label}: a value is needed", rule="card form")
        if self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise CardValueError(f"{self.label}: a whole number, got {value!r}")
            try:
                number = int(value)
            except ValueError:
                raise CardValueError(f"{self.label}: a whole number, got {value!r}") from None
            if not self.low <= number <= self.high:
                raise CardValueError(f"{self.label}: {number} is not in {self.low}..{self.high}")
            return number
        if not isinstance(value, str):
            raise CardValueError(f"{self.label}: text, got {value!r}")
        text = value.strip()
        if self.kind == "choice" and text not in self.choices:
            raise CardValueError(f"{self.label}: {text!r} is not one of {list(self.choices)}")
        if not text or len(text) > 200:
            raise CardValueError(f"{self.label}: 1 to 200 characters")
        return text

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label,
                               "optional": self.optional}
        if self.kind == "choice":
            out["choices"] = list(self.choices)
        if self.kind == "int":
            out["low"], out["high"] = self.low, self.high
        return out


@dataclass(frozen=True, slots=True)
class CardType:
    """A kind of card and the form of what is printed on it. ``name`` is global
    (``game.kind``, e.g. ``crecy.friend``); ``title`` is for people."""

    name: str
    title: str
    fields: tuple[Field, ...]

    def check(self, values: Any) -> dict[str, Any]:
        """Every field's value, checked (optional ones None when left out). Raises
        CardValueError for a field it does not have, a missing one or a bad value."""
        if not isinstance(values, Mapping):
            raise CardValueError(f"{self.title}: the values are a JSON object, got {values!r}")
        unknown = sorted(set(values) - {f.name for f in self.fields})
        if unknown:
            raise CardValueError(f"{self.title} has no field {', '.join(map(repr, unknown))}")
        return {f.name: f.check(values.get(f.name)) for f in self.fields}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title,
                "fields": [f.to_json() for f in self.fields]}


@dataclass(frozen=True, slots=True)
class Printed:
    """What is printed on a card, as far as the project knows it: ``values`` (a field
    left out is unknown) and where they come from (``source``: a rulebook section)."""

    values: Mapping[str, Any]
    source: str


@dataclass(frozen=True)
class CardBook:
    """The printed values a game knows: ``shipped`` with the game (keyed by
    ``(card_type, card)``, with their source) and ``learned`` at tables (the table's
    answer wins: it holds the real card)."""

    types: Mapping[str, CardType]
    shipped: Mapping[tuple[str, str], Printed] = field(default_factory=dict)
    learned: Mapping[tuple[str, str], Mapping[str, Any]] = field(default_factory=dict)

    def _type(self, card_type: str) -> CardType:
        found = self.types.get(card_type)
        if found is None:
            raise CardValueError(f"no card type {card_type!r}; known: {sorted(self.types)}")
        return found

    def values(self, card_type: str, card: str) -> Mapping[str, Any] | None:
        """The card's whole printed values, or None while any required one is unknown."""
        learned = self.learned.get((card_type, card))
        if learned is not None:
            return learned
        shipped = self.shipped.get((card_type, card))
        if shipped is None:
            return None
        kind = self._type(card_type)
        if any(f.name not in shipped.values and not f.optional for f in kind.fields):
            return None
        return {f.name: shipped.values.get(f.name) for f in kind.fields}

    def knows(self, card_type: str, card: str) -> bool:
        return self.values(card_type, card) is not None

    def source(self, card_type: str, card: str) -> str | None:
        """Where the values come from: ``"the table"``, a shipped source, or None."""
        if (card_type, card) in self.learned:
            return "the table"
        shipped = self.shipped.get((card_type, card))
        return None if shipped is None else shipped.source

    def question(self, card_type: str, card: str) -> dict[str, Any]:
        """The form "what is printed on this card?": the type's fields, and the values
        already known (from the rulebook or an earlier answer) to start from."""
        kind = self._type(card_type)
        known = dict(self.shipped[(card_type, card)].values) if (
            card_type, card) in self.shipped else {}
        known.update(self.learned.get((card_type, card), {}))
        return {"card_type": card_type, "card": card, "title": kind.title,
                "question": f"What is printed on {kind.title} {card}?",
                "fields": [f.to_json() for f in kind.fields], "known": known,
                "source": self.source(card_type, card)}

    def learn(self, card_type: str, card: str, values: Any) -> CardBook:
        """A book that knows ``card`` (or corrects it). Raises CardValueError."""
        if not isinstance(card, str) or not card.strip():
            raise CardValueError(f"a card is named by its printed name, got {card!r}")
        checked = self._type(card_type).check(values)
        return CardBook(self.types, self.shipped, {**self.learned, (card_type, card): checked})

    def learned_json(self) -> dict[str, dict[str, dict[str, Any]]]:
        """The learned values as JSON: ``{card_type: {card: values}}``."""
        out: dict[str, dict[str, dict[str, Any]]] = {}
        for (kind, card), values in sorted(self.learned.items()):
            out.setdefault(kind, {})[card] = dict(values)
        return out

    def with_learned_json(self, data: Any) -> CardBook:
        """This book with the answers of `learned_json`'s form (types it does not have
        are left out: another game's cards). Raises CardValueError for a bad answer."""
        if data is None:
            return self
        if not isinstance(data, Mapping):
            raise CardValueError(f"learned cards are a JSON object, got {data!r}")
        learned = dict(self.learned)
        for kind, cards in data.items():
            if kind not in self.types:
                continue
            if not isinstance(cards, Mapping):
                raise CardValueError(f"learned {kind}: a JSON object of cards")
            for card, values in cards.items():
                if not isinstance(card, str) or not card.strip():
                    raise CardValueError(f"a card is named by its printed name, got {card!r}")
                learned[(kind, card)] = self.types[kind].check(values)
        return CardBook(self.types, self.shipped, learned)


def answer_action(card_type: str, card: str, values: Mapping[str, Any]) -> dict[str, Any]:
    """The record form of an answer to `CardBook.question`."""
    return {"type": ANSWER, "card_type": card_type, "card": card, "values": dict(values)}


def parse_answer(obj: Any) -> tuple[str, str, dict[str, Any]]:
    """``(card_type, card, values)`` of an answer's record form. Raises CardValueError
    when a field is missing or of the wrong kind (the values are checked by the book)."""
    if not isinstance(obj, Mapping) or obj.get("type") != ANSWER:
        raise CardValueError(f"not a {ANSWER} action: {obj!r}")
    kind, card, values = obj.get("card_type"), obj.get("card"), obj.get("values")
    if not isinstance(kind, str) or not isinstance(card, str) or not isinstance(values, Mapping):
        raise CardValueError(
            f"{ANSWER}: card_type and card are text, values a JSON object, got {obj!r}")
    return kind, card, dict(values)
