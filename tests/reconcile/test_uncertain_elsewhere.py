"""A region read uncertain elsewhere does not hold the reconciler's look back as a hand
would (seventeenth session).

``ObservedTable.quiet`` waits while a hand has been over the table lately (a move may be
under way): up to ``occlusion_timeout`` (5 s) after the hidden set last changed. The real
camera reports a region read *uncertain* (a heap held back, no hand there) as its own
source; nobody is moving there. Purposeful seed 1 through the real pipeline, action 37:
Yellow's buyout was read (church and goods) at 216.2 s while Yellow's supply, which it
does not change, had been read uncertain since 216.0 s; the reconciler did not look before
221 s, and the move was entered on the tablet when the mass draw came at 217.4 s.
What the uncertain region would show still decides as before (`_under_hand` holds a path
that changes it for ``misread_wait``)."""

from __future__ import annotations

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame
from test_uncertain_supply_take import TAKE, before_and_after
from under_hand import watched

from companion.reconcile.observations import Occluded
from companion.reconcile.reconciler import Proposal, Reconciler


def _take_while_elsewhere_hidden(rec: Reconciler, by_hand: bool) -> None:
    """Yellow's take made under a hand over the space and its supply (2.0-2.6 s), read at
    2.7 s; from 2.6 s on Red's supply, which the take leaves alone, is hidden: read
    uncertain, or under a hand resting there."""
    after = before_and_after()[1]
    for o in _hand(2.0, {"space:harvest", "supply:yellow"}):
        rec.observe(o)
    if by_hand:
        rec.observe(Occluded("camera:0/rest", 2.6, frozenset({"supply:red"})))
    else:
        rec.observe(Occluded("camera:0/uncertain", 2.6, frozenset({"supply:red"}),
                             uncertain=True))
    for o in product_frame(after, 2.7):
        if getattr(o, "region", "") != "supply:red":
            rec.observe(o)


def test_a_move_is_applied_while_a_region_it_leaves_alone_is_read_uncertain() -> None:
    link, rec = watched(before_and_after()[0])
    _take_while_elsewhere_hidden(rec, by_hand=False)
    said = run(rec, 1.1, 4.5)
    applied = [o for o in said if isinstance(o, Proposal)]
    assert [a for p in applied for a in p.actions] == [TAKE], said
    assert link.seq() == 1


def test_a_hand_resting_elsewhere_still_holds_the_look() -> None:
    link, rec = watched(before_and_after()[0])
    _take_while_elsewhere_hidden(rec, by_hand=True)
    assert run(rec, 1.1, 4.5) == []
    assert link.seq() == 0
