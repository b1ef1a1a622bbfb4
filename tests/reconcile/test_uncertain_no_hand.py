"""A camera region read wrong with no hand over it applies nothing, whatever the path
(fifteenth session: purposeful seed 2 through the real pipeline, with the regions read
uncertain reported apart from the hands, applied « Red uses the well for the council »:
Red's supply of five green cubes was read one short during the stillness before Red's
take, no hand anywhere, and every explanation began with that well, so it was applied as
their shared lead, which was not held to the rule for a change no hand was seen over).
A region read *uncertain* is hidden, but no hand was seen there: it vouches for nothing."""

from __future__ import annotations

from functools import cache

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame
from under_hand import watched

from companion import village as v
from companion.reconcile.observations import CubeCounts, Occluded, from_json, to_json
from companion.reconcile.reconciler import Prompt, Proposal
from companion.sim.camera_game import purposeful_game

SHORT = {"orange": 2, "green": 4}  # Red's supply (2 orange, 5 green) read one green short


@cache
def before_reds_take() -> v.GameState:
    """Purposeful seed 2, before action 252 (Red takes a green cube from the market):
    Red to move, with 2 orange and 5 green cubes, a well open to every space."""
    header, truth = purposeful_game(2)
    st = v.start(header)
    for a in truth[:252]:
        st = v.apply(st, a)
    assert truth[252] == {"type": "take", "player": "red", "space": "market", "cube": "green"}
    return st


def supply_read_short(rec: object, t: float) -> None:
    for o in product_frame(before_reds_take(), t):
        if getattr(o, "region", "") == "supply:red":
            o = CubeCounts("camera:0", t, region="supply:red", counts=SHORT)
        rec.observe(o)  # type: ignore[attr-defined]


def _check(said: list[object], link: object) -> None:
    assert not [o for o in said if isinstance(o, Proposal)], said
    assert link.seq() == 0  # type: ignore[attr-defined]
    asked = [o for o in said if isinstance(o, Prompt)]
    assert asked and all(c[0]["type"] == "well" for c in asked[-1].candidates), said


def test_a_supply_read_short_with_no_hand_applies_no_well() -> None:
    link, rec = watched(before_reds_take())
    for o in _hand(1.2, {"space:church"}):  # the camera reports hands: the last move's
        rec.observe(o)
    supply_read_short(rec, 2.6)
    _check(run(rec, 1.1, 12.0), link)


def test_a_region_read_uncertain_is_no_hand_over_it() -> None:
    """The same supply read uncertain for 0.6 s first (the reader held its heap back):
    hidden then, but no hand was seen over it, so its reading one short vouches for
    nothing (a hand's set and this one were one set before the fifteenth session)."""
    link, rec = watched(before_reds_take())
    for o in _hand(1.2, {"space:church"}):
        rec.observe(o)
    rec.observe(Occluded("camera:0/uncertain", 2.0, frozenset({"supply:red"}), uncertain=True))
    rec.observe(Occluded("camera:0/uncertain", 2.6, uncertain=True))
    supply_read_short(rec, 2.6)
    assert "supply:red" not in rec.table.handled and "supply:red" in rec.table.came_near
    _check(run(rec, 1.1, 12.0), link)


def test_an_uncertain_occlusion_goes_over_the_wire() -> None:
    o = Occluded("camera:0/uncertain", 1.0, frozenset({"supply:red"}), uncertain=True)
    assert from_json(to_json(o)) == o
    assert from_json({"kind": "occluded", "source": "camera:0", "t": 1.0}).uncertain is False
    import pytest

    from companion.reconcile.observations import ObservationError
    with pytest.raises(ObservationError):
        from_json({"kind": "occluded", "source": "camera:0", "t": 1.0, "uncertain": "yes"})
