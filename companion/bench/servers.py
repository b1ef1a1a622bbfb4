"""A real Mosquitto and a real PostgreSQL on loopback, each in a temporary directory of its
own, for the hall's bench and tests.

What works on Debian 12 (run as root or not):

- Mosquitto: ``/usr/sbin/mosquitto -c <conf>`` with ``listener <port> 127.0.0.1`` and
  ``persistence false`` (a restart loses what it held: the harshest broker restart, the
  outbox must make up for it); restarted on the same port.
- PostgreSQL (Debian's newest in /usr/lib/postgresql): the server refuses to run as root,
  so as root ``initdb`` and ``pg_ctl`` run as the ``postgres`` system user (``runuser``) in a
  directory made with ``tempfile.mkdtemp`` and given to it. ``initdb -A trust --no-sync``,
  then ``pg_ctl start -w`` with ``-c listen_addresses=127.0.0.1 -c fsync=off``: about 3 s;
  ``database()`` makes a fresh database.

Both raise `Missing` when their binaries (or the ``postgres`` user, as root) are not there.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

__all__ = ["MOSQUITTO", "PG_BIN", "Broker", "Missing", "Postgres", "free_port", "wait_until"]

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
PG_BIN = max(Path("/usr/lib/postgresql").glob("*/bin"),
             key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
             default=Path("/usr/lib/postgresql/15/bin"))
"""Debian's newest PostgreSQL server binaries (15 on Debian 12)."""


class Missing(RuntimeError):
    """A server binary (or the user to run it as) is not on this machine."""


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
    """A Mosquitto process on 127.0.0.1:``port``; ``kill`` and ``start`` again. ``conf``:
    more configuration lines (default: anyone may connect). Raises `Missing`."""

    def __init__(self, folder: Path, conf: str = "allow_anonymous true\n",
                 scheme: str = "mqtt") -> None:
        if not Path(MOSQUITTO).exists():
            raise Missing("mosquitto is not installed (apt-get install mosquitto)")
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
    database and returns its connection string. Raises `Missing`."""

    def __init__(self) -> None:
        if not (PG_BIN / "pg_ctl").exists():
            raise Missing(f"PostgreSQL server binaries not found in {PG_BIN}")
        self._as: list[str] = []
        uid = gid = -1
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise Missing("running as root and there is no 'postgres' user") from None
            uid, gid = user.pw_uid, user.pw_gid
            self._as = ["runuser", "-u", "postgres", "--"]
        self.folder = Path(tempfile.mkdtemp(prefix="hall-pg-"))
        if uid >= 0:
            os.chown(self.folder, uid, gid)
        self.data = self.folder / "data"
        self.port = free_port()
        self.user = "postgres"

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as, *args], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-A", "trust", "-U",
                  self.user, "--no-sync", "-E", "UTF8")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-w", "-l",
                  str(self.folder / "log"), "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1"
                  " -c fsync=off -c max_connections=200", "start")

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
