"""How the tablet answers the reconciler: a prompt's candidate picked (or its next step
asked), "none of these" or "nothing happened", a discrepancy resolved with an action or
left to the players to put the board right, a proposal undone; and what is still open for
a page that connects."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion import village as v

from .outcomes import JSON, Closed, Discrepancy, Outcome, Prompt, UnknownOpen, Waiting
from .search import Path
from .weighing import _fingerprint, _shared_tail

if TYPE_CHECKING:
    from .observed import ObservedTable

__all__ = ["TableAnswers"]


class TableAnswers:
    """A mixin of `Reconciler`: the answers from the tablet (each raises `UnknownOpen`
    for a prompt or discrepancy no longer open)."""

    if TYPE_CHECKING:
        prompt: Prompt | None
        discrepancy: Discrepancy | None
        waiting: Waiting | None
        table: ObservedTable
        _asked_from: float | None
        _part_asked: int | None
        _declined: tuple[Any, ...] | None
        _dismissed: tuple[Any, ...] | None
        _last: tuple[Any, ...] | None
        _rejected: set[tuple[int, str]]

        def _close_prompt(self, reason: str) -> Closed: ...
        def _close_discrepancy(self, reason: str) -> Closed: ...
        def _emit(self, outcomes: list[Outcome]) -> list[Outcome]: ...
        def _new_prompt(self, seq: int, matches: list[Path],
                        maybe_nothing: bool = False) -> Prompt: ...
        def _submit(self, actions: list[JSON], seq: int, *, prompted: bool,
                    forget: bool = True, hands_after: float | None = None,
                    keep_hands: frozenset[str] = frozenset()) -> list[Outcome]: ...
        def _require_discrepancy(self, discrepancy_id: int) -> Discrepancy: ...

    def answer(self, prompt_id: int, choice: int) -> list[Outcome]:
        """Submit candidate ``choice`` of the open prompt (or, when it stands for several
        paths that share it, ask about their next step): the steps up to the last one the
        candidates differ in; the steps they all end with are left to the next look (the
        sensors saw them). Raises UnknownOpen, IndexError."""
        p = self.prompt
        if p is None or p.id != prompt_id:
            raise UnknownOpen(f"no open prompt {prompt_id}")
        if not 0 <= choice < len(p.candidates):
            raise IndexError(f"prompt {prompt_id} has {len(p.candidates)} choices")
        out: list[Outcome] = [self._close_prompt("answered")]
        paths = p.stands_for[choice] if p.stands_for else []
        if len(paths) > 1:  # the first step is known: ask about the next
            asked_from = self._asked_from
            out.append(self._new_prompt(p.seq, paths, maybe_nothing=p.nothing_happened))
            self._asked_from = asked_from  # the same look's question, asked in two parts
            return self._emit(out)
        path = [a.to_json() for a in paths[0]] if paths else p.candidates[choice]
        # the answer decides the steps the candidates differ in; the steps they all end
        # with were seen by the sensors: the next look applies them as any move
        every = ([[a.to_json() for a in m] for group in p.stands_for for m in group]
                 if p.stands_for else p.candidates)
        keep = len(path) - _shared_tail(every)
        # the unseen steps alone were asked, or the steps all end with are left: what
        # the sensors saw (the hands included) stays for the next look's commit
        rest = p.id == self._part_asked or (keep < len(path) and not self.table.taps)
        out += self._submit(path[:max(1, keep)], p.seq, prompted=True, forget=not rest,
                            hands_after=self._asked_from)
        return self._emit(out)

    def decline(self, prompt_id: int, nothing_happened: bool = False) -> list[Outcome]:
        """"None of these" (the board is put right or the action entered on the tablet), or
        "nothing happened": close the prompt; the same one is not asked again while the
        table and the game stay as they are. Raises UnknownOpen."""
        p = self.prompt
        if p is None or p.id != prompt_id:
            raise UnknownOpen(f"no open prompt {prompt_id}")
        self._declined = self._last
        self.table.taps = []  # the taps it was about are answered
        return self._emit([self._close_prompt("nothing happened" if nothing_happened
                                              else "none of these")])

    def resolve(self, discrepancy_id: int, action: JSON) -> list[Outcome]:
        """Settle an open discrepancy with an action picked on the tablet (submitted as
        given). Raises UnknownOpen, or what the link raises for a refused action."""
        d = self._require_discrepancy(discrepancy_id)
        out = self._submit([action], d.seq, prompted=True, hands_after=float("inf"))
        out.append(self._close_discrepancy("resolved"))
        return self._emit(out)

    def fix_board(self, discrepancy_id: int) -> list[Outcome]:
        """"I will fix the board": close it; the same difference is not raised again, a new
        one is once the table changes. Raises UnknownOpen."""
        self._require_discrepancy(discrepancy_id)
        self._dismissed = self._last
        return self._emit([self._close_discrepancy("fixing")])

    def reject(self, st: v.GameState, actions: list[JSON]) -> None:
        """Proposal ``actions`` made from state ``st`` was undone (the game is back at
        ``st``): never submit it again from there (that table raises a discrepancy)."""
        self._rejected.add((_fingerprint(st), repr(actions)))
        self._last = None

    def open(self) -> list[JSON]:
        """The prompt, discrepancy and waiting line still open (for a page that connects)."""
        return [o.to_json() for o in (self.prompt, self.discrepancy, self.waiting)
                if o is not None]
