"""The crash-safe event store: games as append-only logs in SQLite, and game records.

Game-agnostic: actions are plain JSON objects, checked by the rules engine before they are
appended. See ``docs/event-store.md``.
"""

from __future__ import annotations

from companion.store.errors import (
    ConcurrentAppend,
    NothingToUndo,
    RecordError,
    StorageFull,
    StorageReadOnly,
    StorageUnavailable,
    StoreError,
    UnknownGame,
)
from companion.store.event_store import (
    SCHEMA_VERSION,
    SOURCES,
    Event,
    EventKind,
    EventStore,
    GameInfo,
    Source,
    storage_error,
)
from companion.store.record import JSONObject, format_record, parse_record

__all__ = [
    "SCHEMA_VERSION",
    "SOURCES",
    "ConcurrentAppend",
    "Event",
    "EventKind",
    "EventStore",
    "GameInfo",
    "JSONObject",
    "NothingToUndo",
    "RecordError",
    "Source",
    "StorageFull",
    "StorageReadOnly",
    "StorageUnavailable",
    "StoreError",
    "UnknownGame",
    "format_record",
    "parse_record",
    "storage_error",
]
