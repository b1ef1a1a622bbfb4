"""A take seen under a hand while the taker's supply stays read uncertain is applied once
the table has been still, not held until the supply is read (sixteenth session).

Purposeful seed 1 through the real pipeline (`python -m companion.sim.camera_game --real
--play purposeful --seed 1`), action 24: Yellow takes a pink cube from the harvest space
under a hand; the reader holds Yellow's heaped supply back as *uncertain* (no hand there)
and does not read it again before the next moves. The single explanation changes that
supply, and a path changing a hidden region waited 0.5 s at a time for it to be seen: for
16 s, until the move was entered on the tablet once the search could no longer reach it.
A region read uncertain is no hand: nobody is still moving there. What a hand hides still
holds a path back (a move may be half made under it)."""

from __future__ import annotations

from functools import cache

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame
from under_hand import watched

from companion import village as v
from companion.reconcile.observations import Occluded
from companion.reconcile.reconciler import Proposal, Reconciler
from companion.sim.camera_game import purposeful_game

TAKE = {"type": "take", "player": "yellow", "space": "harvest", "cube": "pink"}


@cache
def before_and_after() -> tuple[v.GameState, v.GameState]:
    """Purposeful seed 1 before and after action 24 (Yellow's take of a pink cube)."""
    header, truth = purposeful_game(1)
    st = v.start(header)
    for a in truth[:24]:
        st = v.apply(st, a)
    assert truth[24] == TAKE
    return st, v.apply(st, TAKE)


def _moved(rec: Reconciler, hidden: str, by_hand: bool) -> None:
    """The take made under a hand over the space; Yellow's supply hidden from 1.9 s on
    (read uncertain, or under a hand resting on it) and never read again."""
    after = before_and_after()[1]
    if by_hand:
        rec.observe(Occluded("camera:0/rest", 1.9, frozenset({hidden})))
    else:
        rec.observe(Occluded("camera:0/uncertain", 1.9, frozenset({hidden}),
                             uncertain=True))
    for o in _hand(2.0, {"space:harvest"}):
        rec.observe(o)
    for o in product_frame(after, 2.7):
        if getattr(o, "region", "") != hidden:
            rec.observe(o)


def test_a_take_is_applied_while_the_supply_stays_read_uncertain() -> None:
    link, rec = watched(before_and_after()[0])
    _moved(rec, "supply:yellow", by_hand=False)
    said = run(rec, 1.1, 12.0)
    applied = [o for o in said if isinstance(o, Proposal)]
    assert [a for p in applied for a in p.actions] == [TAKE], said
    assert link.seq() == 1


def test_a_take_waits_while_a_hand_rests_on_the_supply() -> None:
    link, rec = watched(before_and_after()[0])
    _moved(rec, "supply:yellow", by_hand=True)
    said = run(rec, 1.1, 12.0)
    assert not [o for o in said if isinstance(o, Proposal)], said
    assert link.seq() == 0
