"""The bench's players: a family with a question open on the tablet answers it before
typing a move (issue 15, twelfth session). The players enter on the tablet what the
sensors could not make known (the search looks three actions ahead); until now they typed
the move a prompt was asking about while the prompt stood open (54 of the 136 tablet
entries of random play, hub+camera, seed 1, three games, docs/sensing.md)."""

from __future__ import annotations

import random
from typing import Any

import companion.sim.table_game as table_game
from companion.reconcile.reconciler import Reconciler
from companion.sim.behaviour import NOISE
from companion.sim.play_styles import random_truth


def test_no_move_is_typed_while_a_prompt_about_it_is_open(monkeypatch: Any) -> None:
    """Random play, hub+camera, ordinary, the first 150 actions: every tablet entry is
    made with no prompt open about that move (before: some were)."""
    typed_over: list[int] = []
    kept: list[Reconciler] = []

    def make(link: Any, settle: float = 0.5) -> Reconciler:
        rec = Reconciler(link, settle=settle)
        kept.append(rec)
        real = link.submit

        def submit(action: dict[str, Any], source: str, expected_seq: int,
                   observations: list[Any]) -> Any:
            p = rec.prompt
            if source == "tablet" and action["type"] != "reveal_customers" and (
                    p is not None and p.seq == link.n):
                typed_over.append(link.n)
            return real(action, source, expected_seq, observations)

        link.submit = submit
        return rec

    monkeypatch.setattr(table_game, "Reconciler", make)
    header, truth = random_truth(3, random.Random(1), "random")
    counts = table_game.play(header, truth[:150], "hub+camera", NOISE["ordinary"],
                             random.Random(11))
    assert counts.manual and counts.answers
    assert typed_over == []
