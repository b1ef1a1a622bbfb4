"""A chance point as every game describes it: what is in the bag, how many come out, where
they go, and how a draw is written as the game's record action (OpenSpiel's
``chance_outcomes``). The virtual bags (`companion.bags`) draw from any game's spec."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

Outcome = Callable[["ChanceSpec", list[str]], dict[str, object]]


@dataclass(frozen=True, slots=True)
class ChanceSpec:
    """A draw to make. ``contents``: what is in the bag or stack (one entry per piece, in a
    fixed order); ``count``: how many come out; ``slots``: where they go, in order (for
    Village: market slot numbers for customers, action spaces repeated per cube for the
    green bag); ``outcome``: the record form of the action for the pieces drawn (not part of
    a spec's equality)."""

    kind: str
    contents: tuple[str, ...]
    count: int
    slots: tuple[str, ...]
    outcome: Outcome = field(compare=False, repr=False, kw_only=True)

    def action(self, drawn: list[str]) -> dict[str, object]:
        """The record form of the action for ``drawn`` (the first ``count`` pieces drawn)."""
        return self.outcome(self, drawn)
