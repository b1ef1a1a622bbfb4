"""The changes a camera game's moves made that the camera never reported (``StaleRegions``).

A move changes what some regions show (a space's cubes, a supply, a marker's cell, the
figures of a zone by colour, a farm's goods). The camera adapter commits a region only when
its settled reading differs from what it committed last; a region whose change it never
committed keeps its old value in the reconciler's eyes, and is no « committed misread »
(nothing was committed). Such a change is *stale*: the region changed again, or the game
ended, before the camera said anything new about it. Why it was not (a reading reused
because the frame looked unchanged, or read again and found as before) is the reader's
business; this only counts them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    ItemCounts,
    MarkerCell,
    Observation,
)
from vision.bench import figure_counts
from vision.table import TableView

__all__ = ["StaleRegions", "seen_values"]


def seen_values(view: TableView) -> dict[str, Any]:
    """What the camera can tell of a drawn table, per key: cubes and goods per region (no
    zero counts), figures by colour per zone, each marker's cell as ``track@marker``."""
    out: dict[str, Any] = {}
    for r, counts in view.cubes.items():
        out[r] = {c: n for c, n in counts.items() if n}
    for r, counts in view.items.items():
        out[r] = {k: n for k, n in counts.items() if n}
    for z, pieces in view.zones.items():
        out[z] = figure_counts(pieces)
    for track, cells in view.tracks.items():
        for marker, cell in cells.items():
            out[f"{track}@{marker}"] = cell
    return out


def _key(obs: Observation) -> tuple[str, Any] | None:
    """The key and value a committed observation speaks of (None: not a reading)."""
    if isinstance(obs, CubeCounts | ItemCounts):
        return obs.region, {k: n for k, n in obs.counts.items() if n}
    if isinstance(obs, FigureCounts):
        return obs.zone, {k: n for k, n in obs.counts.items() if n}
    if isinstance(obs, MarkerCell):
        return f"{obs.track}@{obs.marker}", obs.cell
    return None


@dataclass
class StaleRegions:
    """Follows a game's moves (``moved``) and the camera's commits (``committed``).

    ``stale``: one entry per change never reported, as ``(action, key, drawn value, what
    the camera had said last or None)``. A marker's cell counts as reported when a commit
    of its track gives it another cell than before (the adapter commits a whole track when
    any of its markers moves, the others' cells unchanged); a prestige marker's committed
    cell is a score with its laps, so only a change is looked at, never its value."""

    pending: dict[str, tuple[int, Any]] = field(default_factory=dict)
    said: dict[str, Any] = field(default_factory=dict)
    stale: list[tuple[int, str, Any, Any]] = field(default_factory=list)
    changes: int = 0  # changes the moves made (that the camera can tell)

    def moved(self, action: int, before: TableView, after: TableView) -> None:
        """Action ``action`` changed the table from ``before`` to ``after``: a change still
        pending on a key it changes again was never reported."""
        old, new = seen_values(before), seen_values(after)
        for key in sorted(old.keys() | new.keys()):
            if old.get(key) == new.get(key):
                continue
            self.changes += 1
            if key in self.pending:
                n, value = self.pending.pop(key)
                self.stale.append((n, key, value, self.said.get(key)))
            if "@" not in key and self.said.get(key, {}) == (new.get(key) or {}):
                continue  # the camera already says what the move made (it had misread)
            self.pending[key] = (action, new.get(key))

    def committed(self, obs: Observation) -> None:
        """A commit of the camera: its region's pending change (if any) was reported."""
        kv = _key(obs)
        if kv is None:
            return
        key, value = kv
        if "@" in key and key in self.said and self.said[key] == value:
            self.said[key] = value
            return  # the track committed for another marker: this one read as before
        self.said[key] = value
        self.pending.pop(key, None)

    def finish(self) -> list[tuple[int, str, Any, Any]]:
        """The game is over: what is still pending was never reported. Returns ``stale``
        in the order of the actions."""
        for key, (n, value) in self.pending.items():
            self.stale.append((n, key, value, self.said.get(key)))
        self.pending.clear()
        self.stale.sort(key=lambda s: (s[0], s[1]))
        return self.stale

    def to_json(self) -> dict[str, Any]:
        """``stale_regions`` (the count), ``stale_changes`` (the changes the moves made)
        and ``stale`` (one line each: ``#action key=drawn (camera: last said)``)."""
        return {"stale_regions": len(self.stale), "stale_changes": self.changes,
                "stale": [f"#{n} {k}={v} (camera: {s})" for n, k, v, s in self.stale]}
