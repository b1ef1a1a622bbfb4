"""A real Mosquitto and a real PostgreSQL for the hall tests, on loopback, each with its own
temporary directory (TESTBED: real parts).

TESTBED — what works on this machine (Debian 12, tests run as root):

- Mosquitto: ``/usr/sbin/mosquitto -c <conf>`` with ``listener <port> 127.0.0.1``,
  ``allow_anonymous true``, ``persistence false`` (a restart loses what it held: the
  harshest broker restart, the outbox must make up for it). Restarted on the same port.
- PostgreSQL (15 on Debian 12, the newest in /usr/lib/postgresql): the server refuses to run as root, so initdb and pg_ctl run as Debian's
  ``postgres`` system user (``runuser -u postgres -- …``) in a directory made with
  ``tempfile.mkdtemp`` under /tmp and chowned to it (pytest's tmp_path is root's, mode
  0700: postgres cannot enter it). ``initdb -A trust --no-sync``, then ``pg_ctl start -w``
  with ``-p <port> -k <dir> -c listen_addresses=127.0.0.1 -c fsync=off``: about 3 s, once
  per session; each test gets a fresh database (``CREATE DATABASE``). Run as a user
  other than root, the tests start it as that user directly.

A test skips, saying why, when a binary (or paho-mqtt, psycopg) is missing.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"),
             key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
             default=Path("/usr/lib/postgresql/15/bin"))
"""Debian's newest PostgreSQL server binaries (15 on Debian 12)."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``check`` every 50 ms; AssertionError naming ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def _port_open(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
        return True
    return False


class Broker:
    """A Mosquitto process on 127.0.0.1:``port``; ``stop``/``kill`` and ``start`` again."""

    def __init__(self, folder: Path, conf: str = "allow_anonymous true\n",
                 scheme: str = "mqtt") -> None:
        if not Path(MOSQUITTO).exists():
            pytest.skip("mosquitto is not installed (apt-get install mosquitto)")
        self.port = free_port()
        self.scheme = scheme
        self.conf = folder / "mosquitto.conf"
        self.conf.write_text(f"per_listener_settings false\nlistener {self.port} 127.0.0.1\n"
                             f"{conf}persistence false\nuser root\n")
        self.log = folder / "mosquitto.log"
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=log,
                                         stderr=subprocess.STDOUT)
        wait_until(lambda: _port_open(self.port), 10, "mosquitto to listen")

    def kill(self) -> None:
        """SIGKILL: whatever the broker held in memory is gone."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None

    def stop(self) -> None:
        self.kill()


class Postgres:
    """A PostgreSQL server in its own temporary directory; ``database()`` makes a fresh
    database and returns its connection string."""

    def __init__(self) -> None:
        if not (PG_BIN / "pg_ctl").exists():
            pytest.skip(f"PostgreSQL server binaries not found in {PG_BIN}")
        self.folder = Path(tempfile.mkdtemp(prefix="hall-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                pytest.skip("running as root and there is no 'postgres' user to run the server")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self.user = "postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                  self.user, "--no-sync", "-E", "UTF8")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                  str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                  " -c fsync=off", "start")

    def stop(self) -> None:
        with contextlib.suppress(subprocess.SubprocessError):
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def dsn(self, dbname: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{dbname}"

    def database(self) -> str:
        import psycopg

        name = "hall_" + uuid.uuid4().hex[:10]
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.dsn(name)


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
