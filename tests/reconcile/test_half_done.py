"""A move seen half done is said: "waiting for …" while the reconciler holds it for its
second step (issue 15, item 3), and the line goes once the move is committed or asked."""

from __future__ import annotations

from reconcile_kit import run
from test_adversarial import TruthLink, feed, ideal_camera, never_wrong, scenario

from companion import village as v
from companion.reconcile.observations import TagTapped
from companion.reconcile.reconciler import Closed, Prompt, Proposal, Reconciler, Waiting


def test_a_training_seen_without_its_good_is_shown_waiting_then_committed() -> None:
    st, truth = scenario(1, 2, 2)
    assert truth[1]["type"] == "train" and truth[1]["good"]
    link = TruthLink(st, truth)
    rec = Reconciler(link)
    feed(rec, ideal_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    took = v.apply(st, truth[0])
    feed(rec, ideal_camera(took, 3.0))
    run(rec, 3.0, 5.0)
    feed(rec, ideal_camera(v.apply(took, {**truth[1], "good": None}), 6.0))
    held = run(rec, 6.0, 7.4)
    waiting = [o for o in held if isinstance(o, Waiting)]
    assert len(waiting) == 1, held  # said once, not at every look
    w = waiting[0]
    assert "waiting for" in w.words and "good" in w.words
    assert w.to_json()["kind"] == "waiting" and rec.open() == [w.to_json()]
    feed(rec, ideal_camera(v.apply(took, truth[1]), 7.5))  # the good comes
    out = run(rec, 7.5, 12.0)
    assert any(isinstance(o, Closed) and o.id == w.id for o in out)
    assert any(isinstance(o, Proposal) for o in out) and rec.open() == []
    never_wrong(link)


def test_a_training_without_a_good_is_committed_after_the_wait_and_the_line_goes() -> None:
    st, truth = scenario(1, 2, 2)
    link = TruthLink(st, [truth[0], {**truth[1], "good": None}])
    rec = Reconciler(link)
    feed(rec, ideal_camera(st, 0.0))
    run(rec, 0.0, 2.0)
    took = v.apply(st, truth[0])
    feed(rec, ideal_camera(took, 3.0))
    run(rec, 3.0, 5.0)
    feed(rec, ideal_camera(v.apply(took, {**truth[1], "good": None}), 6.0))
    out = run(rec, 6.0, 14.0)
    kinds = [o.kind for o in out]
    assert "waiting" in kinds and "proposal" in kinds and "closed" in kinds
    assert kinds.index("waiting") < kinds.index("closed")
    assert rec.open() == []
    never_wrong(link)


def test_a_figure_tapped_again_after_nothing_happened_is_asked_again() -> None:
    """A tap answered "nothing happened", then the same figure tapped again: a new
    question (it was ignored: the look's key held the tapped figures, not the taps)."""
    st, truth = scenario(1, 2, 2)
    took = v.apply(st, truth[0])
    rec = Reconciler(TruthLink(took, truth[1:]))
    feed(rec, ideal_camera(took, 0.0))
    run(rec, 0.0, 2.0)
    member = truth[1]["member"]
    rec.observe(TagTapped("pad:0", 3.0, reader="0", uid="04AA", piece=member))
    first = [o for o in run(rec, 3.0, 8.0) if isinstance(o, Prompt)]
    assert first and first[-1].nothing_happened
    rec.decline(first[-1].id, nothing_happened=True)
    assert run(rec, 8.1, 10.0) == []
    rec.observe(TagTapped("pad:0", 10.0, reader="0", uid="04AA", piece=member))
    again = [o for o in run(rec, 10.0, 15.0) if isinstance(o, Prompt)]
    assert again and again[-1].id != first[-1].id
