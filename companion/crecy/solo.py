"""The standard solo variant (seed 002, « Partie à 1 joueur », « Variante solo standard »):
the usual rules with two residences and two enterprises, six friends and four missions out
of the game, and the main-board actions matching the activities of the friends face up
unavailable. « Généalogie » is not supported: it needs the 15 clue cards, which the seed
does not print (not even their kinds), and the solo board's back."""

from __future__ import annotations

from typing import Final

from .box import FRIEND, SOLO_TABLE
from .state import State

VARIANTS: Final = ("standard", "genealogy")
REMOVED_FRIENDS: Final = ("Friedrich", "Katherine", "Laurent", "Manuel", "Nathalie", "Vera")
REMOVED_MISSIONS: Final = ("Un nouveau parti politique", "Une révolution naissante",
                           "Un vent de troubles à la Cour", "Un empire à soutenir")
GENEALOGY: Final = (
    "the solo variant « Généalogie » is not supported: it needs the 15 clue cards "
    "(« cartes Indice »), whose text seed 002 does not print, and its clue validation "
    "decides the score; play the standard solo variant (solo: \"standard\")")


def check_variant(players: list[str], variant: str | None) -> str | None:
    """The solo variant a header records (None for 2–4 players). Raises ValueError."""
    if variant is None:
        return "standard" if len(players) == 1 else None
    if variant not in VARIANTS:
        raise ValueError(f"solo: one of {VARIANTS}, not {variant!r}")
    if variant == "genealogy":
        raise ValueError(GENEALOGY)
    if len(players) != 1:
        raise ValueError("a solo variant is played by one player")
    return variant


def blocked(st: State, kind: str) -> str | None:
    """The activity of a friend face up that makes main-board action ``kind`` unavailable
    (the solo table and the display's cards are known: `flow.needs` asks them first)."""
    table = st.book.values(SOLO_TABLE.name, "activities")
    if table is None:
        return None
    wanted = "title_contribution" if kind in ("title", "contribute") else kind
    for name in st.display:
        values = st.book.values(FRIEND.name, name)
        if values is not None and table.get(values["activity"]) == wanted:
            return str(values["activity"])
    return None


def needs(st: State) -> list[tuple[str, str]]:
    """What the solo game asks before going on: its table, then the display's cards
    (face up: nothing private is asked)."""
    out = [(SOLO_TABLE.name, "activities")]
    out += [(FRIEND.name, c) for c in st.display]
    return [k for k in out if not st.book.knows(*k)]
