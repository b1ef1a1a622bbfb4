"""Colonia's words: materials, goods and the craftsmen who turn two materials into a good,
the four Hanseatic cities and their currencies, the days of the week (seed 004,
« Matériel de jeu », « Jeudi »)."""

from __future__ import annotations

from typing import Final

COLORS: Final = ("yellow", "blue", "green", "red", "orange", "mauve")
"""The six player colours (« 38 dans chaque couleur de jeu »)."""

MATERIALS: Final = ("leather", "iron", "wood", "linen", "fur")
"""The raw materials, 18 of each in the bag."""

MATERIALS_EACH: Final = 18

GOODS: Final = ("saddle", "wheel", "painting", "clothing", "shoes")

CRAFTS: Final = ("saddler", "wheelwright", "painter", "tailor", "shoemaker")
"""The craftsmen in the seed's order (« Bourrelier, Charron, Peintre, Tailleur,
Cordonnier »); the die's 1–5 name them in this order (a choice: seed silent, docs/colonia.md)."""

RECIPE: Final[dict[str, tuple[str, str, str]]] = {
    "saddler": ("leather", "iron", "saddle"),
    "wheelwright": ("iron", "wood", "wheel"),
    "painter": ("wood", "linen", "painting"),
    "tailor": ("linen", "fur", "clothing"),
    "shoemaker": ("fur", "leather", "shoes"),
}
"""Craftsman → (material, material, good)."""

CITIES: Final = ("london", "novgorod", "bergen", "bruges")

CURRENCY: Final[dict[str, str]] = {
    "london": "pound", "novgorod": "grivna", "bergen": "mark", "bruges": "gulden",
}
"""Each city's currency (« Pfund Sterling de London … Gulden de Brügg »)."""

CURRENCIES: Final = ("pound", "grivna", "mark", "gulden")

DAYS: Final = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")

STREETS: Final = ("tuesday", "wednesday", "thursday", "friday")
"""The days with a street space (« il n'y a pas de case de rue Samedi »)."""

WEEKS: Final = 6
MOORINGS: Final = 4
DISPLAY: Final = 10
"""Relic cards refilled to ten every Sunday."""

FAMILY_CARDS: Final = (3, 4, 5, 6, 7, 8)


def die_craft(face: int) -> tuple[str, ...]:
    """The craftsmen a die face gives an extra order: 1–5 one, 6 all (« Si on obtient un
    6, tous les artisans »). Raises ValueError for a face not 1–6."""
    if not 1 <= face <= 6:
        raise ValueError(f"a die shows 1 to 6, not {face}")
    return CRAFTS if face == 6 else (CRAFTS[face - 1],)
