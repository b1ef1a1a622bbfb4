"""*Le Port*'s sub-state: the ships, the voyage under way, the island stacks, the treasures
and the sea cemetery (`PortState`, copied by `clone`), and where its pieces are counted."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..copying import CLONE, CLONE_VALUES, COPY, with_clone
from ..state import GameState
from ..vocabulary import ALL_MEMBERS, Color, Cube, MemberId
from .port_data import PortData

HOLD_SLOTS = 3  # PV6
PORT = "port"
TREASURE = "treasure:"


def kind_of(piece: str) -> str:
    """A hold piece's kind (PV7 allows one piece of each kind): ``member`` for a member id,
    ``treasure`` for ``treasure:<tile>``, else the piece itself (a good, grain, cocoa, tea)."""
    if piece in ALL_MEMBERS:
        return "member"
    if piece.startswith(TREASURE):
        return "treasure"
    return piece


@with_clone
@dataclass(slots=True)
class Ship:
    """One family's ship, hold tile, captain and Port goods on the farm."""

    zone: str = PORT
    hold: list[str] = field(default_factory=list, metadata=COPY)
    captain: str | None = None
    cocoa: int = 0  # unloaded on the farm, ready for the market
    tea: int = 0
    treasures: list[str] = field(default_factory=list, metadata=COPY)  # unloaded, face down

    def clone(self) -> Ship:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError


@with_clone
@dataclass(slots=True)
class Voyage:
    """A Travel action in progress. ``step``: ``recruit``, ``load``, ``sail``, ``island`` or
    ``treasure`` (a treasure to draw: chance). ``credit``: extra moves paid for and not
    used yet (a green cube may buy 2 moves, PV17)."""

    player: Color
    step: str
    moves: int = 0
    credit: int = 0
    landed_ok: bool = False  # the last move entered an island: one may disembark

    def clone(self) -> Voyage:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError


@with_clone
@dataclass(slots=True)
class PortState:
    ships: dict[Color, Ship] = field(metadata=CLONE_VALUES)
    captains: list[str] = field(metadata=COPY)  # still in the three piles
    cocoa: int  # tiles left in the island stacks
    tea: int
    treasures: list[str] = field(metadata=COPY)  # tile ids still face down on Treasure Island
    missions: dict[str, MemberId | None] = field(metadata=COPY)  # church → occupant
    cemetery: list[MemberId | None] = field(metadata=COPY)  # usable sea-cemetery spaces → occupant
    voyage: Voyage | None = field(default=None, metadata=CLONE)
    boxed: dict[str, int] = field(
        default_factory=lambda: {"cocoa": 0, "tea": 0}, metadata=COPY
    )  # sold (PM7)
    cashed: list[str] = field(default_factory=list, metadata=COPY)  # cashed, back in the box
    discarded: list[str] = field(default_factory=list, metadata=COPY)  # out of the game (PV30)
    data: PortData | None = None  # the printed values (shared, immutable)
    reported: dict[str, int] = field(default_factory=dict, metadata=COPY)  # tile → value read

    def clone(self) -> PortState:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError


def port_of(st: GameState) -> PortState | None:
    """Le Port's part of the table (None: the module is off)."""
    found = st.modules.get("port")
    assert found is None or isinstance(found, PortState)
    return found


def new_port(players: tuple[Color, ...], data: PortData) -> PortState:
    """Port's part of the setup (PS4–PS10): ships in port, captains in their piles,
    stacks sized by player count, treasures face down, churches and cemetery empty.

    Raises ValueError when the player count has no stack size."""
    n = len(players)
    if n not in data.stacks:
        raise ValueError(f"Le Port has no stack size for {n} players")
    return PortState(
        ships={c: Ship() for c in players},
        captains=sorted(data.captains),
        cocoa=data.stacks[n],
        tea=data.stacks[n],
        treasures=sorted(data.treasures),
        missions=dict.fromkeys(sorted(data.churches)),
        cemetery=[None] * len(data.cemetery_spaces(n)),
        data=data,
    )


def add_extra_cubes(supply: dict[Cube, int], data: PortData) -> None:
    """PS11: the 12 extra influence cubes join the general supply."""
    for cube, n in data.extra_cubes.items():
        supply[cube] += n


def hold_counts(ps: PortState | None, color: Color) -> dict[str, int]:
    """Pieces on ``color``'s hold tile, by kind."""
    out: dict[str, int] = {}
    if ps is None:
        return out
    for piece in ps.ships[color].hold:
        k = kind_of(piece)
        out[k] = out.get(k, 0) + 1
    return out


def farm_counts(ps: PortState | None, color: Color) -> dict[str, int]:
    """Cocoa, tea and unloaded treasures in front of ``color``."""
    if ps is None:
        return {"cocoa": 0, "tea": 0, "treasure": 0}
    s = ps.ships[color]
    return {"cocoa": s.cocoa, "tea": s.tea, "treasure": len(s.treasures)}
