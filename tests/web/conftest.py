"""Fixtures for the page tests: a real app on a temporary SQLite file (Flask test client),
and for the browser tests a real server, Debian's Chromium and a screenshot folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient

from web import runtime_of

TOKEN = "pages-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "games.sqlite3", boxcheck_path=tmp_path / "boxcheck.json", table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def auth() -> dict[str, str]:
    """Headers carrying the table token."""
    return dict(AUTH)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Any]:
    """The app under uvicorn on 127.0.0.1 (`browserkit.Server`)."""
    from browserkit import Server

    s = Server(tmp_path / "games.sqlite3")
    yield s
    s.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never `playwright install`)."""
    from browserkit import CHROMIUM, CHROMIUM_ARGS, needs_playwright

    sync_api = needs_playwright()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``VILLAGE_SCREENSHOTS`` (e.g. docs/screenshots) or a temp dir."""
    target = os.environ.get("VILLAGE_SCREENSHOTS")
    path = Path(target) if target else tmp_path / "shots"
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def runtime(tmp_path: Path) -> Iterator[tuple[Any, str]]:
    """A started table service on a fresh database, served on a free port with the test
    token: (the runtime, its URL). For the pages' sensing tests, which drive the
    reconciler under the runtime's lock."""
    from browserkit import TOKEN, Served

    from companion.runtime import Runtime
    from companion.settings import Settings
    from web import create_app

    rt = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN,
                          boxcheck_path=tmp_path / "boxcheck.json"))
    rt.start()
    served = Served(create_app(rt))
    yield rt, served.url
    served.close()
    rt.close()
