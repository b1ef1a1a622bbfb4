"""A ``TableLink`` over a plain engine state in memory (tests, tools)."""

from __future__ import annotations

from typing import Any

from companion import village as v
from companion.reconcile.reconciler import Refused


class MemoryLink:
    """Applies submitted actions to an engine state it holds; records what came in."""

    def __init__(self, state: v.GameState) -> None:
        self.st = state
        self.submitted: list[tuple[dict[str, Any], str, list[dict[str, Any]]]] = []

    def state(self) -> v.GameState:
        return self.st

    def seq(self) -> int:
        return len(self.submitted)

    def submit(self, action: dict[str, Any], source: str, expected_seq: int,
               observations: list[dict[str, Any]]) -> int:
        """Raises Refused for a stale seq, RulesError for an illegal action."""
        if expected_seq != self.seq():
            raise Refused(f"expected seq {expected_seq}, at {self.seq()}")
        self.st = v.apply(self.st, action)
        self.submitted.append((action, source, observations))
        return self.seq()


__all__ = ["MemoryLink"]
