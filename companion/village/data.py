"""Board data: every number printed on the components, with its source and confidence.

The shipped values live in ``data/board.json``; some are not public and are best guesses
(see ``confidence`` and ``verified``). The owner of a box confirms or corrects them once
with the box check; the answers are an *overlay* (key → value) applied on top of the
shipped file. A game record's header carries the resolved values, so a record replays the
same way whatever the installation's overlay is later.
"""

from __future__ import annotations

import copy
import functools
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from companion.games.errors import SetupError

from .schema import SchemaError, check
from .vocabulary import INFLUENCE, Building, Cube, Good, Section, Space

CONFIDENCES = ("high", "medium", "low", "unknown")
REWARDS = ("prestige", "coin", "cubes")


class BoardDataError(SchemaError, SetupError):
    """Raised when board data (shipped, overlay or header) is not well formed; the message
    names the key and says what is expected."""


@dataclass(frozen=True, slots=True)
class DataItem:
    """One printed value: what it is, where it comes from and whether the owner confirmed it."""

    key: str
    value: Any
    confidence: str
    verified: bool
    source: str
    question: str
    title: str = ""
    look: str = ""
    schema: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Customer:
    """A customer tile: the goods and grain it wants and the prestige it is worth."""

    id: str
    goods: tuple[tuple[Good, int], ...]
    grain: int
    prestige: int


@dataclass(frozen=True, slots=True)
class Craft:
    """A craft building's costs (seed 000, « Vue d'ensemble du coût »)."""

    train: int
    produce: int
    goods: tuple[Good, ...]
    buy_cubes: tuple[Cube, ...]
    buy_grain: int


@dataclass(frozen=True, slots=True)
class BoardData:
    """The resolved values the engine uses; build with :func:`load` or :func:`from_values`."""

    values: dict[str, Any]
    bag: dict[int, dict[Cube, int]]
    space_cubes: dict[int, dict[Space, int]]
    time_track_length: int
    council_enter_time: int
    council_advance_time: dict[int, int]
    chronicle_marks: dict[Section, tuple[int | None, ...]]
    grave_marks: tuple[int | None, ...]
    stall_marks: tuple[int | None, ...]
    queue_marks: tuple[int | None, ...]
    mass_grain_costs: tuple[int, ...]
    travel_markers: int
    start_paths: tuple[tuple[str, Cube], ...]
    city_rewards: dict[str, str]
    adjacency: dict[str, tuple[tuple[str, Cube], ...]]
    customers: dict[str, Customer]
    crafts: dict[Building, Craft]
    score_travel: tuple[int, ...]
    score_council: tuple[int, ...]
    score_church: tuple[int, ...]
    score_chronicle: tuple[int, ...]

    def chronicle_capacity(self, players: int) -> dict[Section, int]:
        """Usable chronicle spaces per section: a space marked 3 or 4 needs that many players."""
        return {s: _usable(marks, players) for s, marks in self.chronicle_marks.items()}

    def grave_capacity(self, players: int) -> int:
        """Usable anonymous graves for this player count."""
        return _usable(self.grave_marks, players)

    def market_slots(self, players: int) -> tuple[int, ...]:
        """Indices of usable customer spaces: 0-4 are stalls, 5-9 the waiting line."""
        marks = self.stall_marks + self.queue_marks
        return tuple(i for i, m in enumerate(marks) if m is None or m <= players)


def _usable(marks: tuple[int | None, ...], players: int) -> int:
    return sum(1 for m in marks if m is None or m <= players)


@functools.cache
def _shipped_raw() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/board.json").read_text("utf-8")
    raw: dict[str, Any] = json.loads(text)["items"]
    return raw


def shipped_items() -> dict[str, DataItem]:
    """The shipped board data, as items with their confidence and source (a new dict each
    call; the file is read once)."""
    raw = _shipped_raw()
    return {
        key: DataItem(
            key,
            copy.deepcopy(v["value"]),  # the cached file stays as read
            v["confidence"],
            bool(v["verified"]),
            v["source"],
            v["question"],
            v["title"],
            v["look"],
            v["schema"],
        )
        for key, v in raw.items()
    }


def schemas() -> dict[str, dict[str, Any]]:
    """Each key's schema (see `companion.village.schema`), as shipped."""
    return {key: v["schema"] for key, v in _shipped_raw().items()}


def check_base_value(key: str, value: Any) -> None:
    """Raise `BoardDataError` unless ``value`` fits the schema of base game value ``key``
    (an unknown key too); the message says what is expected. A rule module's values are
    checked by `box_values.check_value`."""
    raw = _shipped_raw()
    if key not in raw:
        raise BoardDataError(f"no board value is called {key!r}")
    try:
        check(raw[key]["schema"], value, key)
    except BoardDataError:
        raise
    except SchemaError as exc:
        raise BoardDataError(str(exc)) from None


def load() -> BoardData:
    """The shipped board data of the base game (the owner's overlay: `box_values.load`)."""
    return from_values({k: i.value for k, i in shipped_items().items()})


def from_values(values: dict[str, Any]) -> BoardData:
    """Build BoardData from resolved key → value pairs (as stored in a record header).

    Raises BoardDataError naming the key at fault.
    """
    if not isinstance(values, dict):
        raise BoardDataError(f"board data is an object of values, not {type(values).__name__}")
    missing = set(_shipped_raw()) - set(values)
    if missing:
        raise BoardDataError(f"board data lacks {sorted(missing)}")
    for key in _shipped_raw():
        check_base_value(key, values[key])
    try:
        return _build(values)
    except BoardDataError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise BoardDataError(f"board data is malformed: {exc}") from exc


def _marks(key: str, value: Any) -> tuple[int | None, ...]:
    if not isinstance(value, list) or any(m not in (None, 3, 4) for m in value):
        raise BoardDataError(f"{key}: expected a list of null, 3 or 4")
    return tuple(value)


def _count(key: str, value: Any, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BoardDataError(f"{key}: expected a whole number ≥ {low}, got {value!r}")
    return value


def _build(v: dict[str, Any]) -> BoardData:
    bag: dict[int, dict[Cube, int]] = {}
    space_cubes: dict[int, dict[Space, int]] = {}
    for n in (2, 3, 4):
        b = v[f"setup.{n}.bag"]
        bag[n] = {c: _count(f"setup.{n}.bag", b[c.value]) for c in INFLUENCE}
        s = v[f"setup.{n}.spaces"]
        space_cubes[n] = {sp: _count(f"setup.{n}.spaces", s[sp.value]) for sp in Space}
    adv = v["council.advance_time"]
    advance = {lvl: _count("council.advance_time", adv[str(lvl)]) for lvl in (2, 3, 4)}
    chron = v["chronicle.sections"]
    chronicle = {s: _marks("chronicle.sections", chron[s.value]) for s in Section}
    tmap = v["travel.map"]
    rewards: dict[str, str] = {}
    for city, info in tmap["cities"].items():
        if info["reward"] not in REWARDS:
            raise BoardDataError(f"travel.map: city {city!r} has unknown reward {info['reward']!r}")
        rewards[city] = info["reward"]
    adjacency: dict[str, list[tuple[str, Cube]]] = {c: [] for c in rewards}
    for a, b, colour in tmap["paths"]:
        cube = Cube(colour)
        if a not in rewards or b not in rewards or cube not in INFLUENCE:
            raise BoardDataError(f"travel.map: bad path {[a, b, colour]!r}")
        adjacency[a].append((b, cube))
        adjacency[b].append((a, cube))
    starts = tuple((c, Cube(col)) for c, col in tmap["start"])
    if any(c not in rewards for c, _ in starts):
        raise BoardDataError("travel.map: a start path leads to an unknown city")
    customers: dict[str, Customer] = {}
    for t in v["customers.tiles"]:
        wants = dict(t["wants"])
        grain = _count("customers.tiles", wants.pop("grain", 0))
        goods = tuple(
            sorted(((Good(g), _count("customers.tiles", n, 1)) for g, n in wants.items()))
        )
        customers[t["id"]] = Customer(
            t["id"], goods, grain, _count("customers.tiles", t["prestige"])
        )
    crafts: dict[Building, Craft] = {}
    for name, c in v["crafts.costs"].items():
        buy = dict(c["buy"])
        grain = buy.pop("grain", 0)
        cubes = tuple(Cube(col) for col, n in sorted(buy.items()) for _ in range(n))
        crafts[Building(name)] = Craft(
            c["train"], c["produce"], tuple(Good(g) for g in c["goods"]), cubes, grain
        )
    grain_costs = tuple(_count("mass.grain_costs", g) for g in v["mass.grain_costs"])
    if len(grain_costs) != 3:
        raise BoardDataError("mass.grain_costs: expected 3 numbers (window 1→2, 2→3, 3→4)")
    return BoardData(
        values=dict(v),
        bag=bag,
        space_cubes=space_cubes,
        time_track_length=_count("time_track.length", v["time_track.length"], 1),
        council_enter_time=_count("council.enter_time", v["council.enter_time"]),
        council_advance_time=advance,
        chronicle_marks=chronicle,
        grave_marks=_marks("graves.marks", v["graves.marks"]),
        stall_marks=_marks("market.stalls", v["market.stalls"]),
        queue_marks=_marks("market.queue", v["market.queue"]),
        mass_grain_costs=grain_costs,
        travel_markers=_count("travel.markers", v["travel.markers"]),
        start_paths=starts,
        city_rewards=rewards,
        adjacency={c: tuple(p) for c, p in adjacency.items()},
        customers=customers,
        crafts=crafts,
        score_travel=tuple(v["scoring.travel"]),
        score_council=tuple(v["scoring.council"]),
        score_church=tuple(v["scoring.church"]),
        score_chronicle=tuple(v["scoring.chronicle"]),
    )
