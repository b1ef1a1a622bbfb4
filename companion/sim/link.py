"""The simulated table's link to the game: every action the reconciler submits is checked
against the truth, and what happened to each true action is counted.

``SimLink`` applies a submitted action equivalent to the true one (the same up to figures
the rules treat alike) as the true one, and refuses anything else as the players would
(they undo it); ``Counts`` is the bench's tally; ``equivalent`` says when two actions are
the same up to interchangeable figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from companion import village as v
from companion.reconcile.reconciler import Refused
from companion.village.vocabulary import is_member

__all__ = ["Counts", "SimLink", "equivalent"]


def equivalent(st: v.GameState, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Same action up to interchangeable figures (same generation in the same place)."""
    return a == b or _norm(st, a) == _norm(st, b)


def _norm(st: v.GameState, a: dict[str, Any]) -> dict[str, Any]:
    def key(m: Any) -> Any:
        if isinstance(m, str) and is_member(m) and m in st.members:
            return (m[:-1], st.members[m])
        return m

    out = dict(a)
    for k in ("member", "members", "figures"):
        if k in out:
            out[k] = sorted(map(str, map(key, out[k]))) if isinstance(out[k], list) else key(out[k])
    return out


@dataclass
class Counts:
    """What happened to the true actions of the games played (chance tiles excluded)."""

    actions: int = 0
    auto_correct: int = 0
    auto_wrong: int = 0
    prompted: int = 0
    prompts: int = 0
    prompt_had_truth: int = 0
    long_prompts: int = 0  # prompts listing more than five long sentences (asking.too_long)
    manual: int = 0
    discrepancies: int = 0
    taps: int = 0
    answers: int = 0  # prompts answered on the tablet (a candidate, or "none of these")
    none_right: int = 0  # prompts without the truth, answered "none of these"
    acks: int = 0  # discrepancies acknowledged (the board put right, or "I will fix it")
    wrong_at: list[int] = field(default_factory=list)  # the seq of each wrong action applied
    # the seq of each prompt shown without the truth and not rightly answered "none of these"
    untrue_at: list[int] = field(default_factory=list)
    timings: list[float] = field(default_factory=list)
    table_timings: list[float] = field(default_factory=list)  # per table seen (all its looks)
    tick_timings: list[float] = field(default_factory=list)  # per tick, outside its look
    # each touch of the tablet by what made it one (``entry``, ``prompt:<cause>`` as
    # `companion.sim.camera_causes.prompt_cause` says, ``discrepancy``), and by the kind of
    # the true action it was about
    touch_causes: Counter[str] = field(default_factory=Counter)
    touch_kinds: dict[str, Counter[str]] = field(default_factory=dict)

    def touch(self, kind: str, cause: str) -> None:
        """Note one touch of the tablet about an action of type ``kind``."""
        self.touch_causes[cause] += 1
        self.touch_kinds.setdefault(kind, Counter())[cause] += 1

    @property
    def touches(self) -> int:
        """Touches of the tablet: actions entered, prompts answered, discrepancies met."""
        return self.manual + self.answers + self.acks

    def add(self, other: Counts) -> None:
        for k in ("actions", "auto_correct", "auto_wrong", "prompted", "prompts",
                  "prompt_had_truth", "long_prompts", "manual", "discrepancies", "taps", "answers",
                  "none_right", "acks"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.wrong_at += other.wrong_at
        self.untrue_at += other.untrue_at
        self.timings += other.timings
        self.table_timings += other.table_timings
        self.touch_causes += other.touch_causes
        for kind, causes in other.touch_kinds.items():
            self.touch_kinds.setdefault(kind, Counter()).update(causes)
        self.tick_timings += other.tick_timings


class SimLink:
    """The reconciler's way in, over a plain engine state, checking against the truth.

    A submitted action equivalent to the true one is applied as the true one (so piece ids
    stay those of the table). A different one counts as wrong: by default the truth is
    applied instead and the submission refused (the players undo it and enter what
    happened); with ``keeps_wrong`` it stays in the game, as it would at a table where
    nobody checks, so it shows in the final state."""

    keeps_wrong = False

    def __init__(self, header: dict[str, Any], truth: list[dict[str, Any]], counts: Counts):
        self.st = v.start(header)
        self.truth = truth
        self.n = 0
        self.counts = counts
        self.mode = "auto"
        self.log: list[tuple[int, str, bool]] = []
        self.wrong: list[tuple[int, dict[str, Any], dict[str, Any]]] = []

    def state(self) -> v.GameState:
        return self.st

    def seq(self) -> int:
        return self.n

    def submit(self, action: dict[str, Any], source: str, expected_seq: int,
               observations: list[dict[str, Any]]) -> int:
        """Raises Refused (stale seq, the record is over, or — unless ``keeps_wrong`` — not
        what happened) and what `v.apply` raises for an illegal action."""
        if expected_seq != self.n:
            raise Refused(f"stale: expected {expected_seq}, at {self.n}")
        if self.n >= len(self.truth):
            raise Refused("the record is over")
        as_submitted = v.apply(self.st, action)  # raises for an illegal one, as the service
        true = self.truth[self.n]
        right = equivalent(self.st, action, true)
        if true["type"] != "reveal_customers":
            if self.mode == "auto":
                self.counts.auto_correct += right
                self.counts.auto_wrong += not right
                if not right:
                    self.counts.wrong_at.append(self.n)
            elif self.mode == "prompted":
                self.counts.prompted += 1
            else:
                self.counts.manual += 1
                self.counts.touch(true["type"], "entry")
        self.log.append((self.n, self.mode, right))
        if not right:
            self.wrong.append((self.n, action, true))
        keep = not right and self.keeps_wrong
        self.st = as_submitted if keep else v.apply(self.st, true)
        self.n += 1
        if not right and not keep:
            raise Refused("not what happened: the players undo it and enter the truth")
        return self.n
