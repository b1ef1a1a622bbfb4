"""The observed table: what the sensors say, region by region, once it has settled.

Each (source, region) keeps its latest raw value and when it last changed. A value is
*settled* once it has stayed the same for ``settle`` seconds while not occluded, so a piece
slid across a reader or a cube under a passing hand (appearing and vanishing within the
settle time) is never committed. Regions whose sources disagree, and regions occluded for
longer than ``occlusion_timeout``, are left out of the comparison; `conflicts` names the
disagreeing ones (the reconciler asks about them, see ``Reconciler.tick``).

Two things a tag reader does are waited out or said plainly: a tag that drops out of its
reader's field (gone, with no reader seeing it arrive anywhere else) settles only after
``dropout`` seconds (drop-outs of 0.2-2 s happen while nothing moves, ``docs/sensing.md``),
and a zone whose reader holds a tag nobody enrolled is *uncertain* (`uncertain`): never
taken as unchanged. Another source's reading of it (the camera's) is compared instead;
with none, the reader's reading is compared as what it is, `WithUnknown`: the figures it
knows and how many it does not (a newborn whose tag nobody enrolled is still a figure
more on the farm).

Region values use the flat form of ``Picture.regions()`` (piece zones as figure
signatures), so they compare directly with what the engine expects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from companion.village import zones
from companion.village.picture import CUBE_ORDER, ITEM_ORDER, RegionValue, signatures

from .observations import (
    CubeCounts,
    FigureCounts,
    ItemCounts,
    MarkerCell,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
)

_CUBE_KEYS = tuple(c.value for c in CUBE_ORDER)  # a cube count's keys, in that order


def hidden_by(region: str) -> set[str]:
    """The regions a hand over ``region`` hides: a hand over ``farm:red`` hides the whole
    farm board (its figures, cubes, goods and time track)."""
    kind, detail = zones.split(region)
    if kind == zones.FARM and detail:
        return {region, zones.zone(zones.SUPPLY, detail), zones.zone(zones.GOODS, detail),
                zones.zone(zones.TIME, detail)}
    return {region}


def colour_of(signature: str) -> str:
    """A figure's colour from its signature or id (``red-2`` → ``red``, ``monk-1`` →
    ``black``)."""
    colour = signature.partition("-")[0]
    return "black" if colour == "monk" else colour


@lru_cache(maxsize=8192)
def _signature_colours(value: tuple[Any, ...]) -> tuple[tuple[str, int], ...] | None:
    """``ByColour.of(value)``, or None when ``value`` is not all signatures. Cached: the
    search compares the same few zone values with a camera's reading thousands of times a
    look."""
    if not all(isinstance(s, str) for s in value):
        return None
    return ByColour.of(value)


class ByColour:
    """A piece zone read by colour only (a camera cannot tell two red figures apart):
    equal to any sorted signature tuple with as many figures of each colour, so the search
    compares it with the engine's picture unchanged. Hashable; iterates over the colours,
    one per figure."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[str, int]) -> None:
        self.counts = tuple(sorted((c, int(n)) for c, n in counts.items() if n))

    @staticmethod
    def of(value: Any) -> tuple[tuple[str, int], ...]:
        """The colour counts of a signature tuple (as ``counts``)."""
        return tuple(sorted(Counter(colour_of(s) for s in value).items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ByColour):
            return self.counts == other.counts
        if isinstance(other, tuple):
            return self.counts == _signature_colours(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("by colour", self.counts))

    def __iter__(self) -> Iterator[str]:
        for colour, n in self.counts:
            yield from [colour] * n

    def __len__(self) -> int:
        return sum(n for _c, n in self.counts)

    def __repr__(self) -> str:
        return f"ByColour({dict(self.counts)})"


class WithUnknown:
    """A tag reader's zone holding tags nobody enrolled: the signatures it knows
    (``known``) and ``unknown`` figures more. Equal to any signature tuple holding every
    known signature and exactly ``unknown`` others (and to a camera's `ByColour` that
    could count the same figures), so it is never taken for the zone unchanged unless the
    figure count and every known figure agree. Hashable; iterates over the known
    signatures."""

    __slots__ = ("known", "unknown")

    def __init__(self, known: tuple[str, ...], unknown: int) -> None:
        self.known = tuple(sorted(known))
        self.unknown = int(unknown)

    def _fits(self, sigs: tuple[Any, ...]) -> bool:
        if len(sigs) != len(self.known) + self.unknown:
            return False
        rest = list(sigs)
        for s in self.known:
            if s not in rest:
                return False
            rest.remove(s)
        return True

    def __eq__(self, other: object) -> bool:
        if isinstance(other, WithUnknown):
            return (self.known, self.unknown) == (other.known, other.unknown)
        if isinstance(other, ByColour):
            mine = dict(ByColour.of(self.known))
            return len(other) == len(self) and all(
                n <= dict(other.counts).get(c, 0) for c, n in mine.items())
        if isinstance(other, tuple):
            return all(isinstance(s, str) for s in other) and self._fits(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("with unknown", self.known, self.unknown))

    def __iter__(self) -> Iterator[str]:
        return iter(self.known)

    def __len__(self) -> int:
        return len(self.known) + self.unknown

    def __repr__(self) -> str:
        return f"WithUnknown({list(self.known)}, +{self.unknown})"


@dataclass
class _Cell:
    raw: Any  # a RegionValue, or a ByColour for a zone a camera counts by colour
    since: float
    settled: Any = None
    ids: frozenset[str] = frozenset()  # piece zones: the ids the source reported
    settled_ids: frozenset[str] = frozenset()
    unknown: frozenset[str] = frozenset()  # piece zones: UIDs no piece is enrolled for
    settled_unknown: frozenset[str] = frozenset()


@dataclass
class ObservedTable:
    """Settled observations by region. Feed with :meth:`observe`, advance with :meth:`tick`."""

    settle: float = 0.5
    occlusion_timeout: float = 5.0
    dropout: float = 2.5  # a tag gone from a reader and seen nowhere else settles after this
    cells: dict[tuple[str, str], _Cell] = field(default_factory=dict)
    occluded: dict[str, tuple[frozenset[str], float]] = field(default_factory=dict)
    taps: list[TagTapped] = field(default_factory=list)
    # since the last commit, the latest observation of each source about each place (and
    # every tap), kept as they come in: `committed` hands them over
    latest: dict[tuple[str, str], Observation] = field(default_factory=dict)
    last_change: float = float("-inf")
    # region → when a hand was last over it, since the last commit (or later: `committed`)
    hand_seen: dict[str, float] = field(default_factory=dict)
    # the same for regions a camera read uncertain (``Occluded.uncertain``): something was
    # there, but no hand was seen (a shadow, a heap held back): never a hand that vouches
    unsure_seen: dict[str, float] = field(default_factory=dict)
    # every enrolled tag a reader has ever reported present (`newborns.py`)
    ever_read: set[str] = field(default_factory=set)
    # a camera that reports hands has reported one (`MisreadDoubts._no_hand_seen`)
    hands_reported: bool = False
    # the sources whose hidden regions are read uncertain, not under a hand
    unsure_sources: set[str] = field(default_factory=set)
    # the cells whose latest value has not settled yet (`_pending`), in arrival order:
    # what a tick looks at
    waiting: dict[tuple[str, str], None] = field(default_factory=dict, compare=False)
    # counts the changes to what `settled`, `conflicts` and `look_key` answer (a value
    # settled, a hand come or gone): they are computed again only after one
    version: int = field(default=0, compare=False)
    _answers: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    _answered: int = field(default=-1, compare=False, repr=False)

    @property
    def handled(self) -> set[str]:
        """The regions a hand has been over since the last commit
        (`MisreadDoubts._hand_elsewhere`)."""
        return set(self.hand_seen)

    @property
    def came_near(self) -> set[str]:
        """The regions a hand has been over, or read uncertain, since the last commit:
        where a reading as before may still hide a change (`MisreadDoubts`)."""
        return set(self.hand_seen) | set(self.unsure_seen)

    def observe(self, obs: Observation) -> None:
        """Take one observation in (health is ignored here)."""
        t = obs.t
        if isinstance(obs, TagTapped):
            self.taps.append(obs)
            self.latest[(obs.source, f"tap:{obs.t}")] = obs
            self.last_change = max(self.last_change, t)
            return
        if isinstance(obs, Occluded):
            hidden: set[str] = set()
            for r in obs.regions:
                hidden |= hidden_by(r)
            if obs.uncertain:
                self.unsure_sources.add(obs.source)
            if hidden:
                self.hands_reported = self.hands_reported or not obs.uncertain
                self.occluded[obs.source] = (frozenset(hidden), t)
                seen = self.unsure_seen if obs.uncertain else self.hand_seen
                for r in hidden:
                    seen[r] = max(t, seen.get(r, t))
            else:
                self.occluded.pop(obs.source, None)
            self.version += 1
            self.last_change = max(self.last_change, t)
            return
        if isinstance(obs, (PiecesSeen, PiecesGone, ZoneSnapshot)):
            key = (obs.source, obs.zone)
            old = self.cells.get(key)
            ids = old.ids if old else frozenset()
            unknown = old.unknown if old else frozenset()
            if not isinstance(obs, PiecesGone):
                self.ever_read |= obs.pieces
            if isinstance(obs, PiecesSeen):
                ids, unknown = ids | obs.pieces, unknown | obs.unknown_uids
            elif isinstance(obs, PiecesGone):
                ids, unknown = ids - obs.pieces, unknown - obs.unknown_uids
            else:
                ids, unknown = obs.pieces, obs.unknown_uids
            self._set(key, signatures(ids), t, ids, unknown)
        elif isinstance(obs, CubeCounts):
            counts = obs.counts
            self._set((obs.source, obs.region), tuple(counts.get(c, 0) for c in _CUBE_KEYS), t)
        elif isinstance(obs, FigureCounts):
            self._set((obs.source, obs.zone), ByColour(obs.counts), t)
        elif isinstance(obs, ItemCounts):
            self._set((obs.source, obs.region), tuple(obs.counts.get(k, 0) for k in ITEM_ORDER), t)
        elif isinstance(obs, MarkerCell):
            name = (zones.zone(obs.track, obs.marker)
                    if obs.track in (zones.PRESTIGE, zones.FIRST_PLAYER) else obs.track)
            self._set((obs.source, name), obs.cell, t)
        else:
            return
        place = getattr(obs, "zone", None) or getattr(obs, "region", None) or getattr(
            obs, "track", "") + ":" + str(getattr(obs, "marker", ""))
        self.latest[(obs.source, str(place))] = obs

    def _set(self, key: tuple[str, str], value: RegionValue | ByColour, t: float,
             ids: frozenset[str] = frozenset(), unknown: frozenset[str] = frozenset()) -> None:
        cell = self.cells.get(key)
        if cell is None:
            self.cells[key] = _Cell(value, t, None, ids, unknown=unknown)
            self.waiting[key] = None
            self.version += 1
            self.last_change = max(self.last_change, t)
            return
        cell.ids = ids
        if cell.raw != value or cell.unknown != unknown:
            cell.raw = value
            cell.unknown = unknown
            cell.since = t
            self.last_change = max(self.last_change, t)
        if self._pending(cell):
            self.waiting[key] = None
        else:
            self.waiting.pop(key, None)

    def _wait(self, src: str, cell: _Cell) -> float:
        """How long a cell's new value must stay still: ``dropout`` for a tag gone from a
        reader that no reader has seen arrive elsewhere, else ``settle``."""
        lost = cell.settled_ids - cell.ids
        if not lost or not src.startswith("hub:"):
            return self.settle
        for (other, _n), c in self.cells.items():
            if c is not cell and other.startswith("hub:"):
                lost = lost - c.ids
        return self.dropout if lost else self.settle

    def _pending(self, cell: _Cell) -> bool:
        return (cell.settled != cell.raw or cell.settled_ids != cell.ids
                or cell.settled_unknown != cell.unknown)

    def hidden(self, now: float, hands_only: bool = False) -> set[str]:
        """Regions under a hand now (any age), and those read uncertain unless
        ``hands_only``."""
        out: set[str] = set()
        for source, (regions, _since) in self.occluded.items():
            if not (hands_only and source in self.unsure_sources):
                out |= regions
        return out

    def tick(self, now: float) -> bool:
        """Settle what has stayed still long enough; True if a settled value changed."""
        if not self.waiting:
            return False
        hidden = self.hidden(now)
        changed = False
        for key in list(self.waiting):
            src, name = key
            cell = self.cells[key]
            if name in hidden or now - cell.since < self._wait(src, cell):
                continue
            if cell.settled != cell.raw or cell.settled_unknown != cell.unknown:
                changed = True
            cell.settled = cell.raw
            cell.settled_ids = cell.ids
            cell.settled_unknown = cell.unknown
            del self.waiting[key]
            self.version += 1
        return changed

    def next_due(self, now: float) -> float | None:
        """When the earliest value waiting to settle (and not under a hand) will have been
        still for ``settle`` seconds (None if nothing waits): when a tick can commit it."""
        hidden = self.hidden(now)
        due = [self.cells[(s, name)].since + self._wait(s, self.cells[(s, name)])
               for (s, name) in self.waiting if name not in hidden]
        return min(due, default=None)

    def quiet(self, now: float) -> bool:
        """True when nothing waits to settle and no hand has been over the table lately
        (a hand resting longer than ``occlusion_timeout`` no longer holds things up). A
        region read uncertain (``unsure_sources``) is no hand: nobody is moving there, and
        what it would show is weighed where it matters (`PathDoubts._under_hand`)."""
        for source, (regions, since) in self.occluded.items():
            if (regions and source not in self.unsure_sources
                    and now - since < self.occlusion_timeout):
                return False
        if not self.waiting:  # every other cell has settled on its latest value
            return True
        hidden = self.hidden(now)
        cells = self.cells
        return all(
            (c.raw == c.settled and c.unknown == c.settled_unknown) or key[1] in hidden
            for key in self.waiting for c in (cells[key],)
        )

    def uncertain(self, now: float) -> set[str]:
        """Zones a reader says hold a tag nobody enrolled: which figure stands there is
        not known (`settled` compares them as `WithUnknown`, never as unchanged)."""
        return {name for (_s, name), c in self.cells.items() if c.settled_unknown}

    def _answer(self, name: str, work: Any) -> Any:
        """``work()``, computed once per `version` (what the table says is unchanged
        until a value settles or a hand comes or goes)."""
        if self._answered != self.version:
            self._answers = {}
            self._answered = self.version
        if name not in self._answers:
            self._answers[name] = work()
        return self._answers[name]

    def settled(self, now: float) -> dict[str, RegionValue]:
        """Settled value per region, leaving out occluded regions and regions whose
        sources disagree. A zone whose reader holds a tag nobody enrolled (`uncertain`)
        takes another source's reading, else the reader's as a `WithUnknown`. A new
        dictionary each call (computed once per `version`)."""
        return dict(self._answer("settled", lambda: self._settled(now)))

    def _settled(self, now: float) -> dict[str, RegionValue]:
        hidden = self.hidden(now)
        out: dict[str, RegionValue] = {}
        partial: dict[str, RegionValue] = {}
        conflict: set[str] = set()
        for (_src, name), cell in self.cells.items():
            if cell.settled is None or name in hidden:
                continue
            value = self._value(cell)
            if name in out and out[name] != value:
                conflict.add(name)
            if isinstance(value, WithUnknown):
                partial[name] = value  # type: ignore[assignment]
            elif not (name in out and isinstance(value, ByColour)):
                out[name] = value  # a tag reader's ids say more than a colour count
        for name, value in partial.items():
            if name not in out:
                out[name] = value
            elif out[name] != value:
                conflict.add(name)
        for name in conflict:
            out.pop(name, None)
        return out

    @staticmethod
    def _value(cell: _Cell) -> Any:
        """A cell's settled value as compared: a zone with unknown tags as `WithUnknown`."""
        if cell.settled_unknown and isinstance(cell.settled, tuple):
            return WithUnknown(cell.settled, len(cell.settled_unknown))
        return cell.settled

    def conflicts(self, now: float) -> dict[str, dict[str, RegionValue]]:
        """Regions (not under a hand) whose sources settled on different values: region →
        source → its settled value. `settled` leaves these regions out. New dictionaries
        each call (computed once per `version`)."""
        found = self._answer("conflicts", lambda: self._conflicts(now))
        return {r: dict(vals) for r, vals in found.items()}

    def look_key(self, now: float) -> tuple[Any, ...]:
        """``settled`` and ``conflicts`` as one comparable value (equal when both are):
        the items of the one sorted, the other's sorted items written out."""
        return self._answer("key", lambda: (  # type: ignore[no-any-return]
            tuple(sorted(self.settled(now).items())),
            repr(sorted((r, sorted(vals.items())) for r, vals in self.conflicts(now).items()))))

    def _conflicts(self, now: float) -> dict[str, dict[str, RegionValue]]:
        hidden = self.hidden(now)
        by_region: dict[str, dict[str, RegionValue]] = {}
        for (src, name), cell in self.cells.items():
            if cell.settled is not None and name not in hidden:
                by_region.setdefault(name, {})[src] = self._value(cell)
        # compared pairwise: a colour count equals the signatures it counts
        return {r: vals for r, vals in by_region.items()
                if any(a != b for a in vals.values() for b in vals.values())}

    def tag_zones(self) -> set[str]:
        """Zones a tag reader reports on (an arrival there may go unread)."""
        return {name for (src, name) in self.cells if src.startswith("hub:")}

    def ids(self, name: str) -> frozenset[str]:
        """Settled piece ids any source reported in zone ``name``."""
        out: frozenset[str] = frozenset()
        for (_src, n), cell in self.cells.items():
            if n == name:
                out |= cell.settled_ids
        return out

    def tapped(self) -> list[str]:
        """Pieces tapped on the pad since the last commit, in order (unknown UIDs left out)."""
        return [t.piece for t in self.taps if t.piece]

    def read_at(self) -> float:
        """When the latest reading that has settled changed (a hand's coming and going
        is no reading): the moves a look explains were all made by then, so a hand seen
        over the table later belongs to a move after them."""
        return max((c.since for c in self.cells.values()
                    if c.settled == c.raw and c.settled is not None), default=float("-inf"))

    def committed(self, hands_after: float | None = None,
                  keep: frozenset[str] = frozenset()) -> list[Observation]:
        """Hand over and forget the observations that led to a commit: the latest of each
        source about each place, and every tap, in time order. The hands seen after
        ``hands_after`` (`read_at` of the look that decided the commit: a later move's
        hands), and those over ``keep`` (what steps left to ask change), are kept for the
        next commit; the rest are forgotten."""
        latest, self.latest, self.taps = self.latest, {}, []
        after = float("inf") if hands_after is None else hands_after
        self.hand_seen = {r: t for r, t in self.hand_seen.items() if t > after or r in keep}
        self.unsure_seen = {r: t for r, t in self.unsure_seen.items()
                            if t > after or r in keep}
        return sorted(latest.values(), key=lambda o: o.t)


__all__ = ["ByColour", "ObservedTable", "WithUnknown", "colour_of", "hidden_by"]
