"""The answers to a game's secret simultaneous choice (`companion.games.sealed`), kept
sealed by the table until the last asked player has answered.

An answer lives here, in memory, and nowhere else: not in the store (so not in an export,
the hall's copy or a catch-up), not in the game's state (so not in any view, legal option
or derived value). What anyone may see is who has answered and who is still awaited; the
answering player sees their own answer and may change it until the last one is in. Then
the choice's reveal action, every answer in it, is applied as one event, and the answers
here are dropped. Any other change of the game (an undo, another game) drops them too:
after a restart the players answer again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.sealed import SealedChoice

__all__ = ["SealedAnswers"]


@dataclass
class SealedAnswers:
    """The sealed answers to the choice named ``key``: player → answer."""

    key: str | None = None
    answers: dict[str, Any] = field(default_factory=dict)

    def put(self, choice: SealedChoice, player: str, answer: Any) -> None:
        """Keep ``player``'s answer (replacing theirs); answers to another choice are
        dropped first. The caller has checked it (`SealedChoice.check_answer`)."""
        if self.key != choice.key:
            self.clear()
            self.key = choice.key
        self.answers[player] = answer

    def complete(self, choice: SealedChoice) -> bool:
        """Whether every asked player has answered ``choice``."""
        return self.key == choice.key and all(p in self.answers for p in choice.players)

    def clear(self) -> None:
        self.key = None
        self.answers.clear()

    def _given(self, choice: SealedChoice) -> dict[str, Any]:
        return self.answers if self.key == choice.key else {}

    def public(self, choice: SealedChoice | None) -> dict[str, Any] | None:
        """What anyone may see: the question, who is asked, who has answered, who has
        not (None: no choice pending)."""
        if choice is None:
            return None
        given = self._given(choice)
        return {
            "key": choice.key,
            "question": choice.question,
            "players": list(choice.players),
            "answered": [p for p in choice.players if p in given],
            "waiting": [p for p in choice.players if p not in given],
        }

    def private(self, choice: SealedChoice | None, player: str) -> dict[str, Any] | None:
        """What ``player`` may see: the question, their options and their sealed answer
        (None: no choice pending, or ``player`` is not asked)."""
        if choice is None or player not in choice.players:
            return None
        return {
            "key": choice.key,
            "question": choice.question,
            "options": list(choice.allowed(player)),
            "answer": self._given(choice).get(player),
        }
