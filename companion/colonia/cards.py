"""What is printed on Colonia's cards and setup sheet, as the box learns it
(`companion.games.cards`): the seed gives almost none of it (docs/colonia.md, « What the
seed lacks »), so nothing here is a default. Each kind of card is a `CardType` form; the
game reads an answer into a typed value (`WeekCard`, `Ship`, `Relic`, `Decree`,
`SetupSheet`) with `read`. The only way values enter the engine is `CardBook.values`
through `known` below: the one narrow door, so a shipped value, a table's answer or a
box-check correction all arrive the same way."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.cards import CardBook, CardType, CardValueError, Field, Printed

from .vocabulary import CITIES, CRAFTS, CURRENCY, GOODS

WEEK = CardType("colonia.week", "the week card", (
    Field("stalls", "text", "Materials per market stall, left to right (e.g. 3 3 2 2 1)"),
    *(Field(c, "int", f"Regular orders of the {c}", low=0, high=9) for c in CRAFTS),
    Field("dice", "int", "Extra orders rolled with the die", low=0, high=20),
    Field("ships", "int", "Ships leaving on Saturday", low=0, high=4),
))
EFFECTS = (*(f"extra_orders_{c}" for c in CRAFTS), "one_less_member", "more_materials",
           "foreign_merchants", "two_relics", "two_ships_leave", "one_ship_leaves",
           "members_home_thursday", "members_home_wednesday", "exchange_money", "good_roll",
           "extra_hold", "two_materials_each", "other")
"""What a decree does, as far as the engine applies it (« Explication des cartes »): the
craftsman's two extra orders, one member less next week, one more material per stall, two
foreign merchants' stalls of 4, two relics on the extra places, two ships (or one) leaving
at once, up to 3 members home from the Thursday (or Wednesday) street, up to 5 money
exchanged 1:1, each player's die giving a good, an extra hold on every ship, two
materials from the bag for each player, behind their screen; ``other``
(and a decree whose effect is not said) is voted but not applied (docs/colonia.md)."""

DECREE = CardType("colonia.decree", "the council decree", (
    Field("day", "int", "Day number printed on the card (3 Wednesday … 6 Saturday)",
          low=3, high=6),
    Field("text", "text", "What the decree says", optional=True),
    Field("effect", "choice", "What it does", EFFECTS, optional=True),
))
SHIP = CardType("colonia.ship", "the ship", (
    Field("city", "choice", "Destination city", CITIES),
    *(Field(f"hold_{i}", "text", f"Hold {i}: goods and value (e.g. painting+shoes=9)",
            optional=i == 4) for i in (1, 2, 3, 4)),
))
RELIC = CardType("colonia.relic", "the relic card", (
    Field("city", "choice", "City (card colour)", CITIES),
    Field("kind", "choice", "Relic or reliquary", ("relic", "reliquary")),
    Field("price", "int", "Price", low=0, high=99),
    Field("currency", "choice", "Currency of the price (« dans la devise indiquée »)",
          ("pound", "grivna", "mark", "gulden")),
    Field("vp", "int", "Victory points (0 on a reliquary)", low=0, high=99),
))
SETUP = CardType("colonia.setup", "the setup sheet", (
    *(Field(f"money_{c}", "int", f"Starting money in {c}", low=0, high=99)
      for c in ("pound", "grivna", "mark", "gulden")),
    Field("members", "int", "Family members in each player's reserve", low=1, high=38),
    Field("stick_start", "int", "Order spaces above each craftsman's stick at its start",
          low=0, high=9),
    Field("stained_glass_vp", "int", "Victory points of a stained-glass window", low=0, high=20),
))
TYPES = {t.name: t for t in (WEEK, DECREE, SHIP, RELIC, SETUP)}
DECK_SIZES = {"week": 14, "decree": 18, "ship": 16, "relic": 48}
"""How many cards each deck holds (seed 004, « Matériel »: 14 « Semaine », 18 décrets, 16
bateaux, 48 « Relique »)."""
DECK_TYPES = {"week": WEEK.name, "decree": DECREE.name, "ship": SHIP.name, "relic": RELIC.name}


def whole_deck(book: CardBook, deck: str) -> tuple[str, ...] | None:
    """Every card of ``deck`` by name when the box knows exactly as many as the deck
    holds (then it can be drawn virtually), else None (fewer: not all learned yet; more: a
    misnamed card to forget on the box check page, so the deck is turned up by hand)."""
    kind = DECK_TYPES[deck]
    names = {n for t, n in book.learned if t == kind}
    names |= {n for t, n in book.shipped if t == kind and book.knows(t, n)}
    return tuple(sorted(names)) if len(names) == DECK_SIZES[deck] else None

SHIPPED: dict[tuple[str, str], Printed] = {
    # the seed's own fragments: the only values it gives (hints, not whole cards)
    ("colonia.week", "example"): Printed(
        {"saddler": 1, "wheelwright": 2, "painter": 1, "tailor": 2, "shoemaker": 1,
         "dice": 5, "ships": 3}, "seed 004, Lundi « Commandes aux artisans », « Bateaux »"),
}


def book(learned: Any = None) -> CardBook:
    """Colonia's card book with a header's learned values (`CardBook.learned_json` form).
    Raises CardValueError."""
    return CardBook(TYPES, SHIPPED, {}).with_learned_json(learned)


@dataclass(frozen=True, slots=True)
class WeekCard:
    stalls: tuple[int, ...]
    orders: tuple[tuple[str, int], ...]
    dice: int
    ships: int


@dataclass(frozen=True, slots=True)
class Decree:
    name: str
    day: int
    text: str | None
    effect: str | None = None


@dataclass(frozen=True, slots=True)
class Hold:
    goods: tuple[str, ...]
    value: int


@dataclass(frozen=True, slots=True)
class Ship:
    name: str
    city: str
    holds: tuple[Hold, ...]

    @property
    def currency(self) -> str:
        return CURRENCY[self.city]


@dataclass(frozen=True, slots=True)
class Relic:
    """A relic card: its city (its colour: a reliquary holds a relic of its own city), kind,
    price and the currency printed with it (« le montant imprimé dans la devise indiquée »;
    the city's own when not given), victory points."""

    name: str
    city: str
    kind: str
    price: int
    vp: int
    currency: str = ""

    def __post_init__(self) -> None:
        if not self.currency:
            object.__setattr__(self, "currency", CURRENCY[self.city])


@dataclass(frozen=True, slots=True)
class SetupSheet:
    money: tuple[tuple[str, int], ...]
    members: int
    stick_start: int
    stained_glass_vp: int


def _hold(text: str) -> Hold:
    goods, _, value = text.replace(" ", "").partition("=")
    names = tuple(g for g in goods.split("+") if g)
    bad = [g for g in names if g not in GOODS]
    if not names or bad or not value.isdigit():
        raise CardValueError(f"a hold reads goods=value with goods among {list(GOODS)} "
                             f"(e.g. painting+shoes=9), not {text!r}")
    return Hold(names, int(value))


def known(cards: CardBook, card_type: str, name: str) -> Any:
    """The typed values of card ``name`` (a `WeekCard`, `Decree`, `Ship`, `Relic` or
    `SetupSheet`), or None while the box does not know them. Raises CardValueError when
    the stored values cannot be read (a hold or stall list badly written)."""
    values = cards.values(card_type, name)
    return None if values is None else read(card_type, name, values)


def read(card_type: str, name: str, v: Mapping[str, Any]) -> Any:
    """A card's checked values as its typed value. Raises CardValueError."""
    if card_type == WEEK.name:
        parts = str(v["stalls"]).replace(",", " ").split()
        if not parts or not all(p.isdigit() and int(p) <= 9 for p in parts):
            raise CardValueError(f"stalls: numbers 0–9 separated by spaces, not {v['stalls']!r}")
        return WeekCard(tuple(int(p) for p in parts), tuple((c, int(v[c])) for c in CRAFTS),
                        int(v["dice"]), int(v["ships"]))
    if card_type == DECREE.name:
        return Decree(name, int(v["day"]), v.get("text"), v.get("effect"))
    if card_type == SHIP.name:
        holds = tuple(_hold(str(v[f"hold_{i}"])) for i in (1, 2, 3, 4) if v.get(f"hold_{i}"))
        return Ship(name, str(v["city"]), holds)
    if card_type == RELIC.name:
        vp = 0 if v["kind"] == "reliquary" else int(v["vp"])
        return Relic(name, str(v["city"]), str(v["kind"]), int(v["price"]), vp,
                     str(v["currency"]))
    if card_type == SETUP.name:
        money = tuple((c, int(v[f"money_{c}"])) for c in ("pound", "grivna", "mark", "gulden"))
        return SetupSheet(money, int(v["members"]), int(v["stick_start"]),
                          int(v["stained_glass_vp"]))
    raise CardValueError(f"no Colonia card type {card_type!r}")
