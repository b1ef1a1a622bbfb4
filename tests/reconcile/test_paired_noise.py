"""The bench compares reconcilers on the same table: the moves' noise (misreads, hands,
late taps…) does not depend on what the reconciler asked or when the players answered, so
a change to the reconciler is measured against the same misreads, not a reshuffled game
(found comparing two reconcilers on seed 5: the first prompt that differed drew the
players' answer delay from the table's stream, and every later misread moved)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from companion.reconcile.reconciler import Reconciler
from companion.sim import table_game
from companion.sim.behaviour import NOISE
from companion.sim.play_styles import random_truth
from companion.sim.table import SimTable

MOVE = SimTable.move


def _noise_seen(monkeypatch: pytest.MonkeyPatch, unseen_wait: float) -> list[Any]:
    """The misreads and hand events each move of the first 60 actions made, with the
    reconciler asking sooner or later (``unseen_wait``). The misreads a move draws, not
    those left from before: a board put right after a discrepancy (raised when the
    reconciler finds it) clears the old ones, at a moment that follows the reconciler."""
    seen: list[Any] = []

    def recording(self: SimTable, t: float, new: Any, actions: list[dict[str, Any]]) -> None:
        n = len(self.events)
        before = dict(self.misread)
        MOVE(self, t, new, actions)
        seen.append((sorted((k, x) for k, x in self.misread.items() if before.get(k) != x),
                     [type(o).__name__ for _t, o in self.events[n:]]))

    class Patient(Reconciler):
        def __post_init__(self) -> None:
            super().__post_init__()
            self.unseen_wait = unseen_wait

    monkeypatch.setattr(SimTable, "move", recording)
    monkeypatch.setattr(table_game, "Reconciler", Patient)
    header, actions = random_truth(3, random.Random(5), "purposeful")
    table_game.play(header, actions[:60], "camera", NOISE["ordinary"],
                    random.Random("5/0/camera/ordinary"))
    return seen


def test_the_tables_noise_does_not_follow_the_reconcilers_prompts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    soon = _noise_seen(monkeypatch, 0.5)
    late = _noise_seen(monkeypatch, 6.0)
    assert len(soon) == len(late) > 50
    assert soon == late
