"""The event store: games kept as append-only logs in one SQLite file.

Each game is a header (a JSON object, e.g. ``{"game": "village", "players": [...]}``) and a
log of events numbered 1, 2, 3… without gaps. An event is either an ``action`` (a JSON
object the rules engine has already accepted; the store never looks inside) or a
``revert`` whose payload ``{"reverts": n}`` undoes action ``n``. Nothing is ever updated or
deleted: undo is one more event, and the game state is the replay of `effective_actions`.

Durability: the database runs in WAL mode with ``synchronous=FULL``, and every append is
committed (the WAL fsynced) before the method returns, so an acknowledged event survives the
process being killed or the power going off.

Threads: one `EventStore` holds one connection, guarded by a lock, so one store object may
be shared by all the threads of a web server. Several store objects (or processes) on the
same file are safe too: writes take SQLite's write lock before reading the last seq.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, Self, get_args

from companion.store.errors import (
    ConcurrentAppend,
    NothingToUndo,
    StorageFull,
    StorageReadOnly,
    StorageUnavailable,
    StoreError,
    UnknownGame,
)
from companion.store.record import (
    JSONObject,
    check_header,
    dumps_compact,
    format_record,
    parse_record,
)

__all__ = ["SCHEMA_VERSION", "SOURCES", "Event", "EventKind", "EventStore", "GameInfo", "Source"]

Source = Literal["tablet", "tag_reader", "camera", "virtual_bag", "import", "demo"]
"""Where an event came from."""

SOURCES: Final[frozenset[str]] = frozenset(get_args(Source))
"""Every valid ``source`` string."""

EventKind = Literal["action", "revert"]

# Each entry upgrades the schema by one version: _MIGRATIONS[0] creates version 1, and so
# on. PRAGMA user_version records how many have run. Append new migrations, never edit old.
_MIGRATIONS: Final[tuple[str, ...]] = (
    """
    CREATE TABLE games (
        id      INTEGER PRIMARY KEY,
        created TEXT NOT NULL,              -- UTC, ISO 8601
        header  TEXT NOT NULL,              -- JSON object
        label   TEXT
    );
    CREATE TABLE events (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq     INTEGER NOT NULL CHECK (seq >= 1),
        time    TEXT NOT NULL,              -- UTC, ISO 8601
        source  TEXT NOT NULL,
        kind    TEXT NOT NULL CHECK (kind IN ('action', 'revert')),
        payload TEXT NOT NULL,              -- JSON object
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    """,
)

SCHEMA_VERSION: Final[int] = len(_MIGRATIONS)
"""The schema version this code writes (``PRAGMA user_version``)."""

_BUSY_TIMEOUT_S: Final = 10.0


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of a game's log, as stored.

    ``payload`` is the action object for ``kind == "action"`` and ``{"reverts": seq}`` for
    ``kind == "revert"``. It is a fresh copy each time it is read; changing it changes
    nothing in the store.
    """

    game_id: int
    seq: int
    time: str
    source: str
    kind: EventKind
    payload: JSONObject

    def to_dict(self) -> JSONObject:
        """Return the event as a JSON-ready dict (the field names as keys)."""
        return {
            "game_id": self.game_id,
            "seq": self.seq,
            "time": self.time,
            "source": self.source,
            "kind": self.kind,
            "payload": self.payload,
        }

    def to_json(self) -> str:
        """Return the event as one line of compact JSON (for a server-sent event, a log…)."""
        return dumps_compact(self.to_dict())


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A summary of one stored game, as listed by `EventStore.games`."""

    id: int
    created: str
    header: JSONObject
    label: str | None
    event_count: int


def _utc_now() -> datetime:
    return datetime.now(UTC)


class EventStore:
    """Games as append-only event logs in one SQLite file (created if missing).

    Use as a context manager, or call `close` when done. ``clock`` (returning an aware
    datetime) replaces the system clock for event and game times, e.g. in golden tests.

    Raises (on opening):
        StoreError: the file's schema is newer than this code knows, or SQLite would not
            switch the database to WAL mode (e.g. ``":memory:"``, which cannot be durable).
        sqlite3.DatabaseError: the file is not an SQLite database.
    """

    def __init__(
        self, path: str | PathLike[str], *, clock: Callable[[], datetime] = _utc_now
    ) -> None:
        self._path = Path(path)
        self._clock = clock
        self._lock = threading.Lock()
        # isolation_level=None: no implicit transactions; every transaction below is an
        # explicit BEGIN … COMMIT, so "committed before returning" is visible in the code.
        try:
            self._conn = sqlite3.connect(
                self._path,
                timeout=_BUSY_TIMEOUT_S,
                isolation_level=None,
                check_same_thread=False,
            )
        except sqlite3.Error as exc:
            raise storage_error(self._path, exc) from exc
        try:
            self._configure()
            self._migrate()
        except sqlite3.Error as exc:
            self._conn.close()
            raise storage_error(self._path, exc) from exc
        except BaseException:
            self._conn.close()
            raise

    # -- lifecycle -----------------------------------------------------------------------

    @property
    def path(self) -> Path:
        """The database file."""
        return self._path

    def close(self) -> None:
        """Close the connection. Safe to call twice; any other call afterwards raises
        `sqlite3.ProgrammingError`."""
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"EventStore({str(self._path)!r})"

    def settings(self) -> dict[str, int | str]:
        """Return the connection's durability settings as SQLite reports them:
        ``journal_mode`` (``"wal"``), ``synchronous`` (2 = FULL), ``foreign_keys`` and
        ``user_version`` (the schema version)."""
        with self._lock:
            return {
                name: self._conn.execute(f"PRAGMA {name}").fetchone()[0]
                for name in ("journal_mode", "synchronous", "foreign_keys", "user_version")
            }

    # -- games ---------------------------------------------------------------------------

    def create_game(self, header: JSONObject, label: str | None = None) -> int:
        """Store a new game with no events and return its id.

        Raises:
            ValueError: ``header`` is not a JSON object with a ``"game"`` string (the record
                format needs one), or holds NaN/infinity.
            TypeError: ``header`` holds something JSON cannot represent.
        """
        problem = check_header(header)
        if problem is not None:
            raise ValueError(problem)
        header_text = dumps_compact(header)
        with self._write() as conn:
            return self._insert_game(conn, header_text, label)

    def games(self) -> list[GameInfo]:
        """List every game, oldest first, with its number of events (reverts included)."""
        return self._list_games("(SELECT COUNT(*) FROM events e WHERE e.game_id = g.id)",
                                "1", ())

    def games_since(self, after: int = 0, ids: Iterable[int] = ()) -> list[GameInfo]:
        """The games with an id above ``after`` or in ``ids``, oldest first, with their last
        seq as ``event_count`` (seqs have no gap): an index look-up per game listed, never a
        count of its events, so it stays cheap however long the log grows."""
        wanted = sorted({int(i) for i in ids})
        return self._list_games(
            "COALESCE((SELECT MAX(e.seq) FROM events e WHERE e.game_id = g.id), 0)",
            f"g.id > ? OR g.id IN ({','.join('?' * len(wanted))})", (after, *wanted))

    def _list_games(self, count: str, where: str, params: tuple[Any, ...]) -> list[GameInfo]:
        with self._lock:
            rows = self._conn.execute(
                f"SELECT g.id, g.created, g.header, g.label, {count} FROM games g"
                f" WHERE {where} ORDER BY g.id", params).fetchall()
        return [GameInfo(id=r[0], created=r[1], header=json.loads(r[2]), label=r[3],
                         event_count=r[4]) for r in rows]

    def header(self, game_id: int) -> JSONObject:
        """Return the game's header.

        Raises:
            UnknownGame: no such game.
        """
        with self._read() as conn:
            return self._read_header(conn, game_id)

    # -- appending -----------------------------------------------------------------------

    def append(
        self,
        game_id: int,
        action: JSONObject,
        source: str,
        *,
        expected_seq: int | None = None,
    ) -> Event:
        """Append an action to the game's log; return the stored event once it is durable.

        ``expected_seq``, if given, is the last seq the caller saw: the append happens only if
        it is still the last one (optimistic concurrency; 0 for a game with no events).

        Raises:
            UnknownGame: no such game.
            ConcurrentAppend: the last seq is not ``expected_seq``; nothing was written.
            ValueError: ``source`` is not one of `SOURCES`; the action holds NaN/infinity.
            TypeError: ``action`` is not a dict or holds something JSON cannot represent.
        """
        _check_source(source)
        if not isinstance(action, dict):
            raise TypeError(f"an action must be a dict (a JSON object), not {type(action)!r}")
        payload_text = dumps_compact(action)
        with self._write() as conn:
            return self._insert_event(
                conn, game_id, source, "action", payload_text, expected_seq=expected_seq
            )

    def append_revert(self, game_id: int, source: str, *, expected_seq: int | None = None) -> Event:
        """Undo the latest action still in effect by appending a ``revert`` event for it.

        Already-reverted actions are skipped, so undoing twice undoes the last two actions.
        ``expected_seq`` works as in `append`.

        Raises:
            UnknownGame: no such game.
            NothingToUndo: every action of the game is already reverted, or there is none.
            ConcurrentAppend: the last seq is not ``expected_seq``; nothing was written.
            ValueError: ``source`` is not one of `SOURCES`.
        """
        _check_source(source)
        with self._write() as conn:
            self._require_game(conn, game_id)
            last = self._last_seq(conn, game_id)
            if expected_seq is not None and expected_seq != last:
                raise ConcurrentAppend(game_id, expected_seq, last)
            target = self._undo_target(conn, game_id)
            if target is None:
                raise NothingToUndo(game_id)
            return self._insert_event(
                conn,
                game_id,
                source,
                "revert",
                dumps_compact({"reverts": target}),
                expected_seq=None,
            )

    # -- reading -------------------------------------------------------------------------

    def events(self, game_id: int, after: int = 0) -> list[Event]:
        """Return the game's events with ``seq > after``, in order, reverts and reverted
        actions included.

        Raises:
            UnknownGame: no such game.
        """
        with self._read() as conn:
            self._require_game(conn, game_id)
            rows = conn.execute(
                "SELECT seq, time, source, kind, payload FROM events"
                " WHERE game_id = ? AND seq > ? ORDER BY seq",
                (game_id, after),
            ).fetchall()
        return [
            Event(game_id, seq, time, source, kind, json.loads(payload))
            for seq, time, source, kind, payload in rows
        ]

    def last_seq(self, game_id: int) -> int:
        """Return the seq of the game's last event, 0 if it has none.

        Raises:
            UnknownGame: no such game.
        """
        with self._read() as conn:
            self._require_game(conn, game_id)
            return self._last_seq(conn, game_id)

    def effective_actions(self, game_id: int) -> list[JSONObject]:
        """Return the payloads of the game's actions that are not reverted, in order: the
        game state is the replay of exactly these.

        Raises:
            UnknownGame: no such game.
        """
        with self._read() as conn:
            self._require_game(conn, game_id)
            return self._read_effective(conn, game_id)

    # -- records -------------------------------------------------------------------------

    def export_record(self, game_id: int) -> str:
        """Return the game as a record (JSON Lines): its header, then its effective actions.

        Raises:
            UnknownGame: no such game.
        """
        with self._read() as conn:  # one snapshot for both reads
            header = self._read_header(conn, game_id)
            actions = self._read_effective(conn, game_id)
        return format_record(header, actions)

    def import_record(self, text: str, label: str | None = None) -> int:
        """Create a game from a record and return its id; each action is appended with
        source ``"import"``. All or nothing: a bad record leaves no game behind.

        Raises:
            RecordError: the record is malformed (see `parse_record`).
        """
        header, actions = parse_record(text)
        header_text = dumps_compact(header)
        action_texts = [dumps_compact(action) for action in actions]
        with self._write() as conn:
            game_id = self._insert_game(conn, header_text, label)
            self._insert_many(conn, game_id, "import", action_texts)
            return game_id

    # -- internals -----------------------------------------------------------------------

    def _configure(self) -> None:
        conn = self._conn
        mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StoreError(
                f"{self._path}: SQLite refused WAL mode (journal_mode is {mode!r}); "
                "the event store needs a database file on a local disk"
            )
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")

    def _migrate(self) -> None:
        with self._write() as conn:
            version: int = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self._path}: schema version {version} is newer than this code's "
                    f"({SCHEMA_VERSION}); upgrade the companion"
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in _statements(_MIGRATIONS[number]):
                    conn.execute(statement)
            if version != SCHEMA_VERSION:
                conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION:d}")

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock and a write transaction; commit on success, roll back on error.

        BEGIN IMMEDIATE takes SQLite's write lock at once, so reading the last seq and
        inserting the next one cannot interleave with another connection's append.
        """
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    yield conn
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.OperationalError as exc:
                if _storage_code(exc) is None:
                    raise
                raise storage_error(self._path, exc) from exc

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """Hold the lock and a read transaction: every query inside sees one snapshot."""
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if conn.in_transaction:
                    conn.execute("COMMIT")

    @staticmethod
    def _read_header(conn: sqlite3.Connection, game_id: int) -> JSONObject:
        row = conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise UnknownGame(game_id)
        header: JSONObject = json.loads(row[0])
        return header

    @staticmethod
    def _read_effective(conn: sqlite3.Connection, game_id: int) -> list[JSONObject]:
        rows = conn.execute(
            "SELECT seq, kind, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        reverted = _reverted_seqs((payload,) for _, kind, payload in rows if kind == "revert")
        return [
            json.loads(payload)
            for seq, kind, payload in rows
            if kind == "action" and seq not in reverted
        ]

    @staticmethod
    def _undo_target(conn: sqlite3.Connection, game_id: int) -> int | None:
        """The seq of the latest action not yet reverted, None if there is none."""
        reverted = _reverted_seqs(
            conn.execute(
                "SELECT payload FROM events WHERE game_id = ? AND kind = 'revert'", (game_id,)
            )
        )
        for (seq,) in conn.execute(
            "SELECT seq FROM events WHERE game_id = ? AND kind = 'action' ORDER BY seq DESC",
            (game_id,),
        ):
            if seq not in reverted:
                return int(seq)
        return None

    def _insert_game(self, conn: sqlite3.Connection, header_text: str, label: str | None) -> int:
        cursor = conn.execute(
            "INSERT INTO games (created, header, label) VALUES (?, ?, ?)",
            (self._now(), header_text, label),
        )
        game_id = cursor.lastrowid
        assert game_id is not None
        return game_id

    def _insert_event(
        self,
        conn: sqlite3.Connection,
        game_id: int,
        source: str,
        kind: EventKind,
        payload_text: str,
        *,
        expected_seq: int | None,
    ) -> Event:
        self._require_game(conn, game_id)
        last = self._last_seq(conn, game_id)
        if expected_seq is not None and expected_seq != last:
            raise ConcurrentAppend(game_id, expected_seq, last)
        time = self._now()
        conn.execute(
            "INSERT INTO events (game_id, seq, time, source, kind, payload)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, last + 1, time, source, kind, payload_text),
        )
        return Event(game_id, last + 1, time, source, kind, json.loads(payload_text))

    def _insert_many(
        self, conn: sqlite3.Connection, game_id: int, source: str, payload_texts: Iterable[str]
    ) -> None:
        first = self._last_seq(conn, game_id) + 1
        time = self._now()
        conn.executemany(
            "INSERT INTO events (game_id, seq, time, source, kind, payload)"
            " VALUES (?, ?, ?, ?, 'action', ?)",
            (
                (game_id, seq, time, source, text)
                for seq, text in enumerate(payload_texts, start=first)
            ),
        )

    @staticmethod
    def _require_game(conn: sqlite3.Connection, game_id: int) -> None:
        if conn.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise UnknownGame(game_id)

    @staticmethod
    def _last_seq(conn: sqlite3.Connection, game_id: int) -> int:
        row = conn.execute("SELECT MAX(seq) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0] or 0)

    def _now(self) -> str:
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the store's clock must return an aware datetime")
        return moment.astimezone(UTC).isoformat(timespec="microseconds")


_FULL_CODES = (sqlite3.SQLITE_FULL,)
_READ_ONLY_CODES = (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN)
_IO_CODES = (sqlite3.SQLITE_IOERR,)


def _storage_code(exc: sqlite3.Error) -> int | None:
    """The primary SQLite result code of ``exc`` if it is the disk's fault, else None."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return None
    primary = int(code) & 0xFF
    return primary if primary in (*_FULL_CODES, *_READ_ONLY_CODES, *_IO_CODES) else None


def storage_error(path: Path, exc: BaseException) -> StoreError:
    """The store's error for a SQLite or OS failure: `StorageFull`, `StorageReadOnly`,
    `StorageUnavailable`, or (not the disk's fault) a plain `StoreError`."""
    import errno

    if isinstance(exc, OSError):
        if exc.errno in (errno.ENOSPC, errno.EDQUOT):
            return StorageFull(path, str(exc))
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StorageReadOnly(path, str(exc))
        return StorageUnavailable(path, str(exc))
    code = _storage_code(exc) if isinstance(exc, sqlite3.Error) else None
    if code in _FULL_CODES:
        return StorageFull(path, str(exc))
    if code in _READ_ONLY_CODES:
        return StorageReadOnly(path, str(exc))
    if code in _IO_CODES:
        return StorageUnavailable(path, str(exc))
    return StoreError(f"{path}: {exc}")


def _check_source(source: str) -> None:
    if source not in SOURCES:
        raise ValueError(f"unknown event source {source!r}; expected one of {sorted(SOURCES)}")


def _reverted_seqs(rows: Iterable[tuple[Any, ...]]) -> set[int]:
    """The seqs named by the ``{"reverts": n}`` payloads in ``rows`` (one-tuples of JSON)."""
    return {int(json.loads(row[0])["reverts"]) for row in rows}


def _statements(script: str) -> Iterator[str]:
    """Split a migration script into statements (executescript would COMMIT on its own)."""
    for part in script.split(";"):
        if part.strip():
            yield part.strip()
