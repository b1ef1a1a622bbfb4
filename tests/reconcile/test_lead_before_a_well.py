"""The seen steps before the next player's well use are applied, the well's space waited
for (issue 15, thirteenth session).

A shared lead (`lead.py`) was tried only for at most six explanations, and a well use can
go to any of the seven action spaces: a move followed by the next player's well was seven
explanations, so its seen steps waited with the well for the next step, the next turns
piled up behind them and the players entered them on the tablet. The bench's trace (seed
1, hub+camera, purposeful, ordinary, game 1 action 157: Yellow takes a pink cube from the
council and the first privilege, Blue puts three green cubes back at the well; the take
entered on the tablet with the waiting line « … waiting for the next step » still open).
Seven explanations, one a space, may now share a lead.
"""

from __future__ import annotations

from reconcile_kit import game_states, run
from under_hand import moved_under_hand, watched

from companion import village as v


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
