"""The round's green-bag fill read by the camera (issue 15, item 3): a reading the bag
cannot hold is asked (the legal fills one misread colour away), never applied, never a
discrepancy."""

from __future__ import annotations

from reconcile_kit import game_states, run
from test_adversarial import TruthLink, feed, product_camera

from companion import village as v
from companion.reconcile.chance import one_colour_off
from companion.reconcile.observations import CubeCounts
from companion.reconcile.reconciler import Discrepancy, Prompt, Reconciler
from companion.village.actions import FillBag


def an_impossible_reading(st: v.GameState, fill: FillBag) -> FillBag:
    """The true fill with one cube read as another colour, such that the bag could not
    have held it."""
    for wrong in one_colour_off(fill):
        if not v.is_legal(st, wrong):
            return wrong
    raise AssertionError("every one-colour misread is a legal fill")


def test_a_fill_the_bag_cannot_hold_is_asked_with_the_fills_one_misread_away() -> None:
    pairs = game_states(1)
    st, fill_json = pairs[46]
    assert fill_json["type"] == "fill_bag"
    fill = v.parse_action(fill_json)
    assert isinstance(fill, FillBag)
    wrong = an_impossible_reading(st, fill)
    link = TruthLink(st, [fill_json])
    rec = Reconciler(link)
    feed(rec, product_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    seen = product_camera(v.apply(st, fill_json), 3.0)
    layout = {f"space:{s.value}": dict(c) for s, c in wrong.spaces}
    seen = [CubeCounts(o.source, o.t, region=o.region, counts=layout.get(o.region, {}))
            if isinstance(o, CubeCounts) and o.region.startswith("space:") else o
            for o in seen]
    feed(rec, seen)
    out = run(rec, 3.0, 15.0)
    assert link.submitted == []
    assert not [o for o in out if isinstance(o, Discrepancy)]
    prompts = [o for o in out if isinstance(o, Prompt)]
    assert prompts, out
    p = prompts[-1]
    assert [fill_json] in [c[:1] for c in p.candidates]
    assert "green bag" in p.question
    # each choice says the space and the colour read otherwise, in a few words
    assert all(len(c.split()) <= 10 for c in p.choices), p.choices
    k = next(i for i, c in enumerate(p.candidates) if c[:1] == [fill_json])
    rec.answer(p.id, k)
    assert link.wrong == [] and [a for a, _s, _o in link.submitted][:1] == [fill_json]
