"""A real Mosquitto and a real PostgreSQL for the hall tests (`companion.bench.servers`, which
says what works on this machine: TESTBED), on loopback, each with its own temporary
directory; a test skips, saying why, when a binary (or paho-mqtt, psycopg) is missing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bench import servers
from companion.bench.servers import free_port, wait_until

__all__ = ["BROWSER", "Broker", "Postgres", "Process", "free_port", "hall_rows", "need", "play",
           "published_form", "wait_until"]


class Broker(servers.Broker):
    """`companion.bench.servers.Broker`, skipping the test when Mosquitto is missing."""

    def __init__(self, folder: Path, conf: str = "allow_anonymous true\n",
                 scheme: str = "mqtt") -> None:
        try:
            super().__init__(folder, conf, scheme)
        except servers.Missing as exc:
            pytest.skip(str(exc))


class Postgres(servers.Postgres):
    """`companion.bench.servers.Postgres`, skipping the test when PostgreSQL is missing."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except servers.Missing as exc:
            pytest.skip(str(exc))


def need(module: str) -> None:
    """Skip unless ``module`` imports (the ``hall`` extra)."""
    pytest.importorskip(module, reason=f"{module} is not installed (pip install -e '.[hall]')")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    need("psycopg")
    server = Postgres()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    need("paho.mqtt")
    b = Broker(tmp_path)
    b.start()
    try:
        yield b
    finally:
        b.stop()


@pytest.fixture
def dsn(postgres: Postgres) -> str:
    return postgres.database()


def hall_rows(dsn: str, table: str) -> list[tuple[Any, ...]]:
    """The hall's events of ``table``: (game_id, seq, kind, message), in order."""
    import psycopg

    with psycopg.connect(dsn) as conn:
        return conn.execute(
            "SELECT game_id, seq, kind, message FROM hall_events WHERE table_name = %s"
            " ORDER BY game_id, seq", (table,)).fetchall()


def play(service: Any, rng: Any, steps: int, undo_every: int = 0) -> None:
    """Play ``steps`` random legal moves on a `TableService` (virtual draws included: a
    chance step offers its draw request), undoing one every ``undo_every`` moves."""
    for i in range(steps):
        if service.state().phase == "over":
            return
        if undo_every and i % undo_every == undo_every - 1 and service.seq() > 0:
            service.undo()
            continue
        service.submit(rng.choice(service.legal_view()["actions"]))


def published_form(table: str, store: Any) -> list[tuple[int, int, str, dict[str, Any]]]:
    """What the hall must hold for ``table``: every stored event's public form, in order."""
    from companion import games
    from companion.hall.public import public_event

    return [(g.id, e.seq, e.kind, public_event(table, games.for_header(g.header), e))
            for g in store.games() for e in store.events(g.id)]


REPO = Path(__file__).resolve().parents[2]


class Process:
    """``python -m companion.cli ARGS`` from this checkout, its output in ``log``; ``ready``
    waits for a line of it."""

    def __init__(self, log: Path, *args: str) -> None:
        self.log = log
        self.args = args
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": str(REPO)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *self.args],
                                         cwd=REPO, env=env, stdout=out,
                                         stderr=subprocess.STDOUT)
        return self

    def ready(self, text: str, timeout: float = 20) -> None:
        def seen() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"exited: {self.log.read_text(errors='replace')}")
            return text in self.log.read_text(errors="replace")
        wait_until(seen, timeout, repr(text))

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)
        self.proc = None


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-dev-shm-usage"]
BROWSER = [pytest.mark.browser,
           pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing")]
"""The marks of a hall test that drives Debian's Chromium (fixture ``browser``)."""


@pytest.fixture
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (never `playwright install`)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()
