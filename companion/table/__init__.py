"""The table service: the one way a game's state changes, its tokens and its live feed.

`TableService` binds an `EventStore` and the Village rules engine: an action is checked by
the engine, appended to the store (durable) before it is acknowledged, and then announced
to the subscribers of the live feed. See ``docs/service.md``.
"""

from __future__ import annotations

from companion.table.errors import (
    GameNotOver,
    NoDrawPending,
    NoGame,
    NotAsked,
    NotYourReport,
    StaleCommitment,
    StaleSeq,
    TableError,
)
from companion.table.feed import Notice, Subscription
from companion.table.service import DRAW_KEY, TableService

__all__ = [
    "DRAW_KEY",
    "GameNotOver",
    "NoDrawPending",
    "NoGame",
    "NotAsked",
    "NotYourReport",
    "Notice",
    "StaleCommitment",
    "StaleSeq",
    "Subscription",
    "TableError",
    "TableService",
]
