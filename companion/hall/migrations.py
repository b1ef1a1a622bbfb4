"""The hall's PostgreSQL schema: the SQL files in ``companion/hall/migrations/``, applied
in name order, each once, each in its own transaction (recorded in ``hall_migrations``;
two halls starting at once wait on an advisory lock). Append new files, never edit old."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

__all__ = ["MIGRATIONS", "migrate"]

MIGRATIONS: Final = Path(__file__).with_name("migrations")
_LOCK: Final = 0x76696C6C  # the advisory lock's key


def migrate(conn: Any, folder: Path = MIGRATIONS) -> list[str]:
    """Apply the migrations ``conn`` (a psycopg connection) lacks; returns their names.
    Raises psycopg.Error if one fails (that one is rolled back)."""
    applied: list[str] = []
    with conn.transaction():
        conn.execute("CREATE TABLE IF NOT EXISTS hall_migrations ("
                     " name text PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())")
    for path in sorted(folder.glob("*.sql")):
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
            done = conn.execute("SELECT 1 FROM hall_migrations WHERE name = %s",
                                (path.name,)).fetchone()
            if done:
                continue
            conn.execute(path.read_text(encoding="utf-8"))
            conn.execute("INSERT INTO hall_migrations (name) VALUES (%s)", (path.name,))
            applied.append(path.name)
    return applied
