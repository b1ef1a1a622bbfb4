"""Colonia's actions in their record form: a type and its fields (`FIELDS`), read by
`parse` into an `Act` (compared by value)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.games.errors import MalformedAction

FIELDS: dict[str, tuple[str, ...]] = {
    "card_values": ("card_type", "card", "values"),  # the box learns a card (games.cards)
    "reveal": ("deck", "card"),  # a card turned up by hand: week, decree, ship, relic
    "fill_stalls": ("stalls",),  # Monday's materials on each stall (chance)
    "add_materials": ("stalls",),  # a decree's materials onto the stalls (chance)
    "reveal_family": ("answers",),  # Tuesday's family cards (sealed)
    "tiebreak": ("order",),  # week 1: the die's order among equal cards (chance)
    "reveal_votes": ("answers",),  # a decree's votes (sealed)
    "mayor_decides": ("player", "adopt"),  # a tied vote
    "buy_stall": ("player", "stall"),
    "order": ("player", "craft"),
    "roll": ("face",),  # an extra order's die (chance)
    "load": ("player", "ship", "hold"),
    "buy_relic": ("player", "card", "into"),
    "insure": ("player", "card"),
    "home": ("player", "members"),  # a decree: members home from a street
    "exchange": ("player", "give", "get", "amount"),  # a decree: money exchanged 1:1
    "good_roll": ("face",),  # a decree: the die of the first player still to roll (chance)
    "pick_good": ("player", "good"),  # a decree: the good a 6 gives, chosen
    "load_extra": ("player", "ship", "good"),  # a decree: any good on a ship's coat of arms
    "draw_materials": ("drawn",),  # a decree: two materials each, behind the screens (chance)
    "pass": ("player",),
}
OPTIONAL: dict[str, tuple[str, ...]] = {
    "fill_stalls": ("bag_unseen",), "add_materials": ("bag_unseen",),
}
"""Fields an action may carry. ``bag_unseen``: drawn virtually from a bag whose content the
table does not know (materials left it behind a screen), so the draw's seed, which would
tell that content, is withheld until the end (`companion.table.disclosure`)."""
DECKS = ("week", "decree", "ship", "relic")


@dataclass(frozen=True, slots=True)
class Act:
    """An action: its record form, compared by value."""

    record: tuple[tuple[str, Any], ...]

    @classmethod
    def of(cls, record: dict[str, Any]) -> Act:
        return cls(tuple(sorted(record.items())))

    @property
    def type(self) -> str:
        return str(dict(self.record)["type"])

    def get(self, name: str) -> Any:
        return dict(self.record).get(name)

    def to_json(self) -> dict[str, Any]:
        return dict(self.record)


def parse(obj: Any) -> Act:
    """An action from its record form. Raises MalformedAction: not an object, unknown type,
    a field missing or too many, a field of the wrong kind."""
    if isinstance(obj, Act):
        return obj
    if not isinstance(obj, dict):
        raise MalformedAction(f"an action is a JSON object, got {obj!r}")
    kind = obj.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise MalformedAction(f"unknown action type {kind!r}; known: {sorted(FIELDS)}")
    record = {k: v for k, v in obj.items() if not k.startswith("_")}
    missing = sorted(set(fields) - set(record))
    extra = sorted(set(record) - set(fields) - set(OPTIONAL.get(str(kind), ())) - {"type"})
    if missing or extra:
        raise MalformedAction(f"{kind}: missing field(s) {missing}, unexpected {extra}")
    for name in ("player", "card", "craft", "deck", "card_type", "give", "get", "good"):
        if name in fields and not isinstance(record[name], str):
            raise MalformedAction(f"{kind}: {name} is text, got {record[name]!r}")
    for name in ("stall", "ship", "hold", "face", "members", "amount"):
        if name in fields and (isinstance(record[name], bool)
                               or not isinstance(record[name], int)):
            raise MalformedAction(f"{kind}: {name} is a whole number, got {record[name]!r}")
    if kind == "reveal" and record["deck"] not in DECKS:
        raise MalformedAction(f"reveal: deck is one of {list(DECKS)}, got {record['deck']!r}")
    if kind in ("reveal_family", "reveal_votes") and not isinstance(record["answers"], dict):
        raise MalformedAction(f"{kind}: answers is a JSON object colour → answer")
    if "bag_unseen" in record and record["bag_unseen"] is not True:
        raise MalformedAction(f"{kind}: bag_unseen is true or left out")
    if kind == "draw_materials" and not (isinstance(record["drawn"], dict) and all(
            isinstance(v, list) for v in record["drawn"].values())):
        raise MalformedAction("draw_materials: drawn is a JSON object colour → materials")
    if kind == "mayor_decides" and not isinstance(record["adopt"], bool):
        raise MalformedAction("mayor_decides: adopt is true or false")
    if kind == "buy_relic" and record["into"] is not None and not isinstance(record["into"], str):
        raise MalformedAction("buy_relic: into is a card name or null")
    return Act.of(record)
