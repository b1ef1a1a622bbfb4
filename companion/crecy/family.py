"""Questions about a family tree: who may marry, who is a couple, what is attached where,
and the nationalities and activities of the friends married into it."""

from __future__ import annotations

from typing import Any

from companion.games.cards import CardBook

from .box import FRIEND, MISSION
from .state import Member, Player
from .vocabulary import CHILD_LIMIT


def printed(book: CardBook, kind: str, card: str, name: str) -> Any:
    """One printed value as far as it is known (a partial shipped card counts), or None."""
    learned = book.learned.get((kind, card))
    if learned is not None:
        return learned.get(name)
    shipped = book.shipped.get((kind, card))
    return None if shipped is None else shipped.values.get(name)


def friend(book: CardBook, name: str) -> dict[str, Any]:
    """A friend card's whole values. Raises KeyError while any is unknown."""
    values = book.values(FRIEND.name, name)
    if values is None:
        raise KeyError(name)
    return dict(values)


def of_generation(p: Player, gen: int) -> list[Member]:
    """The members of generation ``gen`` still in the tree."""
    return [m for m in p.family if m.gen == gen and not m.lost]


def family_friends(p: Player) -> list[str]:
    """The friends married into the family, arranged ones included (« Mariages
    arrangés »: part of the family in all circumstances)."""
    return [m.spouse for m in p.family if m.spouse is not None]


NATIONS = {"prussien": "prussian", "prussienne": "prussian", "russe": "russian",
           "espagnol": "spanish", "espagnole": "spanish", "anglais": "english",
           "anglaise": "english", "français": "french", "française": "french",
           "italien": "italian", "italienne": "italian"}
"""A nationality as the table may type it (French or English words, any case) → one name."""


def same(field: str, a: Any, b: Any) -> bool:
    if field != "nationality" or not isinstance(a, str) or not isinstance(b, str):
        return bool(a == b)
    x, y = a.strip().lower(), b.strip().lower()
    return NATIONS.get(x, x) == NATIONS.get(y, y)


def others_with(book: CardBook, p: Player, name: str, field: str, value: Any) -> int:
    """How many friends of the family other than ``name`` have ``field`` = ``value``; a
    validated mission that counts as an activity counts too (« Cartes mission »)."""
    if value is None:
        return 0
    found = sum(1 for f in family_friends(p)
                if f != name and same(field, printed(book, FRIEND.name, f, field), value))
    if field == "activity":
        for done in p.missions_done:
            values = book.values(MISSION.name, done)
            if values and values["effect"] == "counts_as_activity" and \
                    values["activity"] == value:
                found += 1
    return found


def can_have(m: Member, n: int = 1) -> bool:
    """Whether ``m``'s couple may have ``n`` more children (at most 3, « Règles d'or »; a
    remarried member's first children count)."""
    return m.couple() and m.children + n <= CHILD_LIMIT + m.twins


def free_to_marry(m: Member) -> bool:
    """A member without a spouse (a widower whose wife was lost may remarry; a friend whose
    family member was lost may not: that member is gone)."""
    return m.spouse is None and not m.lost


def attached_to(p: Player, m: Member) -> dict[str, str]:
    return m.attached


def mother_of(m: Member, head: bool) -> str:
    """Who is the mother of ``m``'s couple: ``"member"`` or ``"spouse"``."""
    return "member" if m.sex == "female" else "spouse"
