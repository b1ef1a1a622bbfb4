"""What the table should show: ``picture(state)``, named with the vocabulary of ``zones``.

The picture is what a perfect sensor would see: where every figure stands, the cubes on
every region, each farm's grain, coins and goods, each marker's cell, the customer tiles
face up. The reconciler compares it with what the sensors saw (``docs/sensing.md``).

The engine treats the four monks alike, so the picture counts them by zone (they always
stand in the black bag between masses: a monk drawn at mass goes back at once).
``Picture.regions()`` flattens it into one comparable value per region name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import zones
from .state import MONKS, GameState
from .vocabulary import INFLUENCE, Color, Cube, Good, Space

CUBE_ORDER: tuple[Cube, ...] = (*INFLUENCE, Cube.PLAGUE)
ITEM_ORDER: tuple[str, ...] = ("grain", "coin", *(g.value for g in Good))

RegionValue = tuple[Any, ...] | int
"""A flattened region: sorted piece signatures, cube counts in ``CUBE_ORDER``, item counts
in ``ITEM_ORDER`` or a marker's cell."""


@dataclass(frozen=True, slots=True)
class Picture:
    """What the table should show. Every mapping is keyed by a ``zones`` name.

    - ``pieces``: piece zone → member ids there (every zone of the game, empty ones too);
    - ``monks``: piece zone → how many monks stand there; ``bag_figures``: figures in the
      black bag (members and monks);
    - ``cubes``: cube region (``space:*``, ``supply:*``, ``stock``, ``green_bag``) → counts
      by cube colour name, every colour present;
    - ``items``: ``goods:<colour>`` → counts of ``grain``, ``coin`` and each good;
    - ``time``: ``time:<colour>`` → (cell, laps): cell = time spent modulo the track length;
    - ``prestige``: colour → cell on the prestige track;
    - ``first_player``: the colour holding the first-player token (taken with the council's
      first privilege, it marks who starts the next round); ``next_first_home``: the Next
      First Player marker lies on its cell of the council chamber (seed 000, set-up step
      8), nobody having taken it this round;
    - ``customers``: market slot → tile id face up (0-4 stalls, 5-9 waiting line).
    """

    pieces: dict[str, frozenset[str]]
    monks: dict[str, int]
    bag_figures: int
    cubes: dict[str, dict[str, int]]
    items: dict[str, dict[str, int]]
    time: dict[str, tuple[int, int]]
    prestige: dict[str, int]
    customers: dict[int, str]
    first_player: str = ""
    next_first_home: bool = True

    def regions(self) -> dict[str, RegionValue]:
        """One comparable value per region name (see ``docs/sensing.md``).

        Piece zones give the sorted *signatures* of their figures (``red-2``: colour and
        generation, what a camera can tell and what the rules tell apart); the black bag
        leaves its monks out. Cube regions give counts in ``CUBE_ORDER``, ``goods:*`` in
        ``ITEM_ORDER``, ``time:*`` the cell, ``prestige:<colour>`` the cell,
        ``first_player:<colour>`` 1 for the token's holder, else 0, and
        ``first_player:home`` 1 while the Next First Player marker is on its cell.
        """
        out: dict[str, RegionValue] = {}
        for name, members in self.pieces.items():
            out[name] = signatures(members)
        for name, counts in self.cubes.items():
            out[name] = tuple(counts[c.value] for c in CUBE_ORDER)
        for name, items in self.items.items():
            out[name] = tuple(items[k] for k in ITEM_ORDER)
        for name, (cell, _laps) in self.time.items():
            out[name] = cell
        for colour, cell in self.prestige.items():
            out[zones.zone(zones.PRESTIGE, colour)] = cell
            out[zones.zone(zones.FIRST_PLAYER, colour)] = int(colour == self.first_player)
        out[zones.zone(zones.FIRST_PLAYER, zones.HOME)] = int(self.next_first_home)
        return out


def signature(member: str) -> str:
    """``red-2b`` → ``red-2``: what tells a figure apart for the rules."""
    return member[:-1]


def signatures(members: frozenset[str] | set[str] | list[str]) -> tuple[str, ...]:
    return tuple(sorted(signature(m) for m in members))


def _zone_of(loc: tuple[str, Any], color: str) -> str:
    kind, where = loc
    if kind == "grave":
        return zones.GRAVES
    if kind in ("farm", "unborn"):
        return zones.zone(kind, color)
    if kind in ("bag", "removed"):
        return kind
    return zones.zone(kind, where)


def empty_zones(st: GameState) -> list[str]:
    """Every piece zone of this game, in a fixed order."""
    out: list[str] = []
    for c in st.players:
        out += [zones.zone(zones.FARM, c), zones.zone(zones.UNBORN, c)]
    out += [zones.zone(zones.CRAFT, b) for b in st.data.crafts]
    out += [zones.zone(zones.COUNCIL, lvl) for lvl in range(1, 5)]
    out += [zones.zone(zones.TRAVEL, city) for city in st.data.adjacency]
    out += [zones.zone(zones.CHURCH, w) for w in range(1, 5)]
    out += [zones.zone(zones.CHRONICLE, s) for s in st.chronicle]
    out += [zones.BAG, zones.GRAVES, zones.REMOVED]
    return out


def picture(st: GameState) -> Picture:
    """What the table of ``st`` shows. Pure; never raises for a state the engine made."""
    placed: dict[str, set[str]] = {z: set() for z in empty_zones(st)}
    for member, loc in st.members.items():
        placed.setdefault(_zone_of(loc, member.split("-", 1)[0]), set()).add(member)
    pieces = {z: frozenset(ms) for z, ms in placed.items()}
    bag_members = len(pieces[zones.BAG])
    cubes: dict[str, dict[str, int]] = {}
    for s in Space:
        on = st.spaces[s]
        cubes[zones.space(s)] = {c.value: on.get(c, 0) for c in CUBE_ORDER}
    items: dict[str, dict[str, int]] = {}
    time: dict[str, tuple[int, int]] = {}
    prestige: dict[str, int] = {}
    length = st.data.time_track_length
    for color in st.players:
        p = st.p[color]
        supply = {c.value: p.cubes.get(c, 0) for c in CUBE_ORDER}
        cubes[zones.zone(zones.SUPPLY, color)] = supply
        items[zones.zone(zones.GOODS, color)] = {
            "grain": p.grain,
            "coin": p.coins,
            **{g.value: p.goods[g] for g in Good},
        }
        time[zones.time_track(color)] = (p.time % length, p.time // length)
        prestige[color.value] = p.prestige
    cubes[zones.STOCK] = {c.value: st.supply.get(c, 0) for c in CUBE_ORDER}
    cubes[zones.GREEN_BAG] = {c.value: st.bag.get(c, 0) for c in CUBE_ORDER}
    customers = {i: t for i, t in enumerate(st.market) if t is not None}
    return Picture(
        pieces=pieces,
        monks={zones.BAG: MONKS},
        bag_figures=bag_members + MONKS,
        cubes=cubes,
        items=items,
        time=time,
        prestige=prestige,
        customers=customers,
        first_player=_first(st),
        next_first_home=st.next_first is None,
    )


_HOME = zones.zone(zones.FIRST_PLAYER, zones.HOME)


def _first(st: GameState) -> str:
    return (st.next_first or st.players[st.first]).value


_ZONES: dict[tuple[int, tuple[Color, ...]], tuple[str, ...]] = {}


def regions_of(st: GameState) -> dict[str, RegionValue]:
    """``picture(st).regions()``, computed directly: ``piece_regions`` then
    ``other_regions`` (the reconciler's search computes only the part it compares)."""
    out = piece_regions(st)
    out.update(other_regions(st))
    return out


def piece_zone_names(st: GameState) -> tuple[str, ...]:
    """The piece zones of ``st``'s game (the keys of ``piece_regions``), cached by game."""
    key = (id(st.data), st.players)
    names = _ZONES.get(key)
    if names is None:
        names = _ZONES[key] = tuple(empty_zones(st))
    return names


def piece_regions(st: GameState) -> dict[str, RegionValue]:
    """The piece zones of ``regions_of(st)``: a function of ``st.members`` alone."""
    placed: dict[str, list[str]] = {z: [] for z in piece_zone_names(st)}
    for member, (kind, where) in st.members.items():
        if kind == "grave":
            z = zones.GRAVES
        elif kind in ("farm", "unborn"):
            z = kind + ":" + member.split("-", 1)[0]
        elif where is None:
            z = kind
        else:
            z = f"{kind}:{where}"
        placed[z].append(member[:-1])
    return {z: tuple(sorted(sigs)) for z, sigs in placed.items()}


def other_regions(st: GameState) -> dict[str, RegionValue]:
    """The regions of ``regions_of(st)`` that are not piece zones (cubes, items, tracks).

    The reconciler's search calls it for every state it reaches, so the region names are
    looked up in tables made once (an enum's ``.value`` is slow) and each tuple is built
    from a list rather than a generator."""
    return _other_regions(st, None, {})


def other_regions_after(st: GameState, was: GameState,
                        before: dict[str, RegionValue]) -> dict[str, RegionValue]:
    """``other_regions(st)``, from ``before``, those of ``was`` (the state ``st`` was made
    from): a space's cubes are recounted only when ``st`` holds another object for them
    (the engine replaces a space's cubes whole, never in place: ``state.py``), a farm's
    supply or items only when they differ; the tracks are read anew. A game whose players
    or spaces differ from ``was``'s is computed whole."""
    if st.players != was.players or st.spaces.keys() != was.spaces.keys():
        return other_regions(st)
    return _other_regions(st, was, dict(before))


def _other_regions(st: GameState, was: GameState | None,
                   out: dict[str, RegionValue]) -> dict[str, RegionValue]:
    """Fill ``out`` with ``other_regions(st)``: every region when ``was`` is None, else
    only those ``st`` may show otherwise than ``was`` (``out`` holds ``was``'s)."""
    for s, on in st.spaces.items():
        if was is None or on is not was.spaces[s]:
            out[_SPACE_REGION[s]] = tuple([on.get(c, 0) for c in CUBE_ORDER])
    length = st.data.time_track_length
    first = st.next_first or st.players[st.first]  # `_first`'s colour (enums are singletons)
    for color in st.players:
        p = st.p[color]
        q = None if was is None else was.p[color]
        supply, items, time_, prestige, token = _PLAYER_REGIONS[color]
        if p is q:  # shared, never changed in place (`GameState.own`): as ``was`` shows it
            out[token] = int(color is first)
            continue
        if q is None or p.cubes != q.cubes:
            cubes = p.cubes
            out[supply] = (*[cubes[x] for x in INFLUENCE], 0)
        if q is None or p.goods != q.goods or p.grain != q.grain or p.coins != q.coins:
            held = p.goods
            out[items] = (p.grain, p.coins, *[held[g] for g in _GOODS])
        out[time_] = p.time % length
        out[prestige] = p.prestige
        out[token] = int(color is first)
    out[_HOME] = int(st.next_first is None)
    if was is None or st.supply != was.supply:
        out[zones.STOCK] = tuple([st.supply.get(c, 0) for c in CUBE_ORDER])
    if was is None or st.bag != was.bag:
        out[zones.GREEN_BAG] = tuple([st.bag.get(c, 0) for c in CUBE_ORDER])
    return out


_SPACE_REGION: dict[Space, str] = {s: "space:" + s.value for s in Space}
_PLAYER_REGIONS: dict[Color, tuple[str, str, str, str, str]] = {
    c: ("supply:" + c.value, "goods:" + c.value, "time:" + c.value,
        "prestige:" + c.value, "first_player:" + c.value)
    for c in Color}
_GOODS: tuple[Good, ...] = tuple(Good)


__all__ = [
    "CUBE_ORDER",
    "ITEM_ORDER",
    "Picture",
    "RegionValue",
    "other_regions",
    "other_regions_after",
    "picture",
    "piece_regions",
    "piece_zone_names",
    "regions_of",
    "signature",
    "signatures",
]
