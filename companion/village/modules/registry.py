"""The modules a game can switch on, and the merged rules of each combination."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from ..rules import Module, Rules, RulesError, merge

ORDER = ("port", "life_goals")
"""Every module besides the base game, in the order their tables merge."""


def _factories() -> dict[str, Callable[[], Module]]:
    from . import base

    return {"base": base.module}


def canonical(names: Iterable[str]) -> tuple[str, ...]:
    """The modules named, in merge order, each once. Raises RulesError for an unknown one."""
    wanted = set(names)
    unknown = sorted(wanted - set(ORDER))
    if unknown:
        raise RulesError(f"unknown module(s) {unknown}; known: {list(ORDER)}")
    return tuple(m for m in ORDER if m in wanted)


@functools.cache
def rules_for(names: tuple[str, ...]) -> Rules:
    """The rules of a game with the base game and these modules (built once per set)."""
    factories = _factories()
    missing = [n for n in names if n not in factories]
    if missing:
        raise RulesError(f"module(s) {missing} cannot be played yet")
    return merge([factories["base"](), *(factories[n]() for n in canonical(names))])
