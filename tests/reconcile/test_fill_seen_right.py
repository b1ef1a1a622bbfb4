"""A take made while the fill's prompt is still open is applied from the camera once the
fill is answered, not asked as a misread of the fill (eighteenth session).

Purposeful seed 1 through the real pipeline (`python -m companion.sim.camera_game --real
--play purposeful --seed 1`), actions 42-43: the camera read round 2's fill right (the
church with a brown, a pink and a plague cube) and the fill was asked, by design. Before
the players answered, Red took the pink cube from the church; the answer came after a
look that had read the church without it. A region the game changes is doubted when the
reading in hand then is one misread from the game's value (`misreads._doubt_rereads`):
the church, read one pink short of the fill, was doubted, and the take that made that
reading true was asked (« Is this what happened? Red takes a pink cube from Church »).
The camera had read the fill's layout exactly before the take: a space holds cubes only
once a fill lays them out, so that reading was the fill seen right, and what it reads
after is compared as it is."""

from __future__ import annotations

from functools import cache

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame
from under_hand import watched

from companion import village as v
from companion.reconcile.reconciler import Prompt, Proposal
from companion.sim.camera_game import purposeful_game

TAKE = {"type": "take", "player": "red", "space": "church", "cube": "pink"}


@cache
def _states() -> tuple[v.GameState, v.GameState, v.GameState]:
    """Purposeful seed 1 before the fill of action 42, after it, and after Red's take."""
    header, truth = purposeful_game(1)
    st = v.start(header)
    for a in truth[:42]:
        st = v.apply(st, a)
    assert truth[42]["type"] == "fill_bag" and truth[43] == TAKE
    filled = v.apply(st, truth[42])
    return st, filled, v.apply(filled, TAKE)


def test_a_take_made_before_the_fill_is_answered_is_applied_from_the_camera() -> None:
    before, filled, taken = _states()
    link, rec = watched(before)
    for o in _hand(2.0, {"space:church", "space:market", "space:crafts"}):
        rec.observe(o)
    for o in product_frame(filled, 2.7):
        rec.observe(o)
    said = run(rec, 1.1, 7.0)
    fill = [o for o in said if isinstance(o, Prompt)]
    assert fill and fill[-1].candidates[0][0]["type"] == "fill_bag", said
    # Red takes the pink cube from the church while the fill's prompt is open
    for o in _hand(8.0, {"space:church"}):
        rec.observe(o)
    for o in product_frame(taken, 8.7):
        rec.observe(o)
    run(rec, 7.1, 10.0)
    assert link.seq() == 0
    rec.answer(fill[-1].id, 0)
    assert link.seq() == 1
    said = run(rec, 10.1, 16.0)
    asked = [o for o in said if isinstance(o, Prompt)]
    assert not asked, asked
    assert [a for o in said if isinstance(o, Proposal) for a in o.actions] == [TAKE], said
    assert link.seq() == 2
