"""The state of a Crecy game: families, hands, tracks, decks and what is waited for.

A state is a value: the engine never changes one it was given (`State.copy` first, then
the copy is changed and returned), so ``apply(st, a)`` is pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.cards import CardBook


@dataclass
class Member:
    """A member of a family tree: the head (``gen`` 1) or a child card (``card``
    ``girl``/``boy``, with its printed ``effect`` if reported). ``spouse``: a friend card
    by name; ``arranged``: placed upside down, not yet formalised. ``children``: born to
    this member (a remarried widower's first children count, « Règles d'or »)."""

    id: str
    gen: int
    sex: str
    card: str
    parent: str | None = None
    spouse: str | None = None
    arranged: bool = False
    children: int = 0
    lost: bool = False
    widowed: bool = False
    twins: int = 0
    attached: dict[str, str] = field(default_factory=dict)

    def copy(self) -> Member:
        new = object.__new__(Member)
        new.__dict__ = {**self.__dict__, "attached": dict(self.attached)}
        return new

    def couple(self) -> bool:
        return self.spouse is not None and not self.arranged and not self.lost


@dataclass
class Player:
    """One family and its owner's pieces. ``hand`` and ``mentor`` are secret (the views
    show them to their owner only); ``under_mentor`` counts the face-down missions."""

    id: str
    head: str
    side: str
    gold: int = 0
    income: int = 0
    prestige: int = 0
    honour: int = 0
    hand: list[str] = field(default_factory=list)
    mentor: str | None = None
    missions: list[str] = field(default_factory=list)
    missions_done: list[str] = field(default_factory=list)
    under_mentor: int = 0
    family: list[Member] = field(default_factory=list)
    pawns: int = 2
    extra: list[str] = field(default_factory=list)
    passed: bool = False
    immune: bool = False
    complications: int = 0
    born: int = 0
    effects: list[str] = field(default_factory=list)
    out: bool = False
    mentor_honour: int | None = None
    fresh: set[str] = field(default_factory=set, compare=False, repr=False)

    def copy(self) -> Player:
        """A copy whose members are shared until one is changed (`own`)."""
        new = object.__new__(Player)
        new.__dict__ = {**self.__dict__, "hand": list(self.hand),
                        "missions": list(self.missions),
                        "missions_done": list(self.missions_done),
                        "family": list(self.family), "extra": list(self.extra),
                        "effects": list(self.effects), "fresh": set()}
        return new

    def own(self, mid: str) -> Member:
        """The member ``mid``, this player's own to change (copied once per state: the
        engine changes a member only through this). Raises KeyError."""
        for i, m in enumerate(self.family):
            if m.id == mid:
                if mid not in self.fresh:
                    m = self.family[i] = m.copy()
                    self.fresh.add(mid)
                return m
        raise KeyError(mid)

    def member(self, mid: str) -> Member | None:
        return next((m for m in self.family if m.id == mid), None)


@dataclass
class Step:
    """Something the game waits for before the next turn: ``kind``, who decides (None: a
    draw or the table) and its details."""

    kind: str
    player: str | None
    data: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> Step:
        return Step(self.kind, self.player, {k: list(v) if isinstance(v, list) else v
                                             for k, v in self.data.items()})


@dataclass
class State:
    """A whole game. ``todo``: steps waited for, first first; empty: a player's turn."""

    players: list[Player]
    book: CardBook
    house: dict[str, bool]
    gen: int = 1
    round: int = 1
    first: int = 0
    turn: int = 0
    phase: str = "setup"
    todo: list[Step] = field(default_factory=list)
    occupied: list[str] = field(default_factory=list)
    played_extra: list[str] = field(default_factory=list)
    reserve: dict[str, int] = field(default_factory=dict)
    child_deck: dict[str, int] = field(default_factory=dict)
    child_reserve: dict[str, int] = field(default_factory=dict)
    child_discard: int = 0
    friend_fresh: int = 0
    friend_recycled: list[str] = field(default_factory=list)
    friend_discard: list[str] = field(default_factory=list)
    display: list[str] = field(default_factory=list)
    titles: list[str] = field(default_factory=list)
    contributions: list[str] = field(default_factory=list)
    residences: int = 0
    enterprises: int = 0
    missions_left: int = 15
    mission_discard: list[str] = field(default_factory=list)
    next_id: int = 1
    winner: list[str] = field(default_factory=list)
    dealt: list[str] = field(default_factory=list)
    book_version: int = 0
    needs_ok: tuple[int, int, bool] | None = None
    solo: bool = False

    def copy(self) -> State:
        """A copy the engine may change (the card book is a value, shared)."""
        new = object.__new__(State)
        new.__dict__ = {**self.__dict__}
        return _lists_copied(
            new, players=[p.copy() for p in self.players], house=dict(self.house),
            todo=[s.copy() for s in self.todo], occupied=list(self.occupied),
            played_extra=list(self.played_extra), reserve=dict(self.reserve),
            child_deck=dict(self.child_deck), child_reserve=dict(self.child_reserve),
            friend_recycled=list(self.friend_recycled),
            friend_discard=list(self.friend_discard), display=list(self.display),
            titles=list(self.titles), contributions=list(self.contributions),
            mission_discard=list(self.mission_discard), winner=list(self.winner),
            dealt=list(self.dealt))

    def checked(self) -> tuple[int, int, bool]:
        """What `companion.crecy.flow.needs` depends on (it is [] while this is
        ``needs_ok``)."""
        return (self.book_version, self.gen, self.phase == "setup")

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def order(self) -> list[Player]:
        """The players clockwise from the first player."""
        return self.players[self.first:] + self.players[:self.first]

    def new_id(self) -> str:
        self.next_id += 1
        return f"m{self.next_id - 1}"


def _lists_copied(st: State, **fields: Any) -> State:
    st.__dict__.update(fields)
    return st
