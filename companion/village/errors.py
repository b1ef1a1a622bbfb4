"""The engine's refusals: the game-independent kinds of `companion.games.errors`."""

from companion.games.errors import AmbiguousAction, IllegalAction, MalformedAction, RulesError

__all__ = ["AmbiguousAction", "IllegalAction", "MalformedAction", "RulesError"]
