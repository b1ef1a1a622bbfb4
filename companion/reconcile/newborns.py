"""A newborn's tag: a figure no reader had reported before is a newborn (fourteenth session).

A figure stands on the board only after it was born on its farm, where the farm's reader
reads its tag; a figure brought home from the board (a recall) is a tag a reader reported
before. So a tag on a farm that no reader had reported before the last commit (*fresh*)
is a newborn: a path that brings home more figures from the board than the farm's fresh
tags leave room for needs a read that was lost, and is no rival of a path that gives birth
to them (the camera misreading the place the figure would have left is the other fault it
needs: two faults, where a rival is one misread away, `misreads.py`).

What it does not trust:

- a figure of the same generation that stood where no reader reports (a workshop, a
  journey, the chronicle) when the reconciler first looked (a restart mid-game): its tag
  was never reported, so a fresh tag of that generation proves nothing;
- a farm whose reading is not a tag reader's plain reading (a tag nobody enrolled, the
  camera's count by colour, a reading left out): no fresh tags counted there;
- a path that is itself short of births for the fresh tags: the rule is not applied.

A part of `Reconciler`, which holds the state these methods use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.village import zones
from companion.village.picture import RegionValue, signature, signatures

from .observed import ObservedTable
from .outcomes import TableLink
from .search import Path, PathCache, _piece_zone


class Newborns:
    """The newborn rule of `Reconciler` (its state, declared for the type checker)."""

    if TYPE_CHECKING:
        _cache: PathCache
        table: ObservedTable
        link: TableLink
        covered: frozenset[str]

    def _init_newborns(self) -> None:
        self._reported_seq: int | None = None  # the seq `_reported` was taken at
        self._reported: frozenset[str] = frozenset()  # tags reported before that commit
        self._unwatched: frozenset[str] | None = None  # signatures never watched (above)

    def _note_commit(self) -> None:
        """At a new seq (a commit, here or on the tablet): the tags reported so far are no
        longer fresh. At the first call, the generations standing out of the readers'
        sight."""
        seq = self.link.seq()
        if seq == self._reported_seq:
            return
        self._reported_seq = seq
        self._reported = frozenset(self.table.ever_read)
        if self._unwatched is None:
            st = self.link.state()
            self._unwatched = frozenset(
                signature(m) for m, loc in st.members.items()
                if loc[0] != "unborn" and _piece_zone(m, loc) not in self.covered)

    def _fresh(self, observed: dict[str, RegionValue]) -> dict[str, int]:
        """Farm zone → how many tags its reader reads there that no reader reported
        before the last commit (only farms read by a tag reader, as they are compared)."""
        out: dict[str, int] = {}
        unwatched = self._unwatched or frozenset()
        st = self._cache.root
        if st is None:
            return out
        for c in st.players:
            farm = zones.farm(c)
            ids = self.table.ids(farm)
            if not ids or observed.get(farm) != signatures(ids):
                continue
            n = sum(1 for i in ids if i not in self._reported
                    and signature(i) not in unwatched)
            if n:
                out[farm] = n
        return out

    def _births(self, path: Path) -> dict[str, int]:
        """Farm zone → how many figures ``path`` gives birth to that stay there."""
        node = self._cache.nodes.get(path)
        root = self._cache.root
        out: dict[str, int] = {}
        if node is None or root is None:
            return out
        for m, loc in node.state.members.items():
            if loc[0] == "farm" and root.members[m][0] == "unborn":
                farm = _piece_zone(m, loc)
                out[farm] = out.get(farm, 0) + 1
        return out

    def _newborn_rivals(self, path: Path, rivals: list[Path],
                        observed: dict[str, RegionValue]) -> list[Path]:
        """``rivals`` without those short of births for the farms' fresh tags, when
        ``path`` has enough (see the module docstring)."""
        if not rivals:
            return rivals
        fresh = self._fresh(observed)
        if not fresh or not _enough(self._births(path), fresh):
            return rivals
        return [r for r in rivals if _enough(self._births(r), fresh)]


def _enough(births: dict[str, int], fresh: dict[str, int]) -> bool:
    return all(births.get(farm, 0) >= n for farm, n in fresh.items())


__all__ = ["Newborns"]
