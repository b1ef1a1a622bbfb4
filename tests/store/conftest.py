"""Fixtures for the event store tests: a real SQLite file in a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.store import EventStore

HEADER = {"game": "village", "version": 1, "players": ["red", "blue"], "expansions": []}


@pytest.fixture
def header() -> dict[str, object]:
    """A fresh copy of a typical game header."""
    return dict(HEADER)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[EventStore]:
    with EventStore(db_path) as s:
        yield s


@pytest.fixture
def game(store: EventStore) -> int:
    return store.create_game(dict(HEADER), label="test game")
