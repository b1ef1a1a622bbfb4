"""Fixtures for the page tests: a real app on a temporary SQLite file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web import create_app, table_service

TOKEN = "pages-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = create_app(
        {
            "DB_PATH": tmp_path / "games.sqlite3",
            "BOXCHECK_PATH": str(tmp_path / "boxcheck.json"),  # not the host's answers
            "TABLE_TOKEN": TOKEN,
            "TESTING": True,
        }
    )
    yield app
    table_service(app).store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def auth() -> dict[str, str]:
    """Headers carrying the table token."""
    return dict(AUTH)
