"""A table description: what lies where, in the sensing vocabulary.

The same shape as the engine's table picture (``picture(state)``: place → contents), so
that any engine state renders through ``from_dict(picture(state))``:

* cube regions (``space:<space>``, ``supply:<colour>``) → colour → count;
* tracks (``time:<colour>``, ``prestige``) → marker colour → cell;
* piece zones (``council:2``, ``farm:red``…) → member ids (``red-1a``, ``monk-3``);
* item regions (``goods:<colour>``) → grain, coin or a good → count;
* the first-player tokens (``tokens``): ``first`` (the First Player marker) → the colour
  of the farm it lies by; ``next`` (the Next First Player marker) → ``home`` (its cell of
  the council chamber) or the colour of the farm it lies by.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

CUBE_KINDS = ("space", "supply", "stock", "green_bag")
TRACK_KINDS = ("time", "prestige")
ITEM_KINDS = ("goods",)
CUBE_COLOURS = ("brown", "pink", "orange", "green", "plague")
ITEM_NAMES = ("grain", "coin", "scroll", "horse", "ox", "plough", "wagon")


class TableError(ValueError):
    """A description that does not fit the vocabulary (unknown colour, negative count…)."""


@dataclass
class TableView:
    """Cubes per region, a cell per marker per track, pieces per zone, items per farm."""

    cubes: dict[str, dict[str, int]] = field(default_factory=dict)
    tracks: dict[str, dict[str, int]] = field(default_factory=dict)
    zones: dict[str, list[str]] = field(default_factory=dict)
    items: dict[str, dict[str, int]] = field(default_factory=dict)
    tokens: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"cubes": {r: {c: n for c, n in v.items() if n} for r, v in self.cubes.items()},
                "tracks": {t: dict(v) for t, v in self.tracks.items()},
                "zones": {z: sorted(v) for z, v in self.zones.items()},
                "items": {r: {k: n for k, n in v.items() if n} for r, v in self.items.items()},
                "tokens": dict(self.tokens)}


def _kind(name: str) -> str:
    return name.partition(":")[0]


def _counts(name: str, value: Any, names: tuple[str, ...] = CUBE_COLOURS) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise TableError(f"{name}: cubes are colour → count, items name → count")
    out: dict[str, int] = {}
    for c, n in value.items():
        if str(c) not in names or not isinstance(n, int) or n < 0:
            raise TableError(f"{name}: bad cube entry {c!r}: {n!r}")
        if n:
            out[str(c)] = n
    return out


def _cells(name: str, value: Any) -> dict[str, int]:
    if not isinstance(value, Mapping) or not all(isinstance(v, int) for v in value.values()):
        raise TableError(f"{name}: a track is marker colour → cell")
    return {str(k): int(v) for k, v in value.items()}


def from_dict(data: Mapping[str, Any]) -> TableView:
    """Accept ``{"cubes": …, "tracks": …, "zones": …, "items": …}`` or one flat place →
    contents map.

    In the flat form the kind of each place name says what its contents are. Raises
    TableError on contents that do not fit.
    """
    view = TableView()
    if set(data) <= {"cubes", "tracks", "zones", "items"}:
        flat: dict[str, Any] = {}
        for part in ("cubes", "tracks", "zones", "items"):
            flat.update(data.get(part) or {})
    else:
        flat = dict(data)
    for name, value in flat.items():
        kind = _kind(str(name))
        if kind in CUBE_KINDS:
            view.cubes[name] = _counts(name, value)
        elif kind in ITEM_KINDS:
            view.items[name] = _counts(name, value, ITEM_NAMES)
        elif kind in TRACK_KINDS:
            view.tracks[name] = _cells(name, value)
        else:
            if isinstance(value, str) or not isinstance(value, Iterable):
                raise TableError(f"{name}: a piece zone holds a list of pieces")
            view.zones[name] = sorted(str(p) for p in value)
    return view
