"""The table under siege from its own Wi-Fi: does it keep playing?

    python -m companion.bench.siege                 # every scenario, full size, a table
    python -m companion.bench.siege --json          # the same as JSON
    python -m companion.bench.siege --only idle,header --scale 0.25

Each scenario starts a real ``companion serve`` (loopback, a fresh database, a 2-player
game), starts an attack from loopback addresses other than the table's, then plays the
table while the attack lasts: each action is posted with the table token and timed until
its event arrives on the table's own live stream (opened with the token), and a player's
private page is fetched and timed. Scenarios (issue 14's list):

- ``idle``: 9,000 connections from one address that never send a byte;
- ``slow``: 16 requests from two addresses whose bodies never finish;
- ``header``: one request with a 64 MB header, then four at once;
- ``streams``: 2,050 live streams from 33 addresses (62 each), the public cap filled;
- ``catch_up``: 16 threads of one address reopening ``/api/events?after=0`` on a game of
  600 events;
- ``slow_readers``: 300 live streams (10 addresses) that never read: the kernel's TCP
  buffer memory (/proc/net/sockstat) before and during, the server's memory during.

Printed per scenario: the table's event latency (p50, p95, max, ms), the slowest player's
page (ms), how many table actions failed, what the attack got (refused, answered…), and the
server's descriptors and memory after.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from companion.bench.crowd import raise_file_limit
from companion.bench.service import (
    TOKEN,
    _Client,
    _free_port,
    _percentile,
    _proc_counts,
    _start_server,
    _stop,
)
from companion.bench.sse import SSEClient
from companion.store import EventStore
from companion.table import TableService

TABLE = "127.0.0.1"
SCENARIOS = ("idle", "slow", "header", "streams", "catch_up", "slow_readers")


class Table:
    """The table's side: a token stream, a token connection for actions, a player's page."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.client = _Client(port)
        self.stream = SSEClient(TABLE, port, f"/api/events?token={TOKEN}", timeout=10)
        tokens = self.client.call("GET", "/api/tokens")["players"]
        self.red = tokens["red"]["token"]

    def play(self, n: int) -> dict[str, Any]:
        """Post ``n`` legal actions; time each until its event is on the table's stream."""
        latencies: list[float] = []
        pages: list[float] = []
        failed = 0
        for _ in range(n):
            legal = self.client.call("GET", "/api/legal")
            if not legal["actions"]:
                break
            action = legal["actions"][0]
            t0 = time.perf_counter()
            try:
                seq = self.client.call("POST", "/api/actions", action)["seq"]
                while True:
                    event = self.stream.next_event()
                    if event.event is None and event.id == str(seq):
                        break
                latencies.append((time.perf_counter() - t0) * 1000)
            except (OSError, RuntimeError):  # ConnectionError, TimeoutError are OSErrors
                failed += 1
            pages.append(self.page())
        return {
            "actions": len(latencies),
            "failed": failed,
            "event_ms": _ms(latencies),
            "player_page_max_ms": round(max(pages), 1) if pages else None,
        }

    def page(self) -> float:
        """Fetch red's private page from another machine (address); ms, or inf on failure."""
        t0 = time.perf_counter()
        conn = http.client.HTTPConnection(TABLE, self.port, timeout=10,
                                          source_address=("127.0.0.9", 0))
        try:
            conn.request("GET", f"/api/state?viewer=red&token={self.red}")
            ok = conn.getresponse().status == 200
        except OSError:
            ok = False
        finally:
            conn.close()
        return (time.perf_counter() - t0) * 1000 if ok else float("inf")

    def close(self) -> None:
        self.stream.close()
        self.client.conn.close()


def _ms(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(_percentile(values, 0.5), 1),
            "p95": round(_percentile(values, 0.95), 1), "max": round(max(values), 1)}


def _connect(source: str, port: int) -> socket.socket | None:
    try:
        return socket.create_connection((TABLE, port), timeout=5, source_address=(source, 0))
    except OSError:
        return None


@contextlib.contextmanager
def idle(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """Connections from one address that never say anything."""
    n = int(9000 * scale)
    socks = [s for s in (_connect("127.0.0.2", port) for _ in range(n)) if s is not None]
    report: dict[str, Any] = {"opened": len(socks)}
    try:
        yield report
    finally:  # the table has played meanwhile: the server has seen every connection
        report["held_by_server"] = sum(1 for s in socks if _still_open(s))
        for s in socks:
            s.close()


def _still_open(sock: socket.socket) -> bool:
    """Whether the server holds ``sock`` open without having answered anything."""
    sock.setblocking(False)
    try:
        sock.recv(1, socket.MSG_PEEK)  # an answer (a 503) or the end: not held
    except BlockingIOError:
        return True
    except OSError:
        return False
    return False


def _answer(sock: socket.socket, timeout: float) -> str:
    """The status line the server answered on ``sock`` (or the error's name); closes it."""
    sock.settimeout(timeout)
    try:
        return sock.recv(64).split(b"\r\n", 1)[0].decode("latin-1")
    except OSError as exc:
        return type(exc).__name__
    finally:
        sock.close()


@contextlib.contextmanager
def slow(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """Requests whose bodies never finish, from two addresses."""
    socks = []
    for i in range(max(2, int(16 * scale))):
        s = _connect(f"127.0.0.{3 + i % 2}", port)
        if s is not None:
            s.sendall(b"POST /api/report HTTP/1.1\r\nHost: t\r\nContent-Type: application/json"
                      b"\r\nContent-Length: 100000\r\n\r\n{\"player\":")
            socks.append(s)
    report: dict[str, Any] = {"sent": len(socks)}
    try:
        yield report
    finally:
        report["answers"] = sorted({_answer(s, 15) for s in socks})


@contextlib.contextmanager
def header(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """Requests with a 64 MB header, four at a time, over and over, from one address."""
    size = int(64 * 1024 * 1024 * scale)
    answers: list[str] = []
    stop = threading.Event()

    def attack() -> None:
        line = b"GET / HTTP/1.1\r\nHost: t\r\nX-Big: " + b"a" * size + b"\r\n\r\n"
        while not stop.is_set():
            s = _connect("127.0.0.5", port)
            if s is None:
                continue
            with contextlib.suppress(OSError):  # the server may close before the end
                s.sendall(line)
            answers.append(_answer(s, 5))

    threads = [threading.Thread(target=attack, daemon=True) for _ in range(4)]
    for t in threads:
        t.start()
    report: dict[str, Any] = {"header_bytes": size, "attackers": len(threads)}
    try:
        yield report
    finally:
        stop.set()
        for t in threads:
            t.join(30)
        report["attempts"] = len(answers)
        report["answers"] = sorted(set(answers))


@contextlib.contextmanager
def streams(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """Live streams from 33 addresses, 62 each (2,046) plus 4 more: the public cap filled."""
    opened: list[SSEClient] = []
    refused = 0
    total = int(2050 * scale)
    for i in range(total):
        try:
            opened.append(SSEClient(TABLE, port, timeout=10, source=f"127.2.0.{1 + i % 33}"))
        except (ConnectionError, OSError):
            refused += 1
    report = {"asked": total, "opened": len(opened), "refused": refused}
    try:
        yield report
    finally:
        for c in opened:
            c.close()


def _tcp_kernel_kb() -> int:
    """Kilobytes of socket buffers the kernel holds for TCP now (/proc/net/sockstat)."""
    for line in Path("/proc/net/sockstat").read_text().splitlines():
        if line.startswith("TCP:"):
            fields = line.split()
            return int(fields[fields.index("mem") + 1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    return -1


@contextlib.contextmanager
def slow_readers(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """Live streams that stop reading (300, from 10 addresses): what they pin in the kernel
    and in the server while the table plays."""
    before = _tcp_kernel_kb()
    readers: list[SSEClient] = []
    for i in range(int(300 * scale)):
        try:
            c = SSEClient(TABLE, port, "/api/events", timeout=10,
                          source=f"127.3.0.{1 + i % 10}")
        except OSError:
            continue
        c._sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        readers.append(c)
    report: dict[str, Any] = {"streams": len(readers), "kernel_tcp_kb_before": before}
    try:
        yield report
    finally:
        report["kernel_tcp_kb_during"] = _tcp_kernel_kb()
        for c in readers:
            c.close()


@contextlib.contextmanager
def catch_up(port: int, scale: float) -> Iterator[dict[str, Any]]:
    """16 threads of one address reopening the whole history (the game is made long)."""
    stop = threading.Event()
    counts = {"opened": 0, "refused": 0}

    def attack() -> None:
        while not stop.is_set():
            try:
                c = SSEClient(TABLE, port, "/api/events?after=0", timeout=10, source="127.0.0.6")
                try:
                    c.next_event()
                finally:
                    c.close()
                counts["opened"] += 1
            except OSError:
                counts["refused"] += 1
                time.sleep(0.05)

    threads = [threading.Thread(target=attack, daemon=True) for _ in range(max(2, int(16 * scale)))]
    for t in threads:
        t.start()
    try:
        yield counts
    finally:
        stop.set()
        for t in threads:
            t.join(15)


def long_game(db: Path, n_events: int) -> None:
    """A two-player game still in progress with ``n_events`` events: 60 actions played,
    then undo/redo pairs of the last one (the state stays the same, the log grows)."""
    with EventStore(db) as store:
        service = TableService(store, TOKEN)
        service.new_game(["red", "blue"])
        for _ in range(60):
            service.submit(service.legal()[0], "demo")
        game_id = service.current_game_id
        assert game_id is not None
        last = store.effective_actions(game_id)[-1]
        while store.last_seq(game_id) < n_events:
            store.append_revert(game_id, "tablet")
            store.append(game_id, last, "tablet")


ATTACKS: dict[str, Callable[[int, float], contextlib.AbstractContextManager[dict[str, Any]]]] = {
    "idle": idle, "slow": slow, "header": header, "streams": streams, "catch_up": catch_up,
    "slow_readers": slow_readers,
}


def run_scenario(name: str, scale: float = 1.0, actions: int = 40) -> dict[str, Any]:
    """Start a server, attack it with ``name``, play the table meanwhile; the report."""
    raise_file_limit(20000)
    with tempfile.TemporaryDirectory(prefix="siege-") as tmp:
        db = Path(tmp) / "siege.sqlite3"
        made_long = name == "catch_up"
        if made_long:
            long_game(db, int(600 * max(scale, 0.1)))
        port = _free_port()
        proc, _ = _start_server(db, port)
        try:
            client = _Client(port)
            if not made_long:
                client.call("POST", "/api/games", {"players": ["red", "blue"]})
            client.conn.close()
            baseline_table = Table(port)
            quiet = baseline_table.play(max(5, actions // 4))
            baseline_table.close()
            with ATTACKS[name](port, scale) as attack:
                table = Table(port)
                under = table.play(actions)
                table.close()
                during = _proc_counts(proc.pid)
            time.sleep(0.5)
            after = _proc_counts(proc.pid)
            return {"scenario": name, "scale": scale, "quiet": quiet, "under_attack": under,
                    "attack": attack, "server_during": during, "server_after": after,
                    "server_alive": proc.poll() is None}
        finally:
            _stop(proc)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.bench.siege",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--only", default=",".join(SCENARIOS),
                        help=f"comma-separated scenarios (default: all of {', '.join(SCENARIOS)})")
    parser.add_argument("--scale", type=float, default=1.0, help="size of each attack (1: full)")
    parser.add_argument("--actions", type=int, default=40, help="table actions per scenario")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in ATTACKS]
    if unknown:
        parser.error(f"unknown scenario(s) {unknown}; known: {list(ATTACKS)}")
    results = []
    for name in names:
        result = run_scenario(name, args.scale, args.actions)
        results.append(result)
        if not args.json:
            u, q = result["under_attack"], result["quiet"]
            print(f"{name:9} table event p50 {u['event_ms'].get('p50')} p95 "
                  f"{u['event_ms'].get('p95')} max {u['event_ms'].get('max')} ms "
                  f"(quiet p95 {q['event_ms'].get('p95')}); player page max "
                  f"{u['player_page_max_ms']} ms; failed {u['failed']}; attack {result['attack']};"
                  f" server {result['server_after']}", flush=True)
    load = os.getloadavg()
    if args.json:
        print(json.dumps({"results": results, "load": load}, indent=1))
    else:
        print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
