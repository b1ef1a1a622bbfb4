"""*Le Port*'s printed values (``data/port.json``), checked and built into typed data.

Most of them are printed on the components only and ship as best guesses marked
unverified; the sea board's port – A – B – C fragment is derived from the seed's worked
voyage (X1–X4). See ``docs/port-and-life-goals.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..data import BoardDataError
from ..vocabulary import INFLUENCE, Cube, Good, Space
from .module_data import require_keys

ZONE_KINDS = ("port", "time", "island")
STACK_KINDS = ("cocoa", "tea", "treasure")
SALEABLE = frozenset({g.value for g in Good} | {"grain"})  # PV20: goods and grain sacks
ANY = "any"  # a cube of any colour in a captain's rate
FREE_MOVES = 1  # PV13: the first move is always free


@dataclass(frozen=True, slots=True)
class Rate:
    """A captain's price for extra moves: these cubes together buy ``moves`` moves (PV14,
    PV17). A cube is an influence colour or ``any``."""

    cubes: tuple[str, ...]
    moves: int


@dataclass(frozen=True, slots=True)
class Captain:
    id: str
    cost: int  # coins (PS5)
    rate: Rate


@dataclass(frozen=True, slots=True)
class Church:
    """A mission church: its cost (a ``wagon`` from the hold, cubes from the farm) and the
    prestige won at once (PV23–PV25)."""

    id: str
    island: str
    wagon: int
    cubes: tuple[tuple[Cube, int], ...]
    prestige: int


@dataclass(frozen=True, slots=True)
class Island:
    sells: dict[str, int]  # piece kind → prestige each (PV20)
    stack: str | None  # cocoa, tea, treasure or None (PV21)
    churches: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PortData:
    """The resolved ``port.*`` values the Port rules read."""

    values: dict[str, Any]
    bag: dict[int, dict[Cube, int]]
    space_cubes: dict[int, dict[Space, int]]
    stacks: dict[int, int]
    market: dict[str, tuple[int, int]]  # cocoa/tea → (prestige, coins)
    extra_cubes: dict[Cube, int]
    captains: dict[str, Captain]
    treasures: dict[str, int]  # tile id → coins
    zones: dict[str, str]  # zone → kind
    lanes: dict[str, tuple[str, ...]]  # zone → neighbours
    islands: dict[str, Island]
    churches: dict[str, Church]
    cemetery: tuple[tuple[int, int | None], ...]  # (prestige, player-count mark)

    def cemetery_spaces(self, players: int) -> tuple[int, ...]:
        """Prestige of the usable sea-cemetery spaces for this player count, in order."""
        return tuple(p for p, m in self.cemetery if m is None or m <= players)


def _whole(key: str, v: Any, low: int = 0) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < low:
        raise BoardDataError(f"{key}: expected a whole number ≥ {low}, got {v!r}")
    return v


def _dict(key: str, v: Any) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise BoardDataError(f"{key}: expected an object, got {v!r}")
    return v


def build_data(values: Mapping[str, Any]) -> PortData:
    """PortData from resolved ``port.*`` values. Raises BoardDataError naming the key."""
    v = dict(values)
    require_keys("port", v)
    try:
        return _build(v)
    except BoardDataError:
        raise
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise BoardDataError(f"port data is malformed: {exc}") from exc


def _build(v: dict[str, Any]) -> PortData:
    bag = {
        n: {c: _whole(f"port.setup.{n}.bag", v[f"port.setup.{n}.bag"][c.value]) for c in INFLUENCE}
        for n in (2, 3, 4)
    }
    spaces = {
        n: {
            s: _whole(f"port.setup.{n}.spaces", v[f"port.setup.{n}.spaces"][s.value]) for s in Space
        }
        for n in (2, 3, 4)
    }
    stacks = {
        int(n): _whole("port.stacks", k) for n, k in _dict("port.stacks", v["port.stacks"]).items()
    }
    market = {
        kind: (_whole("port.market", m["prestige"]), _whole("port.market", m["coin"]))
        for kind, m in _dict("port.market", v["port.market"]).items()
    }
    if set(market) != {"cocoa", "tea"}:
        raise BoardDataError("port.market: expected cocoa and tea")
    extra = {
        Cube(c): _whole("port.extra_cubes", n)
        for c, n in _dict("port.extra_cubes", v["port.extra_cubes"]).items()
    }
    if any(c not in INFLUENCE for c in extra):
        raise BoardDataError("port.extra_cubes: influence colours only")
    captains: dict[str, Captain] = {}
    for c in v["port.captains"]:
        cubes = tuple(c["rate"]["cubes"])
        if not cubes or any(x != ANY and Cube(x) not in INFLUENCE for x in cubes):
            raise BoardDataError(f"port.captains: {c['id']!r} has a bad rate {cubes!r}")
        if c["id"] in captains:
            raise BoardDataError(f"port.captains: {c['id']!r} twice")
        captains[c["id"]] = Captain(
            c["id"],
            _whole("port.captains", c["cost"], 1),
            Rate(tuple(sorted(cubes)), _whole("port.captains", c["rate"]["moves"], 1)),
        )
    treasures = {
        f"t{i}": _whole("port.treasures", n, 1) for i, n in enumerate(v["port.treasures"], 1)
    }
    sea = _dict("port.sea", v["port.sea"])
    zones = {z: str(k) for z, k in _dict("port.sea", sea["zones"]).items()}
    if any(k not in ZONE_KINDS for k in zones.values()) or list(zones.values()).count("port") != 1:
        raise BoardDataError("port.sea: zone kinds are port (exactly one), time or island")
    lanes: dict[str, list[str]] = {z: [] for z in zones}
    for a, b in sea["lanes"]:
        if a not in zones or b not in zones or a == b:
            raise BoardDataError(f"port.sea: bad lane {[a, b]!r}")
        lanes[a].append(b)
        lanes[b].append(a)
    islands: dict[str, Island] = {}
    churches: dict[str, Church] = {}
    for name, info in _dict("port.islands", v["port.islands"]).items():
        if zones.get(name) != "island":
            raise BoardDataError(f"port.islands: {name!r} is not an island zone of port.sea")
        sells = {
            k: _whole("port.islands", p) for k, p in _dict("port.islands", info["sells"]).items()
        }
        if any(k not in SALEABLE for k in sells):
            raise BoardDataError(f"port.islands: {name!r} buys something not a good or grain")
        if info["stack"] not in (None, *STACK_KINDS):
            raise BoardDataError(f"port.islands: {name!r} has an unknown stack {info['stack']!r}")
        ids = []
        for ch in info["missions"]:
            cost = dict(_dict("port.islands", ch["cost"]))
            wagon = _whole("port.islands", cost.pop("wagon", 0))
            cubes = tuple(sorted((Cube(c), _whole("port.islands", n, 1)) for c, n in cost.items()))
            if any(c not in INFLUENCE for c, _ in cubes) or ch["id"] in churches:
                raise BoardDataError(f"port.islands: mission church {ch['id']!r} is malformed")
            churches[ch["id"]] = Church(
                ch["id"], name, wagon, cubes, _whole("port.islands", ch["prestige"])
            )
            ids.append(ch["id"])
        islands[name] = Island(sells, info["stack"], tuple(ids))
    stacked = [i.stack for i in islands.values() if i.stack]
    if len(stacked) != len(set(stacked)):
        raise BoardDataError("port.islands: cocoa, tea and treasure have one island each")
    cemetery = tuple(
        (_whole("port.sea_cemetery", s["prestige"]), s["mark"]) for s in v["port.sea_cemetery"]
    )
    if any(m not in (None, 3, 4) for _, m in cemetery):
        raise BoardDataError("port.sea_cemetery: a mark is null, 3 or 4")
    return PortData(
        values=dict(v),
        bag=bag,
        space_cubes=spaces,
        stacks=stacks,
        market=market,
        extra_cubes=extra,
        captains=captains,
        treasures=treasures,
        zones=zones,
        lanes={z: tuple(n) for z, n in lanes.items()},
        islands=islands,
        churches=churches,
        cemetery=cemetery,
    )
