"""A training seen without its good, when the camera cannot tell which figure trained
(thirteenth session).

A single training placed with no good while a good could follow waits for its natural
second step (`Reconciler.second_step`, 3.5 s of stillness) before it is committed. Several
explanations were asked at once: a camera counting figures by colour cannot tell which
generation trained, so « Blue trains Blue … at the Office (train only)? » was asked the
moment the figure stood there, the good placed a second later; the prompt held no
truth, the players answered « none of these » and entered the training on the tablet
(seed 1, camera, game 2, action 151). Several explanations that are half done wait for
the second step as a single one does, then are asked."""

from __future__ import annotations

from typing import Any

from reconcile_kit import run
from test_hand_vouches import _changed, _hand
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.reconciler import Prompt


def _a_training_with_a_good_two_generations_could_make(
        situations: dict[str, Any]) -> tuple[v.GameState, dict[str, Any]]:
    """A training with a good, while a figure of the same colour and another generation
    could train there instead (the camera cannot tell them)."""
    for st, a in situations["train"]:
        if not a.get("good"):
            continue
        others = [x for x in v.legal_actions(st) if x.type == "train"
                  and x.building == a["building"] and x.good == a["good"]
                  and x.member != a["member"] and x.member[:-1] != a["member"][:-1]]
        if others:
            return st, a
    raise AssertionError("no such training in the situations")


def _play(situations: dict[str, Any], good_after: float) -> tuple[list[Any], dict[str, Any]]:
    """The figure placed at 2 s (hand over what it changes), its good ``good_after`` s
    later; what was said and asked."""
    st, train = _a_training_with_a_good_two_generations_could_make(situations)
    half = v.apply(st, {**train, "good": None})
    after = v.apply(st, train)
    _, rec = watched(st)
    moved_under_hand(rec, st, half)
    out = run(rec, 2.0, round(2.7 + good_after, 1) - 0.1)
    t = round(2.7 + good_after, 1)
    for o in _hand(t, _changed(half, after)):
        rec.observe(o)
    for o in product_frame(after, t + 0.7):
        rec.observe(o)
    return out + run(rec, t, t + 10.0), train


def test_a_half_done_training_is_not_asked_before_its_good_comes(situations: dict) -> None:
    """The good placed 2 s after the figure: no prompt before it, and the prompt after it
    holds the training with its good (before: « train only » asked at once)."""
    out, train = _play(situations, 2.0)
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked, out
    assert all(any(train in c for c in p.candidates) for p in asked), [
        p.candidates for p in asked]


def test_a_training_without_a_good_is_asked_after_the_wait(situations: dict) -> None:
    """The control: no good comes (the good placed long after, 8 s): after the wait the
    training alone is asked, as a training that made nothing."""
    out, train = _play(situations, 8.0)
    asked = [o for o in out if isinstance(o, Prompt)]
    assert asked and any({**train, "good": None} in c for c in asked[0].candidates), out
