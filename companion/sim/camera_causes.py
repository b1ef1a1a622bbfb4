"""Why the camera game's tablet was touched: each touch by cause and by action kind.

A touch (``Counts.touches``) is an action entered on the tablet, a prompt answered or a
discrepancy met. :class:`TracedReconciler` is the real :class:`Reconciler`, recording in
each look which of its guards added a candidate or held a path back (nothing else
changes: every guard is called as before and its result returned untouched), so a prompt
can be put down to what made it a prompt:

- ``doubt``: a misread doubt (``misreads.py``, ``doubts.py``'s one misread away): a
  doubted region changed, a rival one misread away, a move seen where no hand came;
- ``generation``: another member of the same colour fits (the camera counts figures by
  colour and cannot tell a generation);
- ``unseen``: a path with a step no sensor sees (a skip, a pass, a well use);
- ``fill``: a fill of the board (asked by design) or the green bag's misread fill;
- ``disagree``: two sources disagree; ``several``: several explanations otherwise.

Entries on the tablet keep the camera game's own ``why`` (``tablet``: a bag the camera
does not see; ``nothing-seen``: the move changed nothing the camera reads; ``overtaken``:
seen, not explained in time), ``overtaken`` split by whether the camera committed a
misread during the move.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from companion.reconcile.reconciler import Reconciler

# guard -> the cause it stands for, in the order a prompt is put down to one
_GUARDS = {
    "_changes_doubted": "doubt", "_one_misread_away": "doubt", "_misread_rivals": "doubt",
    "_hand_elsewhere": "doubt", "_two_misreads_rivals": "doubt", "_one_read_wrong": "doubt",
    "_taken_elsewhere": "doubt", "_drawn_instead": "doubt",
    "_other_members": "generation", "_unseen": "unseen", "_unread": "unseen",
}
T = TypeVar("T")
ORDER = ("disagree", "fill", "doubt", "generation", "unseen", "several")


class TracedReconciler(Reconciler):
    """The reconciler, noting which guards fired in the current look (``fired``)."""

    fired: set[str]

    def tick(self, now: float | None = None) -> list[Any]:
        self.fired = set()
        return super().tick(now)

    def _note(self, name: str, result: T) -> T:
        if result:  # a guard that added a candidate, or said yes
            self.fired.add(name)
        return result


def _traced(name: str) -> Callable[..., Any]:
    """``Reconciler``'s guard ``name``, called as before, its result noted and returned
    untouched (``_one_read_wrong`` answers a pair: its matches are what is noted)."""
    guard = getattr(Reconciler, name)

    def traced(self: TracedReconciler, *args: Any, **kwargs: Any) -> Any:
        result = guard(self, *args, **kwargs)
        self._note(name, result[0] if name == "_one_read_wrong" else result)
        return result

    traced.__name__ = name
    return traced


for _name in _GUARDS:
    setattr(TracedReconciler, _name, _traced(_name))

def prompt_cause(question: str, candidates: list[list[dict[str, Any]]],
                 fired: set[str]) -> str:
    """What made a prompt a prompt (one of ``ORDER``), from its question, candidates and
    the guards that fired in the look that asked it."""
    if question.startswith("The sensors disagree"):
        return "disagree"
    if "green bag" in question or any(a.get("type") == "fill_bag" for c in candidates
                                      for a in c):
        return "fill"
    causes = {_GUARDS[g] for g in fired if g in _GUARDS}
    if "doubt" not in causes and _members_only(candidates):
        causes.add("generation")
    for cause in ("doubt", "generation", "unseen"):
        if cause in causes:
            return cause
    return "several"


def _members_only(candidates: list[list[dict[str, Any]]]) -> bool:
    """True when the candidates differ only in which member their steps name."""
    def bare(c: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: x for k, x in a.items() if k != "member"} for a in c]
    return (len(candidates) > 1 and any(c != candidates[0] for c in candidates)
            and all(bare(c) == bare(candidates[0]) for c in candidates))


def breakdown(log: list[dict[str, Any]]) -> dict[str, Any]:
    """The touches of a camera game's ``log`` by cause and by action kind: ``by_cause``
    {cause: touches}, ``by_kind`` {action type: {cause: touches}}, ``actions`` {action
    type: count}. A prompted action's touches are its prompts (``asked`` on it), an
    entry is one touch, a discrepancy met one touch on the action it was raised at."""
    by_cause: Counter[str] = Counter()
    by_kind: dict[str, Counter[str]] = {}
    actions: Counter[str] = Counter()
    for row in log:
        kind = row["type"]
        if kind == "reveal_customers":
            continue
        actions[kind] += 1
        causes: list[str] = []
        if row["how"] == "manual":
            why = row.get("why", "?")
            if why == "overtaken":
                why = "overtaken-misread" if row.get("misread") else "overtaken-read-right"
            causes.append("entry:" + why)
        causes += ["prompt:" + c for c in row.get("causes", [])]
        causes += ["discrepancy"] * row.get("discrepancies", 0)
        for c in causes:
            by_cause[c] += 1
            by_kind.setdefault(kind, Counter())[c] += 1
    return {"by_cause": dict(by_cause.most_common()),
            "by_kind": {k: dict(c.most_common()) for k, c in sorted(
                by_kind.items(), key=lambda kc: -sum(kc[1].values()))},
            "actions": dict(actions.most_common())}
