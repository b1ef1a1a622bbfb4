"""A mentor card's objectives as the box learns them, and the honour they give
(« Décompte final »).

The seed prints no mentor card: only what a card holds (« Contenu du jeu »: a name, a main
objective, secondary objectives) and one result (John Law: income 8 → 9 honour; a
secondary objective « 8 Or » → 4 honour, another about an arranged marriage with an
artisan in the 4th generation). So the form (`box.MENTOR`) describes an objective as a
count of something in the family (`QUANTITIES`, narrowed to an activity or a nationality
and to a row of the tree), and its honour: the main objective ``per`` × count + ``plus``
(linear: John Law fits, 1 × 8 + 1); a secondary one ``honour`` once the count reaches
``at_least``. A main objective that is not of that shape is ``other``: the table counts it
at the end, as before. Each mission under the mentor validates one secondary objective
met, of the player's choice (« Rappel »); each objective once."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Final

from companion.games.cards import CardBook

from .family import printed, same
from .state import Member, Player
from .vocabulary import ACTIVITIES, MENTOR_COUNTS

QUANTITIES: Final = MENTOR_COUNTS
SECONDARY: Final = 3
"""Secondary objectives a form holds (unused ones are ``none``)."""


def _member_ok(m: Member, row: int | None) -> bool:
    return not m.lost and (not row or m.gen == row)


def _kind_ok(book: CardBook, friend: str | None, kind: str | None) -> bool:
    if not kind:
        return True
    if friend is None:
        return False
    field = "activity" if kind.strip().lower() in ACTIVITIES else "nationality"
    value = kind.strip().lower() if field == "activity" else kind
    return same(field, printed(book, "crecy.friend", friend, field), value)


def count(book: CardBook, p: Player, what: str, kind: str | None = None,
          row: int | None = None) -> int:
    """How many of ``what`` the family has now; ``kind`` (an activity or a nationality)
    narrows friends and marriages to the friend's, ``row`` (1–4) to a row of the tree."""
    if what in ("income", "gold", "prestige"):
        return int(getattr(p, what))
    if what == "hand":
        return len(p.hand)
    if what == "missions":
        return len(p.missions_done)
    members = [m for m in p.family if _member_ok(m, row)]
    if what in ("children", "daughters", "sons"):
        sex = {"daughters": "female", "sons": "male"}.get(what)
        return sum(1 for m in members if m.gen >= 2 and m.card in ("girl", "boy")
                   and (sex is None or m.sex == sex))
    if what in ("marriages", "arranged"):
        return sum(1 for m in members if m.spouse is not None
                   and m.arranged == (what == "arranged") and _kind_ok(book, m.spouse, kind))
    if what == "friends":
        found = sum(1 for m in members if m.spouse is not None
                    and _kind_ok(book, m.spouse, kind))
        if kind and not row and kind.strip().lower() in ACTIVITIES:
            # a mission kept as an activity counts, but not for a given generation
            # (« Cartes mission »: « pas assignées à une Génération »)
            found += sum(1 for d in p.missions_done
                         if (v := book.values("crecy.mission", d))
                         and v.get("effect") == "counts_as_activity"
                         and v.get("activity") == kind.strip().lower())
        return found
    attached = what[:-1]  # titles → title, residences → residence …
    return sum(1 for m in members if attached in m.attached)


@dataclass(frozen=True, slots=True)
class Objective:
    """A secondary objective: its words, the count now, the count needed, its honour."""

    words: str
    now: int
    needed: int
    honour: int

    @property
    def met(self) -> bool:
        return self.now >= self.needed


def _words(what: str, kind: str | None, row: int | None) -> str:
    text = QUANTITIES[what]
    if kind:
        text += f" ({kind})"
    if row:
        text += f" in row {row} of the tree"
    return text


@dataclass(frozen=True, slots=True)
class Score:
    """What a mentor gives now: the main objective's honour and words, the secondary
    objectives, the missions under the mentor, and the best choice of them."""

    main: int
    main_words: str
    secondary: tuple[Objective, ...]
    missions: int

    def best(self) -> list[int]:
        """The honours of the secondary objectives validated: the best met ones, one per
        mission under the mentor."""
        met = sorted((o.honour for o in self.secondary if o.met), reverse=True)
        return met[:self.missions]

    @property
    def total(self) -> int:
        return self.main + sum(self.best())

    def allowed(self) -> set[tuple[int, ...]]:
        """Every choice of secondary honours the rules allow (sorted), each objective met
        at most once, at most one per mission."""
        met = [o.honour for o in self.secondary if o.met]
        return {tuple(sorted(c)) for n in range(min(len(met), self.missions) + 1)
                for c in combinations(met, n)}

    def to_json(self) -> dict[str, Any]:
        return {"main": self.main, "main_words": self.main_words,
                "secondary": [{"words": o.words, "now": o.now, "needed": o.needed,
                               "honour": o.honour, "met": o.met} for o in self.secondary],
                "missions": self.missions, "best": self.best(), "total": self.total}


def score(book: CardBook, p: Player) -> Score | None:
    """What ``p``'s mentor would give now, from its learned form; None while the mentor or
    its form is unknown, or its main objective is ``other`` (the table counts it)."""
    values = book.values("crecy.mentor", p.mentor) if p.mentor else None
    if values is None or values["main_count"] == "other":
        return None
    what, kind, row = values["main_count"], values["main_kind"], values["main_row"]
    n = count(book, p, what, kind, row)
    main = values["main_per"] * n + values["main_plus"]
    words = f"{values['main_per']} × {n} {_words(what, kind, row)}" + (
        f" {values['main_plus']:+d}" if values["main_plus"] else "")
    objectives = []
    for i in range(1, SECONDARY + 1):
        what = values[f"s{i}_count"]
        if what == "none":
            continue
        kind, row = values[f"s{i}_kind"], values[f"s{i}_row"]
        objectives.append(Objective(_words(what, kind, row), count(book, p, what, kind, row),
                                    values[f"s{i}_at_least"] or 0, values[f"s{i}_honour"] or 0))
    return Score(main, words, tuple(objectives), p.under_mentor)
