"""Why a path the search found may not be applied as it stands: a reading one misread away
that explains it too, an arrival no reader saw, a step no sensor sees, a hand still over
its places, or a second step (a training's good) that may still come. A part of
`Reconciler`, which holds the state these methods use."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from companion import village as v
from companion.village import zones
from companion.village.actions import FillBag, MassDraw, Train
from companion.village.picture import CUBE_ORDER, RegionValue, regions_of
from companion.village.vocabulary import MONK, is_member

from .chance import ChanceReader, layout_of
from .misreads import one_misread
from .observed import ByColour, ObservedTable, WithUnknown
from .search import (
    Path,
    PathCache,
    SearchResult,
)
from .weighing import (
    MAX_FILL_VARIANTS,
    TRACELESS,
    UNSEEN,
    _minus,
)


def _read_by_tags(observed: dict[str, RegionValue], zone: str) -> bool:
    """True when ``zone`` is compared with a tag reader's ids (every tag enrolled), not a
    camera's colour count nor a reader holding tags nobody enrolled."""
    value = observed.get(zone)
    return isinstance(value, tuple) and not isinstance(value, (ByColour, WithUnknown))


class PathDoubts:
    """The doubts of `Reconciler` about a path (its state, declared for the type checker)."""

    if TYPE_CHECKING:
        table: ObservedTable
        covered: frozenset[str]
        second_step: dict[str, float]
        misread_wait: float
        _cache: PathCache
        _now: float

        def _explain(self, st: v.GameState, observed: dict[str, RegionValue],
                     reader: ChanceReader) -> SearchResult: ...
        def _fits_left_out(self, value_of: Callable[[str], RegionValue | None]) -> bool: ...

    def _misread_fills(self, st: v.GameState, observed: dict[str, RegionValue],
                       variants: list[FillBag]) -> SearchResult:
        """The camera read a green-bag fill the bag cannot hold: what the table shows
        were each legal fill one misread colour away the truth (to be asked)."""
        found: dict[str, Path] = {}
        cut = False
        for fill in variants[:MAX_FILL_VARIANTS]:
            seen = {**observed, **layout_of(fill)}
            result = self._explain(st, seen, ChanceReader(seen))
            cut = cut or result.cut
            for m in result.matches:
                if m:
                    found.setdefault(repr([a.to_json() for a in m]), m)
        return SearchResult(list(found.values()), 0, cut and not found)

    def _one_misread_away(self, path: Path, observed: dict[str, RegionValue]) -> list[Path]:
        """Paths that differ from ``path`` only in the cubes chosen (a privilege's or a
        journey's gain) and would show exactly what is seen but for one cube's colour: a
        camera misreads a colour now and then (docs/vision-bench.json), so those are asked
        together. The cubes' counts are compared; anything else must be equal."""
        out: list[Path] = []
        for i, action in enumerate(path):
            gain = getattr(action, "gain", None)
            if not gain:
                continue
            for other in self._cache.children.get(path[:i]) or []:
                if (other.type != action.type or other == action
                        or dataclasses.replace(other, gain=gain) != action):  # type: ignore[call-arg]
                    continue
                alt = (*path[:i], other, *path[i + 1:])
                try:
                    st = self._cache.state(path[:i])
                    for a in alt[i:]:
                        st = v.apply_unchecked(st, a)
                except (v.RulesError, KeyError, ValueError):
                    continue
                seen = regions_of(st)
                off = 0
                for k, val in observed.items():
                    mine = seen.get(k)
                    if mine == val:
                        continue
                    if (isinstance(mine, tuple) and isinstance(val, tuple)
                            and len(mine) == len(val) == len(CUBE_ORDER)
                            and all(isinstance(x, int) for x in (*mine, *val))):
                        off += sum(abs(int(a) - int(b)) for a, b in zip(mine, val, strict=True))
                    else:
                        off = 99
                        break
                if off <= 2 and self._fits_left_out(seen.get):
                    out.append(alt)
        return out

    def _other_members(self, path: Path, observed: dict[str, RegionValue]) -> list[Path]:
        """Paths that differ from ``path`` only in which member of the family a step
        names and show the same on every region observed (a camera counting figures by
        colour cannot tell a generation): checked here whatever the search returned, as
        a second guard (a church move of one of two yellow figures in a window was once
        applied alone, seed 6 heavy, camera)."""
        out: list[Path] = []
        for i, action in enumerate(path):
            member = getattr(action, "member", None)
            if not isinstance(member, str) or not is_member(member):
                continue
            try:
                before = self._cache.state(path[:i])
            except (v.RulesError, KeyError, ValueError):
                continue
            for other in v.legal_actions(before):
                if (other.type != action.type or other == action
                        or getattr(other, "member", None) in (None, member)
                        or dataclasses.replace(other, member=member) != action):  # type: ignore[call-arg]
                    continue
                theirs = getattr(other, "member", None)
                if not isinstance(theirs, str) or not is_member(theirs):
                    continue
                if (theirs[:-1], before.members.get(theirs)) == (
                        member[:-1], before.members.get(member)):
                    continue  # the same generation in the same place: interchangeable
                alt = (*path[:i], other, *path[i + 1:])
                try:
                    st = before
                    for a in alt[i:]:
                        st = v.apply_unchecked(st, a)
                except (v.RulesError, KeyError, ValueError):
                    continue
                seen = regions_of(st)
                if all(seen.get(k) == val for k, val in observed.items()
                       if k in seen) and self._fits_left_out(seen.get):
                    out.append(alt)
        return out

    def _unread(self, path: Path, observed: dict[str, RegionValue]) -> bool:
        """True when ``path`` puts a figure in (or takes one from) a zone a tag reader
        covers but whose reading is not in the comparison (never read, or uncertain): it
        relies on a read that was never made."""
        if not self.covered:
            return False
        node, base = self._cache.nodes[path], self._cache.base
        pieces = node.pieces()
        return any(k not in observed and pieces.get(k) != base.get(k) for k in self.covered)

    def _unread_arrivals(self, st: v.GameState,
                         observed: dict[str, RegionValue]) -> dict[str, RegionValue]:
        """A figure gone from a tag reader's zone and read arriving nowhere may stand on
        another reader whose read was lost: the tag readers' zones that show no change are
        then uncertain, left out of the comparison (never taken as unchanged)."""
        self._cache.reset(st)
        base = self._cache.base
        lost: list[str] = []
        came: list[str] = []
        vague: list[list[str]] = []  # figures that left, each one of a few
        for k, val in observed.items():
            if zones.split(k)[0] not in zones.PIECE_ZONE_KINDS or k not in base:
                continue
            was = base[k]
            if isinstance(was, tuple) and isinstance(val, WithUnknown):
                # a zone with tags nobody enrolled: how many left, each one of those the
                # reader does not name now
                new = _minus(val.known, was)
                came += new
                left = len(was) - len(val) + len(new)
                vague += [_minus(was, val.known)] * max(0, left)
            elif isinstance(was, tuple) and isinstance(val, tuple) and was != val:
                lost += _minus(was, val)
                came += _minus(val, was)
        for sig in came:
            if sig in lost:
                lost.remove(sig)
            else:
                for i, maybe in enumerate(vague):
                    if sig in maybe:
                        del vague[i]
                        break
        if not lost and not vague:
            return observed
        tags = self.table.tag_zones()
        return {k: val for k, val in observed.items()
                if not (k in tags and base.get(k) == val)}

    def _unseen(self, path: Path, observed: dict[str, RegionValue],
                left_out: dict[str, RegionValue] | None = None) -> bool:
        """True when a step of ``path`` is one no sensor sees: a skip, a pass, a "done",
        or a well use (a free action) that changed no region observed; or a chance outcome
        the sensors cannot vouch for: a green bag's fill read by the camera (a cube's
        colour misread is as possible as the truth) or a black-bag draw whose monks were
        inferred from the figures read (a figure whose arrival was not read looks like
        a monk), unless tag readers read both the church's first window and the bag
        (a figure drawn and not read arriving would still be read in the bag, or read
        gone from it: the search would not match). ``left_out``: the readings of the
        regions ``path`` was found without (`_one_read_wrong`), a trace of a step all the
        same where they show a change (`_left_trace`)."""
        return self._last_unseen(path, observed, left_out) is not None

    def _last_unseen(self, path: Path, observed: dict[str, RegionValue],
                     left_out: dict[str, RegionValue] | None = None) -> int | None:
        """The index of the last step of ``path`` no sensor sees (see `_unseen`), or None."""
        last = None
        for i, action in enumerate(path):
            drawn_unseen = isinstance(action, MassDraw) and MONK in action.figures and not (
                _read_by_tags(observed, zones.zone(zones.CHURCH, 1))
                and _read_by_tags(observed, zones.BAG))
            if action.type in UNSEEN or isinstance(action, FillBag) or drawn_unseen:
                last = i
            elif action.type in TRACELESS:
                node, parent = self._cache.nodes[path[:i + 1]], self._cache.nodes[path[:i]]
                now = {**node.pieces(), **node.others()}
                before = {**parent.pieces(), **parent.others()}
                if all(now.get(k) == before.get(k) for k in observed) and not (
                        left_out and self._left_trace(path, now, before, left_out)):
                    last = i
        return last

    def _left_trace(self, path: Path, now: dict[str, RegionValue],
                    before: dict[str, RegionValue], left_out: dict[str, RegionValue]) -> bool:
        """True when a region left out of the comparison shows the change a step made
        (its values ``before`` and ``now``; ``path`` changes it no further): its reading
        is neither the value before the step nor one misread from it. A well use whose
        supply was read one cube short (seed 1 hub+camera, thirteenth session) was asked
        as a step no sensor sees."""
        end = self._cache.nodes.get(path)
        if end is None:  # a rival computed beside the search: no trace claimed
            return False
        final = {**end.pieces(), **end.others()}
        return any(now.get(k) != before.get(k) and final.get(k) == now.get(k)
                   and val != before.get(k) and not one_misread(before.get(k), val)
                   for k, val in left_out.items())

    def _unseen_part(self, matches: list[Path], observed: dict[str, RegionValue],
                     left_out: dict[str, RegionValue] | None = None) -> list[Path]:
        """What to ask about explanations with a step no sensor sees: when they all begin
        with the same steps up to their last unseen one, only those steps (the steps
        after it were seen: once the answer is in, the next look applies them as any
        move, doubts and all); else ``matches`` as they are. Not a green-bag fill: the
        fill changes the spaces the camera read after the take, one cube off the fill's
        (doubted, misreads.py), so the take alone would be asked again: one touch more."""
        cuts = {self._last_unseen(m, observed, left_out) for m in matches}
        if len(cuts) != 1:
            return matches
        k = cuts.pop()
        if k is None or any(isinstance(a, FillBag) for a in matches[0][:k + 1]):
            return matches
        head = matches[0][:k + 1]
        if any(m[:k + 1] != head for m in matches) or all(len(m) == k + 1 for m in matches):
            return matches
        return [head]

    def _under_hand(self, path: Path) -> bool:
        """True when ``path`` changes a region a hand still hides (one resting longer than
        the occlusion timeout no longer holds the table up, but what it hides is unseen),
        or one read uncertain while the table has been still less than ``misread_wait``:
        no hand is there, nobody is still moving it, and a reading that stays uncertain
        (a heap the reader holds back) would hold the move until it is overtaken
        (sixteenth session, purposeful seed 1, action 24: a take under a hand, the taker's
        supply uncertain for 16 s, entered on the tablet)."""
        hidden = self.table.hidden(
            self._now, hands_only=self._now - self.table.last_change >= self.misread_wait)
        if not hidden:
            return False
        node, base = self._cache.nodes[path], self._cache.base
        now = {**node.pieces(), **node.others()}
        return any(now.get(k) != base.get(k) for k in hidden if k in base)

    def _second_step(self, path: Path) -> tuple[float, str]:
        """Seconds of stillness ``path`` needs before it is committed, and what it waits
        for: a training placed with no good, when a good could follow, may be the first
        half of train-and-produce (``second_step["train"]``); else 0."""
        for i, action in enumerate(path):
            if isinstance(action, Train) and action.good is None:
                before = self._cache.state(path[:i])
                if any(isinstance(a, Train) and a.member == action.member
                       and a.building == action.building and a.good is not None
                       for a in v.legal_actions(before)):
                    return (self.second_step.get(action.type, 0.0),
                            "the good made there, if any")
        return 0.0, ""
