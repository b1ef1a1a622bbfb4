"""A supply the camera did not read again for several moves, then read right with the
move that changes it, is no doubt of that move (eighteenth session).

Purposeful seed 2 through the real pipeline (`python -m companion.sim.camera_game --real
--play purposeful --seed 2`), actions 30-34: Red enters the council paying 2 green cubes;
the reader holds Red's heaped supply back (uncertain) and reads it no more. Yellow moves
three times. Then Red takes a pink cube from the market under a hand,
and the camera reads Red's supply anew: 2 brown and 3 pink, right. That reading was the
first to differ since the council's payment, and one misread from it (a pink more), so it
was doubted as the camera's reading of the payment (`misreads._doubt_rereads`), and the
take that makes it true was asked (« Is this what happened? Red takes a pink cube from
Market »). The doubt guards against an old misread that a wrong path makes true (a reading
made before the move); this reading was made during the move, after the last commit: the
take is compared with it as with any fresh reading."""

from __future__ import annotations

from functools import cache
from typing import Any

from reconcile_kit import run
from test_hand_vouches import _changed, _hand
from test_misread_back import product_frame
from under_hand import watched

from companion import village as v
from companion.reconcile.observations import Occluded
from companion.reconcile.reconciler import Prompt, Proposal
from companion.sim.camera_game import purposeful_game

TAKE = {"type": "take", "player": "red", "space": "market", "cube": "pink"}


@cache
def _states() -> list[v.GameState]:
    """Purposeful seed 2's states before action 30 to after action 34."""
    header, truth = purposeful_game(2)
    st = v.start(header)
    for a in truth[:30]:
        st = v.apply(st, a)
    assert truth[30]["type"] == "council_enter" and truth[34] == TAKE
    out = [st]
    for a in truth[30:35]:
        st = v.apply(st, a)
        out.append(st)
    return out


def _four_moves_with_reds_supply_uncertain() -> tuple[list[v.GameState], Any, Any, float]:
    """Seed 2's actions 30-33 (the council's payment and Yellow's three moves) played
    under hands, Red's supply read uncertain throughout: each applied. Returns the
    states, the link, the reconciler and the time after them."""
    states = _states()
    link, rec = watched(states[0])
    t = 2.0
    rec.observe(Occluded("camera:0/uncertain", t, frozenset({"supply:red"}), uncertain=True))
    for i in range(4):
        before, after = states[i], states[i + 1]
        for o in _hand(t, _changed(before, after) - {"supply:red"}):
            rec.observe(o)
        for o in product_frame(after, t + 0.7):
            if getattr(o, "region", "") != "supply:red":
                rec.observe(o)
        run(rec, t - 0.9, t + 8.0)
        assert link.seq() == i + 1, f"move {30 + i} not applied"
        t += 9.0
    return states, link, rec, t


def test_a_take_read_right_on_a_supply_not_read_since_an_earlier_payment_is_applied() -> None:
    states, _link, rec, t = _four_moves_with_reds_supply_uncertain()
    # Red's take under a hand over the market; the supply read anew, right
    for o in _hand(t, {"space:market"}):
        rec.observe(o)
    rec.observe(Occluded("camera:0/uncertain", t + 0.7, frozenset(), uncertain=True))
    for o in product_frame(states[5], t + 0.7):
        rec.observe(o)
    said = run(rec, t - 0.9, t + 8.0)
    assert not [o for o in said if isinstance(o, Prompt)], said
    assert [a for o in said if isinstance(o, Proposal) for a in o.actions] == [TAKE], said


def test_the_same_reading_made_before_the_move_s_hand_is_still_a_doubt() -> None:
    """The supply read with a pink more before anyone moved (an old misread, one off the
    payment), then the take under a hand that makes it true: asked, never applied (the
    rule above covers only a reading made during the move)."""
    states, link, rec, t = _four_moves_with_reds_supply_uncertain()
    # the supply read at rest, before Red's hand: the take's value already
    rec.observe(Occluded("camera:0/uncertain", t, frozenset(), uncertain=True))
    for o in product_frame(states[5], t):
        if getattr(o, "region", "") == "supply:red":
            rec.observe(o)
    run(rec, t - 0.9, t + 5.0)
    assert link.seq() == 4
    t += 6.0
    for o in _hand(t, {"space:market"}):
        rec.observe(o)
    for o in product_frame(states[5], t + 0.7):
        rec.observe(o)
    said = run(rec, t - 0.9, t + 8.0)
    assert not [o for o in said if isinstance(o, Proposal)], said
    asked = [o for o in said if isinstance(o, Prompt)]
    assert asked and [TAKE] in asked[-1].candidates, said
