"""What a game refuses, the same for every game: the three kinds of bad input (after
python-chess: malformed, illegal, ambiguous) and a record that does not replay.

Each refusal carries a stable string ``code`` for the service boundary and a message that
names the rule broken and the input.
"""

from __future__ import annotations

from typing import Any


class RulesError(Exception):
    """Base of every refusal by the engine; the state is never changed by one."""

    code = "rules_error"

    def __init__(self, message: str, *, code: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.rule = rule

    def words(self) -> str:
        """The refusal for people: the reason only, without the action's record form."""
        text = str(self)
        if " — " in text:
            text = text.split(" — ", 1)[1]
        return text[:1].upper() + text[1:]

    def to_json(self) -> dict[str, Any]:
        """The refusal as data: ``{"error": kind, "code", "message", "rule", "words"}``
        (``words``: the reason for people, see `words`)."""
        return {
            "error": type(self).__name__,
            "code": self.code,
            "message": str(self),
            "rule": self.rule,
            "words": self.words(),
        }


class MalformedAction(RulesError):
    """The input is not an action at all: unknown type, missing or mistyped field."""

    code = "malformed"


class IllegalAction(RulesError):
    """A well-formed action that the rules forbid in this state."""

    code = "illegal"


class AmbiguousAction(RulesError):
    """A partial action that several legal actions match: a person must decide."""

    code = "ambiguous"

    def __init__(self, message: str, options: list[dict[str, Any]]) -> None:
        super().__init__(message, code="ambiguous")
        self.options = options

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["options"] = self.options
        return out


class ReplayError(ValueError):
    """A record whose header is unusable or whose action number ``index`` is refused."""

    def __init__(self, message: str, index: int | None = None, cause: RulesError | None = None):
        super().__init__(message)
        self.index = index
        self.cause = cause


class SetupError(ValueError):
    """The values a game was asked to start with cannot be played (a game's own kind, e.g.
    Village's ``BoardDataError``, derives from it)."""
