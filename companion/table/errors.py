"""Refusals by the table service that are not rules errors (those come from the engine).

Each has a stable ``code`` for the HTTP boundary and `to_json` like the engine's errors.
"""

from __future__ import annotations

from typing import Any


class TableError(Exception):
    """Base of the service's own refusals; the state is never changed by one."""

    code = "table_error"

    def to_json(self) -> dict[str, Any]:
        """The refusal as data: ``{"error": kind, "code": ..., "message": ..., "rule": None}``."""
        return {"error": type(self).__name__, "code": self.code, "message": str(self), "rule": None}


class NoGame(TableError):
    """There is no current game (none created or imported yet), or no such game."""

    code = "no_game"


class NoDrawPending(TableError):
    """A virtual draw was asked for while the game waits for a person, not a draw."""

    code = "no_draw_pending"


class StaleCommitment(TableError):
    """A virtual draw named a commitment that is not the one in force."""

    code = "stale_commitment"


class StaleSeq(TableError):
    """The caller's ``expected_seq`` is not the game's last seq (someone acted first)."""

    code = "stale_seq"


class NotYourReport(TableError):
    """A player sent, as their own report of a draw, something that is not their share of
    the draw now waited for (or no such draw is waited for)."""

    code = "not_your_report"


class GameNotOver(TableError):
    """A play log was asked for a game that has not ended."""

    code = "game_not_over"


class NotAsked(TableError):
    """An answer to a secret choice from a player the game does not ask now (or no secret
    choice is pending)."""

    code = "not_asked"
