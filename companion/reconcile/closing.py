"""How the reconciler's open outcomes close: a prompt, a discrepancy or a waiting line is
shown on the play page until a `Closed` names it (the page adds a card per outcome and
removes one per `Closed`), so none is dropped or replaced silently.

- a prompt replaced by another (the table moved on and is asked about anew) is closed
  first, "replaced";
- a prompt about a point of the game that has passed (the move was entered on the tablet
  meanwhile, or applied another way) is closed at the next look, "entered on the tablet",
  whatever that look then does or waits for (issue 15, eleventh session).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .outcomes import Closed, Discrepancy, Outcome, Prompt, Waiting

__all__ = ["Closing"]


class Closing:
    """A mixin of `Reconciler`: closing its open outcomes, and emitting outcomes to the
    listener (every outcome goes through `_emit`)."""

    if TYPE_CHECKING:
        prompt: Prompt | None
        discrepancy: Discrepancy | None
        waiting: Waiting | None
        listener: Callable[[Outcome], None] | None

    _shown_prompt: int | None = None  # the prompt emitted last and not closed since

    def _close_stale(self, seq: int) -> list[Outcome]:
        """Close the open prompt if it asks about an earlier point of the game than
        ``seq`` (its move was entered on the tablet meanwhile)."""
        p = self.prompt
        if p is None or p.seq == seq:
            return []
        return self._emit([self._close_prompt("entered on the tablet")])

    def _close_prompt(self, reason: str) -> Closed:
        assert self.prompt is not None
        closed = Closed(self.prompt.id, reason)
        self.prompt = None
        return closed

    def _close_waiting(self, reason: str) -> Closed:
        assert self.waiting is not None
        closed = Closed(self.waiting.id, reason)
        self.waiting = None
        return closed

    def _close_discrepancy(self, reason: str) -> Closed:
        assert self.discrepancy is not None
        closed = Closed(self.discrepancy.id, reason)
        self.discrepancy = None
        return closed

    def _emit(self, outcomes: list[Outcome]) -> list[Outcome]:
        """Tell the listener; a prompt that takes the place of one still shown is preceded
        by that one's `Closed` ("replaced"). Returns what was told."""
        told: list[Outcome] = []
        for o in outcomes:
            if isinstance(o, Prompt):
                if self._shown_prompt is not None and self._shown_prompt != o.id:
                    told.append(Closed(self._shown_prompt, "replaced"))
                self._shown_prompt = o.id
            elif isinstance(o, Closed) and o.id == self._shown_prompt:
                self._shown_prompt = None
            told.append(o)
        if self.listener is not None:
            for o in told:
                self.listener(o)
        return told
