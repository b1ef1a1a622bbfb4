"""A camera region that changes with no hand seen over it (random play, seed 1, camera,
ordinary, game 0, action 268, fourteenth session: Red took a cube from the council and did
nothing more; a shadow read the first-player marker's own place empty for under 1.5 s,
and "Red takes privilege 1", which changes that place alone, was applied 0.5 s later).
Nothing changes on a camera region without a hand, but a shadow or a hand the camera
missed: such a path waits out the longest transient, and is then asked, never applied."""

from __future__ import annotations

import random

from reconcile_kit import run
from test_hand_vouches import _hand
from test_misread_back import product_frame
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.reconciler import Prompt, Proposal
from companion.sim.play_styles import random_truth
from companion.village.picture import regions_of

HOME = "first_player:home"


def a_council_decision() -> tuple[v.GameState, v.GameState]:
    """A state where the player to move may take privilege 1, which changes the
    first-player marker's own place alone; and the state after that privilege."""
    for seed in range(1, 9):
        header, truth = random_truth(3, random.Random(seed))
        st = v.start(header)
        for action in truth:
            for a in v.legal_actions(st):
                if a.type == "privilege" and getattr(a, "level", None) == 1:
                    after = v.apply(st, a)
                    before_r, after_r = regions_of(st), regions_of(after)
                    if [k for k in after_r if after_r[k] != before_r.get(k)] == [HOME]:
                        return st, after
            st = v.apply(st, action)
    raise AssertionError("no privilege 1 changing the first-player marker's place alone")


def seen_a_hand(rec: object, t: float) -> None:
    """The camera reports hands: one passed over the market space and left nothing."""
    for o in _hand(t, {"space:market"}):
        rec.observe(o)  # type: ignore[attr-defined]


def test_a_shadow_over_the_first_player_place_applies_nothing() -> None:
    st, after = a_council_decision()
    link, rec = watched(st)
    seen_a_hand(rec, 1.2)
    for o in product_frame(after, 2.7):  # read so, with no hand seen, for 1.3 s
        rec.observe(o)
    said = run(rec, 1.1, 3.9)
    for o in product_frame(st, 4.0):  # the shadow has gone
        rec.observe(o)
    said += run(rec, 4.0, 12.0)
    assert not [o for o in said if isinstance(o, Proposal)], said
    assert link.seq() == 0


def test_a_change_no_hand_was_seen_over_is_asked_once_still() -> None:
    """The camera missed the hand of a real privilege: asked after the wait, not applied."""
    st, after = a_council_decision()
    link, rec = watched(st)
    seen_a_hand(rec, 1.2)
    for o in product_frame(after, 2.7):
        rec.observe(o)
    said = run(rec, 1.1, 9.0)
    assert not [o for o in said if isinstance(o, Proposal)], said
    asked = [o for o in said if isinstance(o, Prompt)]
    assert asked and any("privilege" in w for w in asked[-1].words), said
    assert link.seq() == 0


def test_the_same_change_under_a_hand_is_asked_with_doing_nothing() -> None:
    """Under a hand, the marker's place read empty is the privilege, or the place misread
    as the hand left and the player did nothing more (hub+camera, heavy, random play,
    seed 5, action 84: the privilege applied; Blue had skipped): both are asked."""
    st, after = a_council_decision()
    link, rec = watched(st)
    moved_under_hand(rec, st, after)
    said = run(rec, 1.1, 9.0)
    assert not [o for o in said if isinstance(o, Proposal)], said
    asked = [o for o in said if isinstance(o, Prompt)]
    assert asked, said
    kinds = {c[0]["type"] for c in asked[-1].candidates}
    assert {"privilege", "skip"} <= kinds, asked[-1].candidates
    assert link.seq() == 0


def test_every_take_under_a_hand_is_applied() -> None:
    """The rule above is about a region read anew with no hand seen: every take of a
    random game's first 40 actions, seen on its space and the player's cubes under the
    hand, is applied as before (20 takes of seed 1)."""
    header, truth = random_truth(3, random.Random(1))
    st = v.start(header)
    takes = 0
    for action in truth[:40]:
        if action["type"] == "take":
            takes += 1
            after = v.apply(st, action)
            link, rec = watched(st)
            moved_under_hand(rec, st, after)
            said = run(rec, 1.1, 9.0)
            assert not [o for o in said if isinstance(o, Prompt)], (action, said)
            assert link.seq() == 1, (action, said)
        st = v.apply(st, action)
    assert takes >= 15, takes
