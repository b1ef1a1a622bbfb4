"""The tag registry: which NFC tag (UID) sits under which piece.

The 48 pieces are the 11 family members of each colour (``red-1a`` … ``red-4b``, the ids of
the game record) and the four black monks ``monk-1`` … ``monk-4``. Each piece has at most
one tag in use; a tag belongs to at most one piece. Enrolling a piece again (a spare tag
for a lost one) moves the piece to the new tag and *retires* the old UID, which then
means nothing (a retired tag may be enrolled again later).

Storage: the table ``tag_registry`` in the same SQLite file as the games (the event store's
database), so one file holds the whole installation and one backup copies it. The table is
not part of the event store's numbered schema (``PRAGMA user_version`` is the store's); it
is created here with ``CREATE TABLE IF NOT EXISTS`` and never touches the store's tables.
Each call opens its own short connection, so a registry object may be shared by threads
and processes (the CLI enrolling while the server runs) without holding the file open.

Export/import: `TagRegistry.export` gives a JSON object (``format``, ``version``, ``tags``)
and `TagRegistry.import_` replaces the registry with one, all or nothing.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from os import PathLike
from pathlib import Path
from typing import Any, Final

from companion.village.vocabulary import Color, member_ids

__all__ = [
    "COLOURS",
    "EXPORT_FORMAT",
    "PIECES",
    "Enrolment",
    "TagError",
    "TagRegistry",
    "TagTaken",
    "normalise_uid",
    "piece_label",
    "pieces_of",
]

COLOURS: Final[tuple[str, ...]] = (*(c.value for c in Color), "monk")
MONKS: Final[tuple[str, ...]] = tuple(f"monk-{n}" for n in range(1, 5))
PIECES: Final[tuple[str, ...]] = (*(m for c in Color for m in member_ids(c)), *MONKS)
"""All 48 pieces in enrolment order: each colour's members oldest first, then the monks."""

EXPORT_FORMAT: Final = "village-companion/tags"
EXPORT_VERSION: Final = 1
UID_DIGITS: Final = (8, 14, 20)  # 4-, 7- and 10-byte UIDs
_ORDINALS: Final = ("first", "second", "third", "fourth")
_TIMEOUT_S: Final = 10.0

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS tag_registry (
    uid      TEXT PRIMARY KEY,            -- upper-case hex, no separators
    piece    TEXT NOT NULL,               -- red-1a … white-4b, monk-1 … monk-4
    enrolled TEXT NOT NULL,               -- UTC, ISO 8601
    retired  TEXT                         -- UTC, ISO 8601; NULL while in use
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS tag_registry_piece_in_use
    ON tag_registry(piece) WHERE retired IS NULL;
"""


class TagError(ValueError):
    """A UID that is not hex of a tag's length, an unknown piece, or a bad export file."""


class TagTaken(TagError):
    """The tag is already enrolled to another piece."""

    def __init__(self, uid: str, piece: str) -> None:
        super().__init__(
            f"tag {uid} is already enrolled to {piece} ({piece_label(piece)}); "
            f"take another tag, or retire this one first (companion tags retire {uid})"
        )
        self.uid = uid
        self.piece = piece


@dataclass(frozen=True, slots=True)
class Enrolment:
    """What `TagRegistry.enrol` did: ``replaced`` is the piece's previous UID (now retired),
    ``already`` is True when the tag was enrolled to this piece before (nothing changed)."""

    uid: str
    piece: str
    replaced: str | None = None
    already: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "piece": self.piece, "label": piece_label(self.piece),
                "replaced": self.replaced, "already": self.already}


def normalise_uid(text: str) -> str:
    """``"04:a2 b3-c4"`` → ``"04A2B3C4"``. Raises TagError unless it is 4, 7 or 10 bytes of
    hex (separators ``:``, ``-`` and spaces allowed)."""
    if not isinstance(text, str):
        raise TagError(f"a UID is a string of hex digits, not {type(text).__name__}")
    uid = re.sub(r"[\s:\-]", "", text).upper()
    if not re.fullmatch(r"[0-9A-F]+", uid) or len(uid) not in UID_DIGITS:
        raise TagError(f"{text!r} is not a tag UID (4, 7 or 10 bytes of hex, like 04A2B3C4)")
    return uid


def check_piece(piece: str) -> str:
    """Return ``piece`` if it is one of `PIECES`; raises TagError otherwise."""
    if piece not in PIECES:
        raise TagError(f"{piece!r} is not a piece (red-1a … white-4b, monk-1 … monk-4)")
    return piece


def piece_label(piece: str) -> str:
    """What to say when asking for a piece: ``red-1a`` → ``"red 1, first copy"``,
    ``monk-2`` → ``"black monk 2"``. Raises TagError for an unknown piece."""
    check_piece(piece)
    colour, _, rest = piece.partition("-")
    if colour == "monk":
        return f"black monk {rest}"
    return f"{colour} {rest[0]}, {_ORDINALS['abcd'.index(rest[1])]} copy"


def pieces_of(colours: Iterable[str] | None = None) -> tuple[str, ...]:
    """The pieces of the given colours (``red`` … ``white``, ``monk``), in enrolment order;
    all 48 for None. Raises TagError for an unknown colour."""
    if colours is None:
        return PIECES
    wanted = set(colours)
    unknown = wanted - set(COLOURS)
    if unknown:
        raise TagError(f"unknown colour {sorted(unknown)[0]!r}: choose from {', '.join(COLOURS)}")
    return tuple(p for p in PIECES if p.partition("-")[0] in wanted)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class TagRegistry:
    """UID → piece in the table ``tag_registry`` of an SQLite file (created if missing).

    Raises (on creation): sqlite3.DatabaseError if the file is not an SQLite database.
    """

    def __init__(self, path: str | PathLike[str]) -> None:
        self._path = Path(path)
        with self._connect() as conn:
            conn.executescript(_SCHEMA)

    @property
    def path(self) -> Path:
        return self._path

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        conn = sqlite3.connect(self._path, timeout=_TIMEOUT_S, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous=FULL")
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with self._connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    # -- reading ---------------------------------------------------------------------------

    def lookup(self, uid: str) -> str | None:
        """The piece a tag is enrolled to, None for an unknown or retired tag (or a string
        that is not a UID: a tap of garbage is just unknown)."""
        try:
            uid = normalise_uid(uid)
        except TagError:
            return None
        with self._connect() as conn:
            row = conn.execute(
                "SELECT piece FROM tag_registry WHERE uid = ? AND retired IS NULL", (uid,)
            ).fetchone()
        return None if row is None else str(row[0])

    def uid_of(self, piece: str) -> str | None:
        """The tag in use for a piece, None if it has none. Raises TagError for an unknown
        piece."""
        check_piece(piece)
        with self._connect() as conn:
            row = conn.execute(
                "SELECT uid FROM tag_registry WHERE piece = ? AND retired IS NULL", (piece,)
            ).fetchone()
        return None if row is None else str(row[0])

    def enrolled(self) -> dict[str, str]:
        """Every piece with a tag in use: piece → UID, in `PIECES` order."""
        with self._connect() as conn:
            rows = dict(
                conn.execute("SELECT piece, uid FROM tag_registry WHERE retired IS NULL")
            )
        return {p: str(rows[p]) for p in PIECES if p in rows}

    def missing(self, colours: Iterable[str] | None = None) -> tuple[str, ...]:
        """The pieces (of the given colours; all for None) without a tag, in order."""
        have = self.enrolled()
        return tuple(p for p in pieces_of(colours) if p not in have)

    def retired(self) -> list[str]:
        """UIDs retired (replaced by a spare or by hand), oldest retirement first."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT uid FROM tag_registry WHERE retired IS NOT NULL ORDER BY retired, uid"
            ).fetchall()
        return [str(r[0]) for r in rows]

    # -- changing --------------------------------------------------------------------------

    def enrol(self, uid: str, piece: str) -> Enrolment:
        """Put tag ``uid`` under ``piece``. If the piece had another tag, that tag is retired
        (a spare replaces a lost one). A retired tag may be enrolled again.

        Raises:
            TagError: ``uid`` is not a UID or ``piece`` not a piece.
            TagTaken: the tag is in use for another piece (nothing is changed).
        """
        uid = normalise_uid(uid)
        check_piece(piece)
        with self._write() as conn:
            row = conn.execute(
                "SELECT piece FROM tag_registry WHERE uid = ? AND retired IS NULL", (uid,)
            ).fetchone()
            if row is not None:
                if row[0] == piece:
                    return Enrolment(uid, piece, already=True)
                raise TagTaken(uid, str(row[0]))
            old = conn.execute(
                "SELECT uid FROM tag_registry WHERE piece = ? AND retired IS NULL", (piece,)
            ).fetchone()
            now = _now()
            if old is not None:
                conn.execute("UPDATE tag_registry SET retired = ? WHERE uid = ?", (now, old[0]))
            conn.execute(
                "INSERT INTO tag_registry (uid, piece, enrolled, retired) VALUES (?, ?, ?, NULL)"
                " ON CONFLICT(uid) DO UPDATE SET piece = excluded.piece,"
                " enrolled = excluded.enrolled, retired = NULL",
                (uid, piece, now),
            )
        return Enrolment(uid, piece, replaced=None if old is None else str(old[0]))

    def undo(self, enrolment: Enrolment) -> None:
        """Take back an enrolment just made: the tag is forgotten and a UID it replaced is in
        use again. Does nothing for an ``already`` enrolment. Raises TagError if the tag is
        no longer enrolled to that piece (something changed since)."""
        if enrolment.already:
            return
        with self._write() as conn:
            row = conn.execute(
                "SELECT piece FROM tag_registry WHERE uid = ? AND retired IS NULL",
                (enrolment.uid,),
            ).fetchone()
            if row is None or row[0] != enrolment.piece:
                raise TagError(
                    f"tag {enrolment.uid} is no longer enrolled to {enrolment.piece}; "
                    "nothing to undo"
                )
            conn.execute("DELETE FROM tag_registry WHERE uid = ?", (enrolment.uid,))
            if enrolment.replaced:
                conn.execute(
                    "UPDATE tag_registry SET retired = NULL WHERE uid = ? AND piece = ?",
                    (enrolment.replaced, enrolment.piece),
                )

    def retire(self, uid: str) -> str:
        """Retire a tag in use (lost, broken); returns the piece it was enrolled to, which
        now has no tag. Raises TagError if the tag is not in use."""
        uid = normalise_uid(uid)
        with self._write() as conn:
            row = conn.execute(
                "SELECT piece FROM tag_registry WHERE uid = ? AND retired IS NULL", (uid,)
            ).fetchone()
            if row is None:
                raise TagError(f"tag {uid} is not enrolled")
            conn.execute("UPDATE tag_registry SET retired = ? WHERE uid = ?", (_now(), uid))
        return str(row[0])

    # -- export / import -------------------------------------------------------------------

    @staticmethod
    def empty_export() -> dict[str, Any]:
        """The export of a registry with no tags."""
        return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "tags": []}

    def export(self) -> dict[str, Any]:
        """The registry as a JSON object: ``{"format", "version", "tags": [{uid, piece,
        enrolled, retired}…]}`` (tags in use first, in piece order, then retired ones)."""
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT uid, piece, enrolled, retired FROM tag_registry"
            ).fetchall()
        order = {p: i for i, p in enumerate(PIECES)}
        rows.sort(key=lambda r: (r[3] is not None, order.get(r[1], 99), r[3] or "", r[0]))
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "tags": [
                {"uid": u, "piece": p, "enrolled": e, "retired": r} for u, p, e, r in rows
            ],
        }

    def import_(self, data: Mapping[str, Any]) -> int:
        """Replace the whole registry with an export; returns the number of tags in use.
        Everything is checked before anything changes.

        Raises TagError: not an export of this format/version, a bad UID or piece, a UID
        listed twice, or a piece with two tags in use.
        """
        if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
            raise TagError(f"not a tag registry export (format {EXPORT_FORMAT!r} expected)")
        if data.get("version") != EXPORT_VERSION:
            raise TagError(f"tag registry export version {data.get('version')!r} is not "
                           f"{EXPORT_VERSION}; upgrade the companion")
        tags = data.get("tags")
        if not isinstance(tags, list):
            raise TagError("the export's 'tags' must be a list")
        rows: list[tuple[str, str, str, str | None]] = []
        uids: set[str] = set()
        in_use: dict[str, str] = {}
        for i, t in enumerate(tags):
            if not isinstance(t, Mapping):
                raise TagError(f"tags[{i}] is not an object")
            uid = normalise_uid(t.get("uid"))  # type: ignore[arg-type]
            piece = check_piece(str(t.get("piece")))
            enrolled = t.get("enrolled") or _now()
            retired = t.get("retired")
            if not isinstance(enrolled, str) or not (retired is None or isinstance(retired, str)):
                raise TagError(f"tags[{i}]: 'enrolled' and 'retired' are ISO times or null")
            if uid in uids:
                raise TagError(f"tag {uid} is listed twice")
            uids.add(uid)
            if retired is None:
                if piece in in_use:
                    raise TagError(f"{piece} has two tags in use: {in_use[piece]} and {uid}")
                in_use[piece] = uid
            rows.append((uid, piece, enrolled, retired))
        with self._write() as conn:
            conn.execute("DELETE FROM tag_registry")
            conn.executemany(
                "INSERT INTO tag_registry (uid, piece, enrolled, retired) VALUES (?, ?, ?, ?)",
                rows,
            )
        return len(in_use)
