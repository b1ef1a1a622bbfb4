"""The seen steps every explanation begins with: applied before the rest is asked.

When the search finds several explanations of the table and every one of them begins with
the same steps (a cube taken from a space, then one of two figures of a colour trained
there), those first steps are what happened whichever the rest is: they are applied from
the sensors, and the prompt that follows asks only about the rest (one answer, as before;
the bench counted the shared take as answered on the tablet). The first steps are held to
what a single explanation is held to (`Reconciler._reconcile`): no step no sensor sees,
no arrival a reader never read, no hand over what they change, no second step that may
still come, no doubted region changed, no space changed where no hand came, no change
seen only where no hand was seen at all (`_no_hand_seen`), and no rival
one misread away (another member, another gain, a camera region read one off, a figure
drawn by the mass instead of bought out) that begins otherwise. A lead that ends with a
well use is never applied: the space the well took is told only by the steps after it,
still to ask (fifteenth session). A part of `Reconciler`,
which holds the state these methods use. The lead's commit keeps the hands seen over
what the steps left to ask change (`_rest_regions`): they belong to those steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion import village as v
from companion.village.actions import Action
from companion.village.picture import RegionValue

from .search import Path, PathCache
from .weighing import TRACELESS, _fingerprint

# more explanations than this: asked as they are (seven: a well use, which can take any
# of the seven action spaces, after the lead; thirteenth session)
MAX_LEAD_MATCHES = 7


def shared_lead(matches: list[Path]) -> Path:
    """The steps every path of ``matches`` begins with, when each path goes on beyond
    them; else ``()`` (a path that stops there is "a move more or less")."""
    if len(matches) < 2:
        return ()
    lead: list[Action] = []
    for steps in zip(*matches, strict=False):
        if any(a != steps[0] for a in steps):
            break
        lead.append(steps[0])
    if len(lead) >= min(len(m) for m in matches):
        return ()
    return tuple(lead)


class SharedLead:
    """`Reconciler`'s check of a shared lead (its state, declared for the type checker)."""

    if TYPE_CHECKING:
        _rejected: set[tuple[int, str]]
        _cache: PathCache

        def _unseen(self, path: Path, observed: dict[str, RegionValue]) -> bool: ...
        def _unread(self, path: Path, observed: dict[str, RegionValue]) -> bool: ...
        def _under_hand(self, path: Path) -> bool: ...
        def _second_step(self, path: Path) -> tuple[float, str]: ...
        def _other_members(self, path: Path,
                           observed: dict[str, RegionValue]) -> list[Path]: ...
        def _one_misread_away(self, path: Path,
                              observed: dict[str, RegionValue]) -> list[Path]: ...
        def _changes_doubted(self, path: Path) -> bool: ...
        def _hand_elsewhere(self, path: Path, observed: dict[str, RegionValue]) -> bool: ...
        def _no_hand_seen(self, path: Path, observed: dict[str, RegionValue]) -> bool: ...
        def _misread_rivals(self, path: Path,
                            observed: dict[str, RegionValue]) -> list[Path]: ...
        def _drawn_instead(self, path: Path,
                           observed: dict[str, RegionValue]) -> list[Path]: ...

    def _sure_lead(self, st: v.GameState, matches: list[Path],
                   observed: dict[str, RegionValue]) -> Path:
        """The steps every explanation begins with (`shared_lead`) when they may be
        applied on the sensors' word (see the module docstring); else ``()``."""
        lead = shared_lead(matches)
        if not lead or len(matches) > MAX_LEAD_MATCHES:
            return ()
        # a lead ending with a well use: the space it took is told only by the steps after
        # it, still to ask (fifteenth session, CI: camera, heavy, a farm read one figure
        # more made « Yellow uses the well for Family » every explanation's lead; Yellow
        # had taken Travel and done nothing more)
        if lead[-1].type in TRACELESS:
            return ()
        if (self._unseen(lead, observed) or self._unread(lead, observed)
                or self._under_hand(lead) or self._second_step(lead)[0] > 0
                or (_fingerprint(st), repr([a.to_json() for a in lead])) in self._rejected):
            return ()
        rivals: list[Path] = []
        for m in matches:
            # a doubted region changed, a space changed where no hand came, or every change
            # on camera regions no hand was seen over (misreads.py; fifteenth session: a
            # supply read one cube short with no hand, « uses the well » applied as the lead
            # of a well's seven continuations)
            if (self._changes_doubted(m) or self._hand_elsewhere(m, observed)
                    or self._no_hand_seen(m, observed)):
                return ()
            rivals += (self._other_members(m, observed) + self._one_misread_away(m, observed)
                       + self._misread_rivals(m, observed) + self._drawn_instead(m, observed))
        if any(r[:len(lead)] != lead for r in rivals):
            return ()
        return lead

    def _rest_regions(self, lead: Path, matches: list[Path]) -> frozenset[str]:
        """The regions the steps after ``lead`` change in some explanation: the hands seen
        over them belong to those steps, still to ask, and outlive the lead's commit
        (fourteenth session)."""
        nodes = self._cache.nodes
        if lead not in nodes:
            return frozenset()
        at = nodes[lead]
        was = {**at.pieces(), **at.others()}
        out: set[str] = set()
        for m in matches:
            node = nodes.get(m)
            if node is None:
                continue
            now = {**node.pieces(), **node.others()}
            out |= {k for k, val in now.items() if was.get(k) != val}
        return frozenset(out)

    def _rest_doubted(self, matches: list[Path], observed: dict[str, RegionValue]) -> bool:
        """True when an explanation would be asked even without its unseen steps: it
        changes a doubted region or a space no hand came near, or has a rival one misread
        away. Then the whole path is asked in one prompt, not its unseen steps first and
        the rest after (`doubts.PathDoubts._unseen_part`: a second touch)."""
        return any(
            self._changes_doubted(m) or self._hand_elsewhere(m, observed)
            or self._other_members(m, observed) or self._one_misread_away(m, observed)
            or self._misread_rivals(m, observed) or self._drawn_instead(m, observed)
            for m in matches)


__all__ = ["MAX_LEAD_MATCHES", "SharedLead", "shared_lead"]
