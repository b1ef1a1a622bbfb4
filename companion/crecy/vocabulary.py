"""The words of *Le Testament du Duc de Crecy* (seed 002): generations, pawns, actions.

Record values are English; French names are the cards' own (printed) names."""

from __future__ import annotations

from typing import Final

ROUNDS: Final = {1: 2, 2: 3, 3: 4}
"""Rounds in each generation (« Générations et ordre des manches »: 2 + 3 + 4)."""

ROMAN: Final = {1: "I", 2: "II", 3: "III", 4: "IV"}

SEXES: Final = ("female", "male")
CHILD_CARDS: Final = ("girl", "boy", "complication")
SEX_OF_CHILD: Final = {"girl": "female", "boy": "male"}
CHILD_EFFECTS: Final = ("charming", "brave", "don_juan", "gossip_queen", "ravishing_smile",
                        "beauty_queen", "surprise_twins")
"""Printed child effects (« Cartes enfant »: Charmant, Brave, Don Juan, Reine des commères,
Ravissant sourire, Reine de beauté, Jumeaux surprise); which cards carry them is not in the
seed, so a hand draw reports it. The engine applies each (Charmant when he marries; Brave,
Don Juan, Reine des commères and Ravissant sourire when they grow up; Reine de beauté at
her wedding; Jumeaux surprise at the birth)."""

EXTRA_COLOURS: Final = ("green", "orange", "red", "blue", "yellow")
"""The extra-action pawns, 3 of each (« Contenu du jeu », 23 pions)."""

MAIN_ACTIONS: Final = ("title", "contribute", "fertility", "residence", "enterprise", "mission")
"""The main board's actions, each once per round (« Actions sur le plateau principal »)."""

COLOUR_OF: Final = {"residence": "green", "enterprise": "orange", "mission": "red",
                    "fertility": "blue", "title": "yellow", "contribute": "yellow"}
"""The one action an extra pawn of a colour may take (p. 5: yellow is a title *or* a
contribution)."""

ATTACHMENTS: Final = ("title", "residence", "enterprise", "contribution")
"""At most one of each per member or couple (« Règles d'or »)."""

ACTIVITIES: Final = ("aristocrat", "artisan", "scientist", "artist", "diplomat")
"""The five activities the seed names (solo variant and card clarifications); their
icons are lost in the seed's text."""

RESIDENCES_BY_PLAYERS: Final = {1: 2, 2: 3, 3: 5, 4: 7}
"""Residence and enterprise cards on the board by player count (setup 2c; solo: 2)."""

CHILD_DECK: Final = {"girl": 39, "boy": 39, "complication": 10}
"""The child deck (« Contenu du jeu »: 88 cards)."""

RESERVE: Final = {"girl": 9, "boy": 9}
"""Set aside at setup for generation III (setup 2b)."""

FRIEND_CARDS: Final = 75
DISPLAY: Final = 5
CHILD_LIMIT: Final = 3

MENTOR_COUNTS: Final = {
    "income": "income", "gold": "gold", "prestige": "prestige",
    "hand": "friend cards in hand",
    "children": "children on the tree (not lost)", "daughters": "daughters", "sons": "sons",
    "marriages": "marriages formalised", "arranged": "arranged marriages (not formalised)",
    "friends": "friends married into the family (arranged ones included)",
    "titles": "titles", "contributions": "contributions", "residences": "residences",
    "enterprises": "enterprises", "missions": "missions completed",
}
"""What a mentor's objective may count (the `crecy.mentor` form's choices; `mentor.count`)."""
