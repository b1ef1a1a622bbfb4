"""A move made under a hand, as the thirteenth session's scenarios play it: a reconciler
watching a game at rest, then a hand over what the move changes and the table read after
it (the frames of the product's camera, `test_misread_back.product_frame`)."""

from __future__ import annotations

from collections.abc import Iterable

from reconcile_kit import run
from test_hand_vouches import _changed, _hand
from test_misread_back import product_frame

from companion import village as v
from companion.reconcile.observations import Observation
from companion.reconcile.reconciler import Reconciler
from companion.sim.memory_link import MemoryLink


def watched(st: v.GameState) -> tuple[MemoryLink, Reconciler]:
    """A reconciler on a link at ``st``, the table read as ``st`` at 0 s: nothing said by
    1 s (asserted)."""
    link = MemoryLink(st)
    rec = Reconciler(link)
    for o in product_frame(st, 0.0):
        rec.observe(o)
    assert run(rec, 0.0, 1.0) == []
    return link, rec


def moved_under_hand(rec: Reconciler, before: v.GameState, after: v.GameState,
                     frame: Iterable[Observation] | None = None,
                     hands: set[str] | None = None) -> None:
    """A hand at 2 s over ``hands`` (default: the regions ``before`` → ``after``
    changes), then the table read at 2.7 s: ``frame`` when given (a reading made wrong on
    purpose), else ``after``."""
    for o in _hand(2.0, _changed(before, after) if hands is None else hands):
        rec.observe(o)
    for o in product_frame(after, 2.7) if frame is None else frame:
        rec.observe(o)
