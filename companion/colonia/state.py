"""Colonia's state: frozen values, changed only by `companion.colonia.engine.apply`.

A `Seat` is one player: their family members (reserve, the four street spaces), family
cards, and what stands behind their screen (materials, goods, money per currency, relic
cards). `State` is the table: the week and the step waited for, the coat-of-arms order
(mayor first), the bag, the market stalls, each craftsman's order column and stick, the
ships at their moorings, the relic display, the week's decrees."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.games.cards import CardBook

from .cards import Decree, Relic, SetupSheet, Ship, WeekCard
from .vocabulary import CRAFTS, CURRENCIES, GOODS, MATERIALS, STREETS


@dataclass(frozen=True, slots=True)
class Seat:
    color: str
    reserve: int
    streets: tuple[int, ...] = (0, 0, 0, 0)  # tuesday … friday
    cards: tuple[int, ...] = (3, 4, 5, 6, 7, 8)  # family cards not yet played
    card: int | None = None  # the family card played this week
    votes: int = 0  # what it counts (0 when short of members)
    materials: tuple[int, ...] = (0,) * len(MATERIALS)
    goods: tuple[int, ...] = (0,) * len(GOODS)
    money: tuple[int, ...] = (0,) * len(CURRENCIES)
    relics: tuple[Relic, ...] = ()  # relics and reliquaries bought
    kept: tuple[tuple[str, str], ...] = ()  # reliquary name → relic name in it

    def street(self, day: str) -> int:
        return self.streets[STREETS.index(day)]

    def with_street(self, day: str, n: int) -> Seat:
        i = STREETS.index(day)
        return replace(self, streets=(*self.streets[:i], n, *self.streets[i + 1:]))

    def material(self, name: str) -> int:
        return self.materials[MATERIALS.index(name)]

    def good(self, name: str) -> int:
        return self.goods[GOODS.index(name)]

    def coins(self, currency: str) -> int:
        return self.money[CURRENCIES.index(currency)]


@dataclass(frozen=True, slots=True)
class Order:
    """Family members standing on a craftsman's order space: whose, how many."""

    player: str
    members: int


@dataclass(frozen=True, slots=True)
class Berth:
    """A ship at a mooring, who loaded each hold (None: empty), and who loaded the extra
    hold on its coat of arms a decree gives (worth 2, any good)."""

    ship: Ship
    loaded: tuple[str | None, ...]
    crest: str | None = None


@dataclass(frozen=True, slots=True)
class Shown:
    """A relic card on the display and who insured it (None: nobody)."""

    relic: Relic
    insured: str | None = None


@dataclass(frozen=True, slots=True)
class Voting:
    """A decree of this week: adopted True/False once voted, None before."""

    decree: Decree
    adopted: bool | None = None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    seats: tuple[Seat, ...]
    cards: CardBook
    setup: SetupSheet | None
    step: str  # what the game waits for: see companion.colonia.flow
    week: int = 0  # 1 … 6; 0 before the first Monday
    day: str = "monday"
    order: tuple[str, ...] = ()  # the coat-of-arms stack, the mayor first
    bag: tuple[int, ...] = (18,) * len(MATERIALS)
    supply: tuple[int, ...] = (12,) * len(GOODS)  # goods in the general supply
    week_card: WeekCard | None = None
    stalls: tuple[tuple[int, ...], ...] = ()  # materials on each stall (per MATERIALS)
    bought: tuple[tuple[str, int] | None, ...] = ()  # who took each stall, members on it
    columns: tuple[tuple[Order, ...], ...] = ((),) * len(CRAFTS)
    sticks: tuple[int, ...] = (0,) * len(CRAFTS)  # order spaces above each stick
    new_orders: tuple[int, ...] = (0,) * len(CRAFTS)  # orders placed this week
    moorings: tuple[Berth, ...] = ()
    leaving: int = 0  # ships above the departure stick
    display: tuple[Shown, ...] = ()
    relic_discard: tuple[Relic, ...] = ()
    decrees: tuple[Voting, ...] = ()
    hall: tuple[tuple[str, int], ...] = ()  # members sent to the town hall this week
    passed: frozenset[str] = frozenset()  # who has passed in the day's loop
    turn: int = 0  # index in ``order`` of the player whose turn it is
    dice_left: int = 0
    asking: tuple[str, str] | None = None  # (card type, card) the box must describe
    back: str = ""  # the step to return to once the box has described the card
    extra_relics: int = 0  # relics still to turn up for the extra places (a decree)
    fewer: int = 0  # the week in which each family sends one member less (a decree)
    home_from: str = ""  # the street a decree lets members come home from
    rolling: tuple[str, ...] = ()  # a decree: the players still to roll for a good
    extra_hold: int = 0  # the week in which every ship in port has an extra hold (a decree)
    house: frozenset[str] = frozenset()  # the house rules on (companion.colonia.record)
    windows: tuple[tuple[str, str], ...] = ()  # at the end: (currency, who won its window)
    end_money: tuple[tuple[int, ...], ...] = ()  # at the end: each seat's money, before them
    tied: tuple[str, ...] = ()  # week 1: players whose equal cards the die settles
    unseen: int = 0  # materials that left the bag behind a screen: its content is not public
    turned: tuple[tuple[str, str], ...] = ()  # (deck, card) turned up this game: out of it

    def seat(self, color: str) -> Seat:
        return self.seats[self.players.index(color)]

    def with_seat(self, seat: Seat) -> State:
        i = self.players.index(seat.color)
        return replace(self, seats=(*self.seats[:i], seat, *self.seats[i + 1:]))

    @property
    def mayor(self) -> str | None:
        return self.order[0] if self.order else None

    def to_move(self) -> str | None:
        """The player whose turn it is in the day's loop (None: not in a loop)."""
        if self.step not in LOOPS or len(self.passed) == len(self.players):
            return None
        return self.order[self.turn]


LOOPS = frozenset({"market", "order", "load", "buy", "insure", "home", "exchange"})
"""The steps where, in the coat-of-arms order, each player acts or passes, a pass final
for that day (« il passe son tour. Il ne peut plus … cette semaine »)."""


_FIELDS = frozenset(State.__dataclass_fields__)


def evolve(st: State, **changes: Any) -> State:
    """``st`` with ``changes`` (as `dataclasses.replace`, without its per-field work: the
    engine's hottest call). Raises TypeError for a field State does not have."""
    if not changes.keys() <= _FIELDS:
        raise TypeError(f"State has no field {sorted(changes.keys() - _FIELDS)}")
    new = object.__new__(State)
    new.__dict__.update(st.__dict__)
    new.__dict__.update(changes)
    return new


def add(values: tuple[int, ...], index: int, n: int) -> tuple[int, ...]:
    """``values`` with ``n`` added at ``index``."""
    return (*values[:index], values[index] + n, *values[index + 1:])
