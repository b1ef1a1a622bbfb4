"""What the box's learning shows, and when: a card's form answered about a secret card (a
mentor, a friend card of a hand: `views.secret_answer`) is the game's at once (it is in the
record) but the table's only once the card is seen: a friend card played face up or
discarded, a mentor turned up at the final count (« Règles d'or »: only the mentors and
the hands are secret). The table keeps a card in its box (`companion.games.cardstore`) at
that moment, not before: the box's learned cards are public (``GET /api/cards``)."""

from __future__ import annotations

from typing import Any

from .box import FRIEND, MENTOR
from .state import State

Learned = dict[tuple[str, str], dict[str, Any]]


def secret(st: State) -> set[tuple[str, str]]:
    """The cards nobody but their holder has seen: every hand's, every mentor not yet
    turned up (at the final count)."""
    hidden = {(FRIEND.name, c) for p in st.players for c in p.hand}
    if st.phase != "over":
        hidden |= {(MENTOR.name, p.mentor) for p in st.players
                   if p.mentor and p.mentor_honour is None}
    return hidden


def public(st: State) -> Learned:
    """The values this game learned that the table may see now."""
    hidden = secret(st)
    return {k: dict(v) for k, v in st.book.learned.items() if k not in hidden}


def kept(before: State, after: State) -> list[tuple[str, str, dict[str, Any]]]:
    """The learned cards the table sees from ``after`` on (new, or corrected): what the
    box keeps after the action that led from ``before`` to ``after``."""
    old, new = public(before), public(after)
    return [(kind, card, values) for (kind, card), values in sorted(new.items())
            if old.get((kind, card)) != values]


def public_json(st: State) -> dict[str, dict[str, dict[str, Any]]]:
    """`public` in `CardBook.learned_json`'s form."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for (kind, card), values in sorted(public(st).items()):
        out.setdefault(kind, {})[card] = values
    return out
