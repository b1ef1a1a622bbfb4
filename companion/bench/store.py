"""Measure the event store on this machine's disk.

    python -m companion.bench.store --events 2000

Appends ``--events`` events to a fresh game (every ``--undo-every``-th one an undo), each
committed with ``synchronous=FULL`` as in production, then times reading the game back.
Prints one JSON object; times are wall-clock.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.store.event_store import EventStore


def _action(n: int) -> dict[str, Any]:
    """A made-up action about the size of a real one (~100 bytes of JSON)."""
    return {
        "type": "take_action",
        "player": ("red", "blue", "green", "yellow")[n % 4],
        "space": ("farm", "craft", "travel", "market", "council", "church")[n % 6],
        "cubes": [n % 5, (n + 1) % 5],
        "n": n,
    }


def run(db: Path, events: int, undo_every: int) -> dict[str, Any]:
    """Run the benchmark on a new database at ``db`` and return the measurements."""
    with EventStore(db) as store:
        game = store.create_game({"game": "bench", "version": 1})
        latencies: list[float] = []
        start = time.perf_counter()
        for n in range(1, events + 1):
            t0 = time.perf_counter()
            if undo_every and n % undo_every == 0:
                store.append_revert(game, "demo")
            else:
                store.append(game, _action(n), "demo")
            latencies.append(time.perf_counter() - t0)
        append_s = time.perf_counter() - start
        settings = store.settings()

    # Read back through a new store object, as the server does after a restart.
    start = time.perf_counter()
    with EventStore(db) as store:
        opened_s = time.perf_counter() - start
        t0 = time.perf_counter()
        log = store.events(game)
        events_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        effective = store.effective_actions(game)
        effective_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        record = store.export_record(game)
        export_s = time.perf_counter() - t0

    latencies.sort()
    return {
        "events": len(log),
        "effective_actions": len(effective),
        "sqlite_version": sqlite3.sqlite_version,
        "journal_mode": settings["journal_mode"],
        "synchronous": settings["synchronous"],
        "append_total_s": round(append_s, 3),
        "appends_per_s": round(events / append_s, 1),
        "append_ms_median": round(statistics.median(latencies) * 1e3, 3),
        "append_ms_p99": round(latencies[int(0.99 * (len(latencies) - 1))] * 1e3, 3),
        "open_ms": round(opened_s * 1e3, 2),
        "read_events_ms": round(events_s * 1e3, 2),
        "effective_actions_ms": round(effective_s * 1e3, 2),
        "read_and_effective_ms": round((events_s + effective_s) * 1e3, 2),
        "export_record_ms": round(export_s * 1e3, 2),
        "record_bytes": len(record.encode("utf-8")),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Parse arguments, run the benchmark, print its JSON; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m companion.bench.store", description=__doc__)
    parser.add_argument("--events", type=int, default=2000, help="events to append (2000)")
    parser.add_argument(
        "--undo-every", type=int, default=25, help="make every Nth event an undo (25; 0: none)"
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="directory for the database (a new temp dir)"
    )
    args = parser.parse_args(argv)
    if args.events < 1:
        parser.error("--events must be at least 1")
    with tempfile.TemporaryDirectory(dir=args.dir, prefix="store-bench-") as tmp:
        result = run(Path(tmp) / "bench.sqlite3", args.events, args.undo_every)
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
