"""What a Village record header says about the game's rule modules (read by the state,
the record and every module's setup)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What a record header says about a game's modules: which are on, their printed
    values (``port.*``, ``goals.*`` keys) and their per-game choices."""

    modules: tuple[str, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)
    goal_claims: str = "manual"  # or "auto": claim a life goal the moment it is met
