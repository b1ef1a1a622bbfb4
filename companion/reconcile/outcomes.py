"""What the reconciler says and whom it says it to: its way into the table (`TableLink`),
its outcomes (a `Proposal` applied, a `Prompt`, a `Discrepancy`, a move `Waiting` for its
second step, a `Closed` one) and its refusals."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from companion import village as v

from .search import (
    Path,
)

JSON = dict[str, Any]


class TableLink(Protocol):
    """The one way in: what the runtime wires to the table service."""

    def state(self) -> v.GameState: ...

    def seq(self) -> int: ...

    def submit(
        self, action: JSON, source: str, expected_seq: int, observations: list[JSON]
    ) -> int:
        """Apply ``action``; return the new seq. Raises ``Refused`` (or a
        ``companion.village.RulesError``) when it cannot, the table unchanged."""
        ...


@dataclass
class Proposal:
    """Actions the reconciler submitted ("here is what I think happened")."""

    id: int
    seq: int  # the seq of the last action submitted
    actions: list[JSON]
    words: str
    observations: list[JSON]
    start: int = 0  # the seq the actions were submitted from
    kind: str = "proposal"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id, "seq": self.seq, "start": self.start,
                "actions": self.actions, "words": self.words}


@dataclass
class Prompt:
    """Several explanations: one tap picks the candidate (sequence of actions)."""

    id: int
    seq: int  # the state the candidates start from
    question: str
    candidates: list[list[JSON]]
    words: list[str]
    # besides the candidates, every prompt offers "none of these" (then the board is put
    # right or the action entered on the tablet), and "nothing happened" where the table
    # may not have changed (a tag that dropped out, a tap): :meth:`Reconciler.decline`
    none_of_these: bool = True
    nothing_happened: bool = False
    # one short label per candidate: the step they differ in ("Market", "Travel"), or the
    # words of its sentence the others do not share, `shared` said once above them
    # (`companion.reconcile.asking`)
    choices: list[str] = field(default_factory=list)
    shared: str = ""
    changed: list[str] = field(default_factory=list)  # the places seen changed, in words
    regions: list[str] = field(default_factory=list)  # the same, as region names
    # per candidate, the whole paths it stands for when the prompt asks about a first
    # step only (several: answering it asks about the next step)
    stands_for: list[list[Path]] = field(default_factory=list, repr=False)
    kind: str = "prompt"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id, "seq": self.seq, "question": self.question,
                "candidates": self.candidates, "words": self.words,
                "choices": self.choices or self.words, "shared": self.shared,
                "changed": self.changed,
                "regions": self.regions, "none_of_these": self.none_of_these,
                "nothing_happened": self.nothing_happened}


@dataclass
class Discrepancy:
    """The table shows what no legal action explains."""

    id: int
    seq: int
    items: list[JSON]  # {"region", "what", "expected", "seen"}
    words: str
    kind: str = "discrepancy"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id, "seq": self.seq, "items": self.items,
                "words": self.words}


@dataclass
class Waiting:
    """A move seen half done, held for its second step ("waiting for …"): closed by a
    `Closed` once it is committed, asked, or the table moves on."""

    id: int
    seq: int
    words: str  # "Red 1a trains at the smithy: waiting for the good made there, if any"
    kind: str = "waiting"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id, "seq": self.seq, "words": self.words}


@dataclass
class Closed:
    """An open prompt or discrepancy is gone (answered, resolved, or the table moved on)."""

    id: int
    reason: str
    kind: str = "closed"

    def to_json(self) -> JSON:
        return {"kind": self.kind, "id": self.id, "reason": self.reason}


Outcome = Proposal | Prompt | Discrepancy | Waiting | Closed


class Refused(Exception):
    """A link refused a submitted action (stale seq, illegal, or undone at once)."""


class _GoOn(Exception):
    """A look used its share of the search budget: it goes on at the next tick."""


class UnknownOpen(LookupError):
    """No open prompt or discrepancy has that id (already answered or gone)."""
