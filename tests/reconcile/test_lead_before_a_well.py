"""The seen steps before the next player's well use are applied, the well's space waited
for (issue 15, thirteenth session).

A shared lead (`lead.py`) was tried only for at most six explanations, and a well use can
go to any of the seven action spaces: a move followed by the next player's well was seven
explanations, so its seen steps waited with the well for the next step, the next turns
piled up behind them and the players entered them on the tablet. The bench's trace (seed
1, hub+camera, purposeful, ordinary, game 1 action 157: Yellow takes a pink cube from the
council and the first privilege, Blue puts three green cubes back at the well; the take
entered on the tablet with the waiting line « … waiting for the next step » still open).
Seven explanations, one a space, may now share a lead; a lead that ends with the well
itself is not applied (its space is told by the steps after it; fifteenth session).
"""

from __future__ import annotations

import pytest
from reconcile_kit import game_states, run
from under_hand import moved_under_hand, watched

from companion import village as v
from companion.reconcile.reconciler import Reconciler
from companion.sim.memory_link import MemoryLink


def test_a_take_and_recall_then_the_next_players_well_applies_the_take_and_recall() -> None:
    """Seed 1, action 113: Yellow takes a pink cube from the family space and recalls
    Yellow 1b; Blue puts three green cubes back at the well (its space not shown yet).
    The take and the recall are applied from the sensors (before: nothing until the
    well's space was asked)."""
    states = game_states(1)
    st = states[113][0]
    path = [states[113][1], states[114][1], states[115][1]]
    assert [a["type"] for a in path] == ["take", "recall", "well"]
    after = st
    for a in path:
        after = v.apply(after, a)
    link, rec = watched(st)
    moved_under_hand(rec, st, after)
    out = run(rec, 2.0, 12.0)
    assert [a for a, *_ in link.submitted] == path[:2], out


def _other_checks_pass(rec: Reconciler, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every check of `SharedLead._sure_lead` but the well's made to pass (a unit test of
    the one rule: the seen, read, unhanded lead with no rival)."""
    for name in ("_unseen", "_unread", "_under_hand", "_changes_doubted", "_hand_elsewhere",
                 "_no_hand_seen"):
        monkeypatch.setattr(rec, name, lambda *a: False)
    for name in ("_other_members", "_one_misread_away", "_misread_rivals", "_drawn_instead"):
        monkeypatch.setattr(rec, name, lambda *a: [])
    monkeypatch.setattr(rec, "_second_step", lambda *a: (0.0, ""))


def test_a_lead_ending_with_a_well_use_is_asked_not_applied(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The space a well use took is told only by the steps after it: a lead that ends with
    the well is not applied ahead of them (fifteenth session, CI: camera, heavy, a farm read
    one figure more made « Yellow uses the well for Family » every explanation's lead, where
    Yellow had taken Travel). The lead before the well still is (the control)."""
    states = game_states(1)
    st = states[113][0]
    take, recall, well, church = (v.parse_action(states[i][1]) for i in range(113, 117))
    other_well = v.parse_action({**states[115][1], "space": "market"})
    other_church = v.parse_action({**states[116][1], "member": "blue-1a"})
    rec = Reconciler(MemoryLink(st))
    _other_checks_pass(rec, monkeypatch)
    assert rec._sure_lead(st, [(take, recall, well), (take, recall, other_well)], {}) == (
        take, recall)
    assert rec._sure_lead(st, [(take, recall, well, church),
                               (take, recall, well, other_church)], {}) == ()
