"""The games other than Village that the new-game page offers: each with its colours, its
player counts, its house rules (name → label) and the page the table plays it on. A game
added to the platform adds one entry here; Village's own form is the page's default."""

from __future__ import annotations

from typing import Any

from companion.colonia.record import HOUSE_RULES as COLONIA_HOUSE_RULES
from companion.colonia.vocabulary import COLORS as COLONIA_COLOURS
from companion.crecy.solo import GENEALOGY
from companion.village import Color

OTHER_GAMES: dict[str, dict[str, Any]] = {
    "colonia": {
        "label": "Colonia",
        "help": "Six weeks in medieval Cologne: family cards and votes answered secretly on "
                "the phones; the box learns the setup sheet and each card the first time.",
        "colours": list(COLONIA_COLOURS),
        "counts": [2, 3, 4, 5, 6],
        "house_rules": dict(COLONIA_HOUSE_RULES),
        "table_page": "/colonia",
        "phone_page": "/answer",
    },
    "crecy": {
        "label": "Le Testament du Duc de Crecy",
        "help": "Three generations of a family at the Duke's court: each family's head card "
                "and side below; the box learns each card's printed values the first time.",
        "colours": [c.value for c in Color],
        "counts": [1, 2, 3, 4],
        # one player: the solo variants (« Partie à 1 joueur »); a refused one says why
        "solo": {
            "standard": {"label": "Variante solo standard",
                         "help": "The usual rules with two residences and two enterprises; "
                                 "the actions of the activities face up on the display are "
                                 "closed (docs/crecy.md)."},
            "genealogy": {"label": "Généalogie", "refused": GENEALOGY[0].upper() + GENEALOGY[1:]
                          + "."},
        },
        # beside extinction (ticked by default, among its own options: #crecy-options)
        "house_rules": {
            "limited_tracks": "Income and prestige held to the tracks (« Règles d'or »); "
                              "unticked, unlimited (« Plateaux individuels »).",
            "reserve_only_in_generation_3": "The child reserve only for generation III, as "
                                            "set-up 2b reads; unticked, shuffled in whenever "
                                            "the child deck runs out.",
            "free_marriage_without_pawns": "Ariane, Leonid and Maria's marriages still get a "
                                           "turn after a player's last pawn.",
        },
        "table_page": "/crecy",
        "phone_page": "/crecy/me",
    },
}
"""name (the record's ``game``) → what the new-game page needs to start one."""
