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


def test_a_fill_read_with_a_cube_missed_is_asked_with_the_truth_not_a_discrepancy() -> None:
    pairs = game_states(1)
    st, fill_json = pairs[46]
    fill = v.parse_action(fill_json)
    assert isinstance(fill, FillBag)
    link = TruthLink(st, [fill_json])
    rec = Reconciler(link)
    feed(rec, product_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    seen = product_camera(v.apply(st, fill_json), 3.0)
    space, cubes = next((s, c) for s, c in fill.spaces if c)
    counts = dict(cubes)
    counts[cubes[0][0]] -= 1  # one cube of that space not seen
    seen = [CubeCounts(o.source, o.t, region=o.region, counts=counts)
            if isinstance(o, CubeCounts) and o.region == f"space:{space.value}" else o
            for o in seen]
    feed(rec, seen)
    out = run(rec, 3.0, 15.0)
    assert link.submitted == []
    assert not [o for o in out if isinstance(o, Discrepancy)]
    p = [o for o in out if isinstance(o, Prompt)][-1]
    k = next(i for i, c in enumerate(p.candidates) if c[:1] == [fill_json])
    assert "more" in p.choices[k], p.choices
    rec.answer(p.id, k)
    assert link.wrong == [] and [a for a, _s, _o in link.submitted][:1] == [fill_json]


def fill_then_take(seed: int = 1) -> tuple[v.GameState, list[dict[str, object]]]:
    """A round's fill followed by a cube taken (not from the plague), from a seeded game."""
    pairs = game_states(seed)
    for i, (st, a) in enumerate(pairs[:-1]):
        nxt = pairs[i + 1][1]
        if a["type"] == "fill_bag" and nxt["type"] == "take" and nxt["cube"] != "plague":
            return st, [a, nxt]
    raise AssertionError("no fill followed by a take")


def test_a_fill_first_seen_after_the_next_cube_is_taken_is_explained() -> None:
    """The first player took a cube before the camera's look at the filled spaces settled
    (the bench's `early` and `batch`), so the spaces read one cube short of the setup
    card: no legal fill, and the fill and the take were left to the tablet. A fill with
    that cube back on one space explains the table with the take (the tenth session's
    `taken_since`, backed out then as a wash; eleventh session)."""
    from test_figures_by_colour import by_camera

    from companion.reconcile.chance import ChanceReader
    from companion.reconcile.search import PathCache, explain

    st, truth = fill_then_take()
    after = v.apply(v.apply(st, truth[0]), truth[1])
    observed = by_camera(st, after)
    result = explain(PathCache(), st, observed, chance_from=ChanceReader(observed))
    got = [[a.to_json() for a in m] for m in result.matches]
    assert truth in got, got[:5]


def test_such_a_fill_is_asked_with_its_take_never_applied() -> None:
    """Built as ``companion/runtime.py`` builds it: the fill (a colour misread as possible
    as the truth) is asked with the take that explains the short space, the truth among
    the candidates, each said as where the cube was taken from; one answer applies both."""
    st, truth = fill_then_take()
    link = TruthLink(st, truth)  # type: ignore[arg-type]
    rec = Reconciler(link)
    feed(rec, product_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    feed(rec, product_camera(v.apply(v.apply(st, truth[0]), truth[1]), 3.0))  # type: ignore[arg-type]
    out = run(rec, 3.0, 12.0)
    assert link.submitted == [] and link.wrong == []
    prompt = [o for o in out if isinstance(o, Prompt)][-1]
    assert "one short" in prompt.question, prompt.question
    if len(prompt.candidates) > 1:
        assert all("more" in c for c in prompt.choices), prompt.choices
    k = prompt.candidates.index(truth)
    out = rec.answer(prompt.id, k)
    out += run(rec, 12.0, 20.0)
    assert [a["type"] for a, _s, _o in link.submitted] == ["fill_bag", "take"]
    assert link.wrong == []
