"""Two sources settled on different values for one region (a tag reader and the camera):
asked, never a silent choice. A part of `Reconciler`, which holds the state these methods
use (docs/sensing.md, "Sources that disagree")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import village as v
from companion.village import zones
from companion.village.picture import RegionValue

from .chance import ChanceReader
from .outcomes import Closed, Discrepancy, Outcome, Prompt
from .search import Path, SearchResult
from .weighing import _conflict_key


class Disagreements:
    """The disagreement prompts of `Reconciler` (its state, declared for the type checker)."""

    if TYPE_CHECKING:
        discrepancy: Discrepancy | None
        _asked_conflicts: set[Any]

        def _explain(self, st: v.GameState, observed: dict[str, RegionValue],
                     reader: ChanceReader) -> SearchResult: ...

        def _close_discrepancy(self, reason: str) -> Closed: ...

        def _new_prompt(self, seq: int, matches: list[Path],
                        maybe_nothing: bool = False) -> Prompt: ...

        def _emit(self, outcomes: list[Outcome]) -> list[Outcome]: ...

    def _disagreement(self, st: v.GameState, seq: int, observed: dict[str, RegionValue],
                      conflicts: dict[str, dict[str, RegionValue]]) -> list[Outcome] | None:
        """Two sources (a tag reader and the camera) settled on different values for a
        region: never a silent choice. The actions each source's reading would explain
        become the candidates of a prompt naming the region and the sources; None (and the
        region stays out of the comparison) when no reading explains any action."""
        paths: dict[str, Path] = {}
        for region, values in sorted(conflicts.items()):
            for value in set(values.values()):
                result = self._explain(st, {**observed, region: value},
                                       ChanceReader(observed))
                if result.cut:
                    continue
                for m in result.matches:
                    if m:
                        paths.setdefault(repr([a.to_json() for a in m]), m)
        if not paths:
            return None
        self._asked_conflicts |= {_conflict_key(r, vals) for r, vals in conflicts.items()}
        out: list[Outcome] = []
        if self.discrepancy is not None:
            out.append(self._close_discrepancy("sources disagree"))
        prompt = self._new_prompt(seq, list(paths.values()))
        where = ", ".join(f"{zones.place_words(r)} ({' or '.join(sorted(vals))})"
                          for r, vals in sorted(conflicts.items()))
        prompt.question = f"The sensors disagree on {where}: which was it?"
        out.append(prompt)
        return self._emit(out)
