"""Commit a reading only when it has been steady, unoccluded and still for a settle time.

``Settler.feed(reading)`` returns the commits of this frame: a region or track whose value
has been the same, with no hand over it and no motion in it, for ``settle_s`` seconds,
and differs from what was last committed for it. Any occlusion or motion restarts the
region's clock, so a value seen during or just after a hand never commits early.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .read import Reading


@dataclass(frozen=True)
class Commit:
    """A settled value: cube counts (``kind`` cubes), marker cells (``track``), figures by
    colour in a zone (``figures``) or items on a farm (``items``)."""

    name: str
    kind: str
    value: dict[str, int]
    t: float


@dataclass
class _Candidate:
    value: Any
    since: float


@dataclass
class Settler:
    settle_s: float = 0.6
    committed: dict[str, dict[str, int]] = field(default_factory=dict)
    occluded: frozenset[str] = frozenset()
    _cand: dict[str, _Candidate] = field(default_factory=dict)

    def feed(self, reading: Reading) -> list[Commit]:
        """Take one frame's reading; return what settles now."""
        out: list[Commit] = []
        blocked = reading.occluded | reading.moving
        self.occluded = frozenset(reading.occluded)
        items: list[tuple[str, str, dict[str, int]]] = (
            [(n, "cubes", v) for n, v in reading.cubes.items()]
            + [(n, "track", v) for n, v in reading.tracks.items()]
            + [(n, "figures", v) for n, v in reading.figures.items()]
            + [(n, "items", v) for n, v in reading.items.items()])
        seen = set()
        for name, kind, value in items:
            seen.add(name)
            if name in blocked:
                self._cand.pop(name, None)
                continue
            cand = self._cand.get(name)
            if cand is None or cand.value != value:
                self._cand[name] = _Candidate(dict(value), reading.t)
                continue
            if reading.t - cand.since >= self.settle_s and self.committed.get(name) != value:
                self.committed[name] = dict(value)
                out.append(Commit(name, kind, dict(value), reading.t))
        for name in list(self._cand):
            if name not in seen or name in blocked:
                self._cand.pop(name, None)
        return out

    def steady(self, name: str, t: float) -> bool:
        """True when ``name``'s value has been unblocked and unchanged for the settle time
        at ``t`` (whether or not it differs from what was committed)."""
        cand = self._cand.get(name)
        return cand is not None and t - cand.since >= self.settle_s
