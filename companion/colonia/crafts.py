"""Thursday: orders to the craftsmen, the die's extra orders, deliveries (seed 004,
« Jeudi »)."""

from __future__ import annotations

from .state import Order
from .vocabulary import die_craft


def order_cost(new_orders: int) -> int:
    """Members an order costs when ``new_orders`` were placed with that craftsman this week
    already: 1, then 2, then 3… (« 1 membre … 2 membres … une troisième commande, 3 »)."""
    return new_orders + 1


def extra_orders(sticks: tuple[int, ...], face: int, crafts: tuple[str, ...]) -> tuple[int, ...]:
    """The sticks after a die roll: one space down for the craftsman of a 1–5, for all on
    a 6. Raises ValueError for a face not 1–6."""
    hit = set(die_craft(face))
    return tuple(s + (1 if c in hit else 0) for c, s in zip(crafts, sticks, strict=True))


def delivered(column: tuple[Order, ...], stick: int) -> tuple[tuple[Order, ...], tuple[Order, ...]]:
    """The orders above the stick (delivered: one good each, whatever the members on it)
    and those below (they move up and wait for next week)."""
    return column[:stick], column[stick:]
