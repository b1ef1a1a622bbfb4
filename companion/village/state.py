"""The game state: everything on the table, plus who must decide what next.

A ``GameState`` is a value: the engine never changes one it was given, it copies it and
changes the copy (``clone()`` copies every mutable part but the spaces' cubes and the
chronicle's sections, which the engine replaces whole; the engine's own copy, ``derive()``,
shares the players too, which the engine changes only through ``own``: copy on write).
Treat states as immutable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .config import GameConfig
from .copying import (
    CLONE,
    CLONE_VALUES,
    COPY,
    COPY_ON_WRITE,
    COPY_OR_NONE,
    ON_WRITE_VALUES,
    OWNED,
    SHARE,
    with_clone,
)
from .data import BoardData
from .house import HouseRules
from .vocabulary import (
    INFLUENCE,
    Color,
    Cube,
    Good,
    MemberId,
    PhaseName,
    Section,
    Space,
    member_ids,
)

if TYPE_CHECKING:
    from .rules import Rules


class ModuleState(Protocol):
    """A rule module's part of the table (``GameState.modules[name]``)."""

    def clone(self) -> ModuleState: ...


# Where a member is: (zone, where). Zones: "unborn", "farm", "craft" (building), "council"
# (level 1-4), "travel" (city), "bag" (the black bag), "church" (window 1-4, 1 = rightmost),
# "chronicle" (section), "grave", "removed".
Loc = tuple[str, Any]
UNBORN: Loc = ("unborn", None)
FARM: Loc = ("farm", None)
BAG: Loc = ("bag", None)
GRAVE: Loc = ("grave", None)
REMOVED: Loc = ("removed", None)
DEAD_ZONES = frozenset({"chronicle", "grave", "removed"})

FIRST_STEP = PhaseName("reveal_customers")  # seed 000 « Mise en place »: the customers
ROUND_START = PhaseName("fill_bag")  # after the customers of a round's start
INFLUENCE_PER_COLOUR = 18  # seed 000 « Contenu »: 72 influence cubes, 18 of each colour
PLAGUE_CUBES = 6
MONKS = 4
MAX_GRAIN = 5  # a farm holds at most 5 sacks (seed 000 « Récolter du grain »)


@with_clone
@dataclass(slots=True)
class Player:
    """One family's farm and tracks. ``time`` counts every time unit ever spent."""

    color: Color
    time: int = 0
    prestige: int = 0
    coins: int = 1  # seed 000 « Mise en place » 5
    grain: int = 0
    cubes: dict[Cube, int] = field(
        default_factory=lambda: dict.fromkeys(INFLUENCE, 0), metadata=COPY
    )
    goods: dict[Good, int] = field(default_factory=lambda: dict.fromkeys(Good, 0), metadata=COPY)
    customers: list[str] = field(default_factory=list, metadata=COPY)
    cities: list[str] = field(default_factory=list, metadata=COPY)

    def clone(self) -> Player:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError


@with_clone
@dataclass(slots=True)
class MarketDay:
    """A market day in progress (seed 000 « Marché »)."""

    trigger: Color
    turn: Color
    passed: set[Color] = field(metadata=COPY)
    trigger_sales: int = 0
    sold: int = 0

    def clone(self) -> MarketDay:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable."""
        raise NotImplementedError


@with_clone
@dataclass(slots=True)
class GameState:
    """The whole table. ``phase`` names the step pending, with the same words as
    ``pending(st).kind`` (one vocabulary); the fields below it say the rest:

    - ``reveal_customers``: customer tiles to turn up onto ``to_reveal`` (chance), then the
      step ``after_reveal`` (or the end of the turn);
    - ``fill_bag``: the green bag to fill and draw (chance);
    - ``turn``: ``players[current]`` takes a cube, uses the well, or (final turns on an
      empty board) acts freely;
    - ``action``: the action of ``act_space`` (or skip); ``privilege``: a council privilege
      up to ``privilege_max`` (or skip); ``market``: a market day decision;
    - ``death``: ``death_player`` chooses which oldest member dies;
    - ``buyout`` / ``mass_draw`` / ``church_move``: the three steps of mass
      (``mass_order`` left to decide);
    - ``over``: the game has ended.

    A module adds its own steps (see ``rules.py``); ``rules`` holds the merged tables of the
    game's modules, ``modules`` their parts of the table by module name (each module reads
    its own through a typed accessor, e.g. ``modules.port.port_of``).
    """

    data: BoardData
    players: tuple[Color, ...]
    # in the engine's copy (``derive``) each player is shared with the parent state's
    # until the engine changes it, reaching it through ``own`` (copy on write)
    p: dict[Color, Player] = field(metadata=ON_WRITE_VALUES)
    members: dict[MemberId, Loc] = field(metadata=COPY)
    supply: dict[Cube, int] = field(metadata=COPY)
    bag: dict[Cube, int] = field(metadata=COPY)
    # each space's cubes and each chronicle section are replaced whole, never changed in
    # place (copy on write: the search's states share them with their parent's)
    spaces: dict[Space, dict[Cube, int]] = field(metadata=COPY_ON_WRITE)
    market: list[str | None] = field(metadata=COPY)  # 0-4 stalls, 5-9 waiting line
    unseen: set[str] = field(metadata=COPY)  # customer tiles still in the face-down stack
    chronicle: dict[Section, list[MemberId]] = field(metadata=COPY_ON_WRITE)
    graves: list[MemberId] = field(metadata=COPY)
    rules: Rules  # the merged tables of the game's modules
    round: int = 1
    first: int = 0
    current: int = 0
    phase: PhaseName = FIRST_STEP
    to_reveal: tuple[int, ...] = ()
    after_reveal: PhaseName = ROUND_START  # or "end_turn"
    act_space: Space | None = None
    privilege_max: int = 0
    day: MarketDay | None = field(default=None, metadata=CLONE)
    next_first: Color | None = None
    owed_turn_end: int = 0  # deaths the current player owes at the end of the turn
    owed_now: dict[Color, int] = field(default_factory=dict, metadata=COPY)  # die at once
    death_player: Color | None = None
    end_trigger: Color | None = None
    end_cause: str | None = None
    end_market_trigger: Color | None = None  # set when the end came during a market day
    final_queue: list[Color] | None = field(default=None, metadata=COPY_OR_NONE)  # final turns
    mass_order: list[Color] = field(default_factory=list, metadata=COPY)
    mass_out: int = 0  # figures taken out of the black bag so far this mass
    prestige_log: list[tuple[int, dict[Color, int]]] = field(default_factory=list, metadata=COPY)
    round_fill: dict[Space, dict[Cube, int]] = field(
        default_factory=dict, metadata=SHARE
    )  # this round's draw: replaced whole by the engine, never changed in place
    house: HouseRules = field(default_factory=HouseRules)  # the game's house rules (frozen)
    modules: dict[str, ModuleState] = field(
        default_factory=dict, metadata=CLONE_VALUES
    )  # the switched-on modules' parts of the table
    cube_totals: dict[Cube, int] = field(
        default_factory=lambda: dict.fromkeys(INFLUENCE, INFLUENCE_PER_COLOUR), metadata=SHARE
    )  # influence cubes in play per colour (set at setup, never changed after)

    # the players this state has copied for itself (``own``); not part of its value
    owned: set[Color] = field(default_factory=set, compare=False, repr=False,
                              metadata=OWNED)

    def clone(self) -> GameState:  # pragma: no cover - replaced by @with_clone
        """A copy sharing nothing mutable with this state but what the engine replaces
        whole (generated from the fields' copy metadata, `copying`): to change by hand."""
        raise NotImplementedError

    def derive(self) -> GameState:  # pragma: no cover - replaced by @with_clone
        """The engine's copy: as ``clone``, but sharing the players, which the engine
        changes only through ``own``. Changing a player of either state any other way
        changes both."""
        raise NotImplementedError

    def own(self, color: Color) -> Player:
        """``color``'s player, to change: copied from the one shared with the state this
        one was cloned from on the first call (copy on write). Raises KeyError for a
        colour not at the table."""
        if color not in self.owned:
            self.p[color] = self.p[color].clone()
            self.owned.add(color)
        return self.p[color]

    @property
    def current_color(self) -> Color:
        return self.players[self.current]

    def seat(self, color: Color) -> int:
        return self.players.index(color)

    def after(self, color: Color) -> list[Color]:
        """The other players in seat order, starting after ``color``."""
        i = self.players.index(color)
        n = len(self.players)
        return [self.players[(i + k) % n] for k in range(1, n)]

    def family(self, color: Color, zones: frozenset[str] | None = None) -> list[MemberId]:
        """Member ids of a colour, optionally only those in the given zones."""
        ids = member_ids(color)
        if zones is None:
            return list(ids)
        return [m for m in ids if self.members[m][0] in zones]

    def board_empty(self) -> bool:
        return not any(n for cubes in self.spaces.values() for n in cubes.values())


def new_game(
    players: list[Color] | tuple[Color, ...],
    data: BoardData,
    first_player: Color | None = None,
    house: HouseRules | None = None,
    config: GameConfig | None = None,
    *,
    rules: Rules,
) -> GameState:
    """The table after setup (seed 000 « Mise en place »), waiting for the customer tiles.

    ``players`` is the seat order (clockwise); the first player is the oldest player, the
    first in seat order unless given; ``house``: the house rules (default: the documented
    reading); ``config``: the rule modules switched on, their values and choices (default:
    the base game alone); ``rules``: the merged tables of those modules (the game's
    catalogue builds them, `modules.registry.rules_for`). Raises ValueError for a bad
    player list and BoardDataError for module values that are missing or malformed.
    """
    config = config or GameConfig()
    seats = tuple(players)
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"Village is for 2 to 4 players, got {len(seats)}")
    if len(set(seats)) != len(seats):
        raise ValueError("each player needs a different colour")
    if first_player is not None and first_player not in seats:
        raise ValueError(f"first player {first_player} is not at the table")
    members: dict[MemberId, Loc] = {}
    for c in seats:
        for m in member_ids(c):
            members[m] = FARM if m.split("-")[1][0] == "1" else UNBORN
    supply = dict.fromkeys(INFLUENCE, INFLUENCE_PER_COLOUR)
    supply[Cube.PLAGUE] = PLAGUE_CUBES
    first = seats.index(first_player) if first_player else 0
    slots = data.market_slots(len(seats))
    st = GameState(
        data=data,
        players=seats,
        p={c: Player(c) for c in seats},
        members=members,
        supply=supply,
        bag=dict.fromkeys(Cube, 0),
        spaces={s: {} for s in Space},
        market=[None] * 10,
        unseen=set(data.customers),
        chronicle={s: [] for s in Section},
        graves=[],
        first=first,
        current=first,
        phase=FIRST_STEP,
        to_reveal=slots,
        after_reveal=ROUND_START,
        prestige_log=[(0, dict.fromkeys(seats, 0))],
        house=house or HouseRules(),
        rules=rules,
    )
    st.owned = set(seats)  # its players are its own
    for setup in rules.setup:
        setup(st, config)
    return st
