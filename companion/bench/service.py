"""Benchmark of the table service; prints one JSON object.

    python -m companion.bench.service [--actions 1000] [--restart-events 2000]
    python -m companion.bench.service --clients 500 [--crowd-actions 200] [--churn 10]

With ``--clients N``, the live-feed load instead (`bench_crowd`): N streams open from
distinct loopback addresses while one client plays legal actions, another loads pages and
the state, and every 10 actions ``--churn`` streams vanish (TCP reset) and as many new ones
resume. It prints delivery completeness and order, POST → event and GET latency
percentiles, the mean size of a stored event's data as the streams received it
(``event_bytes_mean``), and the server's RSS, threads and open files (before, under load,
after).

- ``latency_ms``: action POST → the same event read by one SSE client, p50/p95/max, over
  ``--actions`` legal actions posted one after another to a real server process
  (``python -m companion.serve`` under uvicorn on 127.0.0.1; virtual draws included).
- ``restart``: a four-player game played to its end with undo/redo pairs until its log
  holds ``--restart-events`` events; the time to open the store and replay it into a
  `TableService` (what a restart does), best of 5, the time of the first table log after it
  (``first_log_s``: every event narrated), and the time until a restarted server process
  accepts connections.
- ``server_rss_mb``: resident memory of the server process after the latency run.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from companion.bench.crowd import Crowd, Member
from companion.bench.sse import SSEClient
from companion.store import EventStore
from companion.table.limits import raise_file_limit
from companion.table.service import TableService

TOKEN = "bench-token"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start_server(db: Path, port: int) -> tuple[subprocess.Popen[bytes], float]:
    """Start a server process; return it and the seconds until it accepted a connection."""
    args = [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", str(port)]
    args += ["--db", str(db), "--token", TOKEN, "--no-qr"]
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, time.perf_counter() - t0
        except OSError:
            if proc.poll() is not None or time.perf_counter() - t0 > 30:
                raise RuntimeError("the server did not start") from None
            time.sleep(0.01)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Client:
    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
        self.conn.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.conn.getresponse()
        data = json.loads(response.read() or b"null")
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data}")
        return data


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _proc_counts(pid: int) -> dict[str, float]:
    threads = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
    fds = len(list(Path(f"/proc/{pid}/fd").iterdir()))
    return {"threads": threads, "fds": fds, "rss_mb": round(_rss_mb(pid), 1)}


def _summary(values: list[float]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    return {
        "n": len(values),
        "p50": round(statistics.median(values), 2),
        "p95": round(_percentile(values, 0.95), 2),
        "max": round(max(values), 2),
    }


def check_delivery(members: list[Member], last_seq: int) -> dict[str, int]:
    """Every member got every seq after its ``after`` in order, once: a live member up to
    ``last_seq``, a dropped one a gap-free prefix. Counts of members that did and did not."""
    complete = in_order = broken = 0
    for m in members:
        seqs = [seq for seq, _ in m.received]
        expected = list(range((m.after or 0) + 1, last_seq + 1))
        if seqs == expected[: len(seqs)]:
            in_order += 1
            if m.live and len(seqs) == len(expected):
                complete += 1
        else:
            broken += 1
    live = sum(1 for m in members if m.live)
    return {"streams": len(members), "live_at_end": live, "complete": complete,
            "in_order": in_order, "out_of_order_or_missing": broken}


def bench_crowd(
    n_clients: int, n_actions: int, churn: int, workdir: Path, pause: float = 0.02
) -> dict[str, Any]:
    """The live feed under ``n_clients`` streams with churn (see the module docstring)."""
    raise_file_limit(2 * n_clients + 512)
    port = _free_port()
    proc, _ = _start_server(workdir / "crowd.sqlite3", port)
    rng = random.Random(3)
    post_ms: list[float] = []
    get_ms: list[float] = []
    stop = threading.Event()
    try:
        client = _Client(port)
        client.call("POST", "/api/games", {"players": ["red", "yellow", "blue", "white"]})
        client.call("GET", "/api/state")
        before = _proc_counts(proc.pid)
        seq = int(client.call("GET", "/api/state")["seq"])

        def reader() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            paths = ["/api/state", "/api/legal", "/", "/api/games"]
            i = 0
            while not stop.is_set():
                t0 = time.perf_counter()
                conn.request("GET", paths[i % len(paths)])
                conn.getresponse().read()
                get_ms.append((time.perf_counter() - t0) * 1000)
                i += 1
                time.sleep(0.02)
            conn.close()

        with Crowd("127.0.0.1", port) as crowd:
            t_open = time.perf_counter()
            for _ in range(n_clients):
                crowd.join(after=seq)
            open_s = time.perf_counter() - t_open
            getter = threading.Thread(target=reader, daemon=True)
            getter.start()
            under_load = _proc_counts(proc.pid)
            timeouts = 0
            cpu0, wall0 = _cpu_s(proc.pid), time.perf_counter()
            for i in range(n_actions):
                legal = client.call("GET", "/api/legal")["actions"]
                if not legal:
                    break
                t0 = time.perf_counter()
                seq = int(client.call("POST", "/api/actions", rng.choice(legal))["seq"])
                if not crowd.wait_for(seq, timeout=10):
                    timeouts += 1
                for m in crowd.live():
                    got = [t for s, t in m.received[-3:] if s == seq]
                    if got:
                        post_ms.append((got[0] - t0) * 1000)
                if churn and i % 10 == 9:
                    for m in rng.sample(crowd.live(), min(churn, len(crowd.live()))):
                        crowd.drop(m)
                    for _ in range(churn):
                        crowd.join(after=seq)
                if i == n_actions // 2:
                    under_load = _proc_counts(proc.pid)
                time.sleep(pause)
            cpu = _cpu_s(proc.pid) - cpu0
            wall = time.perf_counter() - wall0
            stop.set()
            getter.join(10)
            time.sleep(0.5)
            delivery = check_delivery(crowd.members, seq)
            received = sum(len(m.received) for m in crowd.members)
            event_bytes = sum(m.data_bytes for m in crowd.members) / max(1, received)
            delivery["wait_timeouts"] = timeouts
        time.sleep(5)  # closed streams are released (a reset: at once; silence: ≤ 5 s)
        after = _proc_counts(proc.pid)
    finally:
        stop.set()
        _stop(proc)
    return {
        "clients": n_clients,
        "actions": len(post_ms) and n_actions,
        "open_streams_s": round(open_s, 2),
        "delivery": delivery,
        "post_to_event_ms": _summary(post_ms),
        "server_cpu_ms_per_action": round(1000 * cpu / max(1, n_actions), 2),
        "server_cpu_share": round(cpu / wall, 2),
        "event_bytes_mean": round(event_bytes),
        "load_average": os.getloadavg()[0],
        "get_ms": _summary(get_ms),
        "server_before": before,
        "server_under_load": under_load,
        "server_after": after,
    }


def bench_latency(n_actions: int, workdir: Path) -> dict[str, Any]:
    """POST → SSE delivery latency over ``n_actions`` actions on a real server."""
    port = _free_port()
    proc, _ = _start_server(workdir / "latency.sqlite3", port)
    try:
        client = _Client(port)
        client.call("POST", "/api/games", {"players": ["red", "yellow", "blue", "white"]})
        seen: dict[tuple[int, int], float] = {}
        ready = threading.Event()
        done = threading.Event()
        cond = threading.Condition()

        def listen() -> None:
            with SSEClient("127.0.0.1", port, timeout=60) as sse:
                ready.set()
                while not done.is_set():
                    try:
                        data = sse.next_event().json()
                    except (ConnectionError, TimeoutError):
                        return  # the server stopped at the end of the run
                    with cond:
                        seen[(data["game_id"], data["seq"])] = time.perf_counter()
                        cond.notify_all()

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        ready.wait(10)
        rng = random.Random(1)
        latencies: list[float] = []
        games = 1
        while len(latencies) < n_actions:
            legal = client.call("GET", "/api/legal")
            if not legal["actions"]:
                client.call("POST", "/api/games", {"players": ["red", "yellow", "blue", "white"]})
                games += 1
                continue
            action = rng.choice(legal["actions"])
            t0 = time.perf_counter()
            answer = client.call("POST", "/api/actions", action)
            key = (answer["game_id"], answer["seq"])
            with cond:
                cond.wait_for(lambda key=key: key in seen, timeout=10)  # type: ignore[misc]
                latencies.append((seen[key] - t0) * 1000)
        done.set()
        rss = _rss_mb(proc.pid)
    finally:
        _stop(proc)
    return {
        "actions": len(latencies),
        "games": games,
        "p50": round(statistics.median(latencies), 2),
        "p95": round(_percentile(latencies, 0.95), 2),
        "max": round(max(latencies), 2),
        "server_rss_mb": round(rss, 1),
    }


def build_long_game(db: Path, n_events: int) -> dict[str, int]:
    """A four-player game with ``n_events`` events: played to the end, plus undo/redo pairs
    spread over it. Returns its event and effective action counts."""
    rng = random.Random(2)
    with EventStore(db) as store:
        service = TableService(store, TOKEN)
        service.new_game(["red", "yellow", "blue", "white"])
        while actions := service.legal():
            service.submit(rng.choice(actions), "demo")
        played = service.seq()
        pairs = max(0, (n_events - played + 1) // 2)
        game_id = service.current_game_id
        assert game_id is not None
        # Undo/redo pairs on the last action keep the game the same and lengthen its log.
        last = store.effective_actions(game_id)[-1]
        for _ in range(pairs):
            store.append_revert(game_id, "tablet")
            store.append(game_id, last, "tablet")
        return {"events": store.last_seq(game_id), "effective_actions": played}


def bench_restart(n_events: int, workdir: Path) -> dict[str, Any]:
    """Restart time of a long game: open + replay in process, and a whole server process."""
    db = workdir / "restart.sqlite3"
    counts = build_long_game(db, n_events)
    times = []
    log_times = []
    for _ in range(5):
        t0 = time.perf_counter()
        with EventStore(db) as store:
            service = TableService(store, TOKEN)
            service.public_view()
            t1 = time.perf_counter()
            service.log()  # the table log, narrated from the stored events on first use
            log_times.append(time.perf_counter() - t1)
        times.append(t1 - t0)
    port = _free_port()
    proc, process_start = _start_server(db, port)
    try:
        state = _Client(port).call("GET", "/api/state")
        rss = _rss_mb(proc.pid)
    finally:
        _stop(proc)
    assert state["seq"] == counts["events"]
    return {
        **counts,
        "open_and_replay_s": round(min(times), 3),
        "first_log_s": round(min(log_times), 3),
        "server_process_start_s": round(process_start, 3),
        "server_rss_mb": round(rss, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print their JSON."""
    parser = argparse.ArgumentParser(prog="python -m companion.bench.service")
    parser.add_argument("--actions", type=int, default=1000)
    parser.add_argument("--restart-events", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=0, help="run the live-feed load instead")
    parser.add_argument("--crowd-actions", type=int, default=200)
    parser.add_argument("--churn", type=int, default=10)
    args = parser.parse_args(argv)
    if args.clients:
        with tempfile.TemporaryDirectory(prefix="village-bench-") as tmp:
            crowd = bench_crowd(args.clients, args.crowd_actions, args.churn, Path(tmp))
        print(json.dumps(crowd, indent=2))
        return 0
    with tempfile.TemporaryDirectory(prefix="village-bench-") as tmp:
        workdir = Path(tmp)
        latency = bench_latency(args.actions, workdir)
        restart = bench_restart(args.restart_events, workdir)
    result = {
        "latency_ms": {k: latency[k] for k in ("actions", "games", "p50", "p95", "max")},
        "restart": restart,
        "server_rss_mb": latency["server_rss_mb"],
    }
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
