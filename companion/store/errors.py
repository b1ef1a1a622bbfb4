"""Exceptions raised by the event store and the game record reader/writer."""

from __future__ import annotations


class StoreError(Exception):
    """Base class of every error this package raises on purpose."""


class UnknownGame(StoreError, LookupError):
    """Raised when a game id names no game in the database."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"unknown game: {game_id!r}")
        self.game_id = game_id


class NothingToUndo(StoreError):
    """Raised by `EventStore.append_revert` when every action of the game is already reverted
    (or the game has no action at all)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"nothing to undo in game {game_id}")
        self.game_id = game_id


class ConcurrentAppend(StoreError):
    """Raised by an append given ``expected_seq`` when the game's last seq is a different one:
    someone else appended first. Nothing was written; re-read the game and decide again."""

    def __init__(self, game_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"game {game_id}: expected last seq {expected}, but it is {actual} "
            "(another append came first; nothing was written)"
        )
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class RecordError(StoreError, ValueError):
    """Raised on a malformed game record (JSON Lines) when reading or writing one.

    ``line`` is the 1-based line number the problem is on (the header is line 1).
    """

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


class StorageUnavailable(StoreError):
    """The database cannot be written (or opened): the disk, not the data, is at fault.
    Nothing was written by the failed call and everything acknowledged before is kept.
    ``code`` names the cause for the HTTP boundary; the message says it in words."""

    code = "storage_failed"

    def __init__(self, path: object, detail: str) -> None:
        super().__init__(f"{self.summary} ({path}: {detail})")
        self.path = path
        self.detail = detail

    summary = (
        "The table's storage failed; nothing accepted was lost. "
        "Check the companion's disk, then try again."
    )


class StorageFull(StorageUnavailable):
    """The disk (or the file system holding the database) is full."""

    code = "storage_full"
    summary = (
        "The table's storage is full; nothing accepted was lost. "
        "Free some space on the companion's disk, then try again."
    )


class StorageReadOnly(StorageUnavailable):
    """The database file or its folder cannot be written (read-only, permissions)."""

    code = "storage_read_only"
    summary = (
        "The table's storage is read-only; nothing accepted was lost. "
        "Make the companion's disk writable again, then try again."
    )
