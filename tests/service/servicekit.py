"""Helpers and fixtures for the service tests: a real app on a temporary SQLite file, and a real server
process (``python -m companion.serve``) on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient

from companion.table import TableService
from web import runtime_of, table_service

TOKEN = "test-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def app(db_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=db_path, table_token=TOKEN)
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def service(app: Flask) -> TableService:
    return table_service(app)


@pytest.fixture
def game(client: FlaskClient) -> int:
    """A new two-player game (red first), created through the API."""
    r = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert r.status_code == 201, r.get_json()
    game_id: int = r.get_json()["game_id"]
    return game_id


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServerProcess:
    """``python -m companion.serve`` on 127.0.0.1 and a free port, for real HTTP tests."""

    def __init__(self, db: Path, *extra: str) -> None:
        self.db = db
        self.port = free_port()
        self.extra = extra
        self.proc: subprocess.Popen[str] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ServerProcess:
        args = [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "--db", str(self.db), "--token", TOKEN, "--no-qr"]
        self.proc = subprocess.Popen(
            [*args, *self.extra],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                if self.proc.poll() is not None:
                    out = self.proc.stdout.read() if self.proc.stdout else ""
                    raise RuntimeError(f"server exited: {out}") from None
                time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        if self.proc is not None and self.proc.stdout:
            self.proc.stdout.close()


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    started: list[ServerProcess] = []

    def make(*extra: str, db: Path | None = None) -> ServerProcess:
        server = ServerProcess(db or tmp_path / "server.sqlite3", *extra)
        started.append(server)
        return server.start()

    yield make
    for server in started:
        server.kill()


def play_to_end(
    post: Callable[[dict[str, Any]], Any], legal: Callable[[], list[dict[str, Any]]], rng: Any
) -> int:
    """Post random entries of the legal list until it is empty; return how many."""
    n = 0
    while actions := legal():
        post(rng.choice(actions))
        n += 1
    return n
