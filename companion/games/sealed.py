"""Secret simultaneous choices: a decision several players answer at once, each behind
their hand (Colonia's family cards and votes), as any game declares it.

A game whose ``sealed_choice(st)`` returns a `SealedChoice` waits for every asked player's
answer. The table keeps the answers sealed (`companion.table.sealed_choices`): nothing of
one shows anywhere until the last is in; then the game's record action `SealedChoice.action`
(``{"type": reveal, "answers": {player: answer}}``) is applied, all answers in one event. The
table may also enter that action itself (the cards turned face up at the table). The game
checks it with `SealedChoice.check`.

Each player's options must follow from what that player and everybody may know, never
from another's secret: the refusal of an answer is seen by the one who gave it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.errors import IllegalAction

__all__ = ["SealedChoice", "spoken"]


def spoken(values: Sequence[Any]) -> str:
    """``1, 2 or 3``."""
    words = [str(v) for v in values]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


@dataclass(frozen=True, slots=True)
class SealedChoice:
    """A pending secret choice. ``key`` names this decision and stays the same while it
    waits (answers given to another key are dropped); ``reveal``: the record type of the
    action that opens it; ``options``: each asked player, in order, with the answers they
    may give (JSON values); ``question``: in words, for the phones."""

    key: str
    reveal: str
    options: tuple[tuple[str, tuple[Any, ...]], ...]
    question: str = ""

    @classmethod
    def of(cls, key: str, reveal: str, options: Mapping[str, Sequence[Any]],
           question: str = "") -> SealedChoice:
        """A choice from a mapping player → options. Raises ValueError if a player has none."""
        empty = [p for p, o in options.items() if not o]
        if empty:
            raise ValueError(f"a sealed choice needs an option for each player: {empty}")
        return cls(key, reveal, tuple((p, tuple(o)) for p, o in options.items()), question)

    @property
    def players(self) -> tuple[str, ...]:
        """Who must answer, in order."""
        return tuple(p for p, _ in self.options)

    def allowed(self, player: str) -> tuple[Any, ...]:
        """What ``player`` may answer (empty if not asked)."""
        return dict(self.options).get(player, ())

    def check_answer(self, player: str, answer: Any) -> None:
        """Raises IllegalAction unless ``player`` is asked and ``answer`` is one of theirs."""
        allowed = self.allowed(player)
        if not allowed:
            raise IllegalAction(f"illegal: {player} is not asked this — {self.question}",
                                code="not_asked")
        if answer not in allowed or isinstance(answer, bool) != isinstance(allowed[0], bool):
            raise IllegalAction(
                f"illegal: {answer!r} — {player} may answer {spoken(allowed)}, not {answer}",
                code="not_an_option",
            )

    def action(self, answers: Mapping[str, Any]) -> dict[str, Any]:
        """The record action revealing ``answers`` (in the players' order)."""
        return {"type": self.reveal, "answers": {p: answers[p] for p in self.players}}

    def check(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """The answers of a reveal action, checked. Raises IllegalAction: not this choice's
        reveal, a player missing or not asked, an answer not among that player's options."""
        answers = record.get("answers")
        if record.get("type") != self.reveal or not isinstance(answers, dict):
            raise IllegalAction(f"illegal: {dict(record)!r} — the table waits for "
                                f"{self.reveal} with every answer", code="not_legal")
        for player in answers:
            if player not in self.players:
                raise IllegalAction(f"illegal: {player} is not asked this — {self.question}",
                                    code="not_asked")
        for player in self.players:
            if player not in answers:
                raise IllegalAction(f"illegal: no answer from {player} — every asked player "
                                    f"answers before the reveal", code="missing_answer")
            self.check_answer(player, answers[player])
        return dict(answers)
