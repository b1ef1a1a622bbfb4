"""``python -m companion.hall.bench --tables 50 --minutes 5 [--json]``: many tables playing at
once through a real Mosquitto into a real PostgreSQL and a real ``companion hall``, with the
outages the hall must survive; prints what it measured.

Each table is a real `TableService` on its own SQLite file with the real outbox publisher
(`companion.hall.outbox.HallPublisher`), playing a random legal move every ``--interval``
seconds (staggered; a finished game is followed by a new one). The hall is a real
``companion hall`` process; the bench reads its page feed (``/api/events``) like a hall
screen. Over the run (T = ``--minutes``):

- at 0.1 T table 0 goes offline (its publisher stopped) for ``--offline`` seconds, then
  comes back: ``catch_up_s`` is the time until the hall acknowledged everything it stored
  meanwhile;
- at 0.2 T the broker is killed (SIGKILL, nothing kept) for ``--outage`` seconds;
- at 0.5 T the hall is killed (SIGKILL) for ``--outage`` seconds;
- at T the tables stop; the bench waits until every table's events are in PostgreSQL
  (``converge_s``), then compares: ``lost`` (events of a table the hall lacks), ``duplicated``
  (rows the hall holds that are not exactly one of the table's events).

``p50_ms``/``p95_ms``/``max_ms``: from an event stored at a table to a hall page receiving a
card that shows it, for the events stored while everything was up (the ones stored during an
outage are counted in ``delayed_by_outage``). ``tap_p95_ms_broker_up``/``_down``: the table's
own store-and-apply time (`TableService.submit`) while the broker was up and down.
Mosquitto, PostgreSQL and the hall run on this machine (started by the bench in temporary
directories, `companion.bench.servers`), so their work shares its cores with the tables'.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games
from companion.bench.servers import Broker, Postgres, free_port, wait_until
from companion.hall.outbox import HallPublisher
from companion.hall.public import public_event
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService

__all__ = ["main", "run"]


@dataclass
class Table:
    name: str
    service: TableService
    pub: HallPublisher
    stored: list[tuple[int, int, float]] = field(default_factory=list)
    """(game_id, seq, monotonic time stored) of every event."""
    taps: list[tuple[float, float]] = field(default_factory=list)
    """(monotonic time, seconds taken) of every submit."""


class Screen(threading.Thread):
    """A hall screen: reads ``/api/events`` and notes when each table's card arrives
    (reconnecting while the hall is away)."""

    def __init__(self, port: int) -> None:
        super().__init__(name="hall-screen", daemon=True)
        self.port = port
        self.cards: dict[str, list[tuple[float, int, int]]] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/api/events")
                res = conn.getresponse()
                event = None
                while not self.stop.is_set():
                    line = res.readline()
                    if not line:
                        break
                    text = line.decode().rstrip("\n")
                    if text.startswith("event: "):
                        event = text[7:]
                    elif text.startswith("data: ") and event == "card":
                        card = json.loads(text[6:])
                        self.cards.setdefault(card["table"], []).append(
                            (time.monotonic(), int(card["game_id"]), int(card["seq"])))
                    elif not text:
                        event = None
            except (OSError, http.client.HTTPException, ValueError):
                self.stop.wait(0.2)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _latencies(tables: list[Table], screen: Screen, outages: list[tuple[float, float]],
               offline: dict[str, tuple[float, float]]) -> tuple[list[float], int]:
    """Event → card on a hall screen, for events stored while all was up (the broker and
    the hall, and the table itself); and how many events were stored during an outage."""
    out: list[float] = []
    delayed = 0
    for t in tables:
        cards = screen.cards.get(t.name, [])
        down = [*outages, *([offline[t.name]] if t.name in offline else [])]
        i = 0
        for game_id, seq, stored in t.stored:
            if any(a <= stored <= b for a, b in down):
                delayed += 1
                continue
            while i < len(cards) and (cards[i][1], cards[i][2]) < (game_id, seq):
                i += 1
            j = i
            while j < len(cards) and cards[j][0] < stored:
                j += 1
            if j < len(cards):
                out.append(cards[j][0] - stored)
    return out, delayed


def _compare(dsn: str, tables: list[Table]) -> tuple[int, int]:
    """(lost, duplicated) between the tables' logs and the hall's rows."""
    import psycopg

    with psycopg.connect(dsn) as conn:
        rows = conn.execute("SELECT table_name, game_id, seq, message FROM hall_events").fetchall()
    held: dict[tuple[str, int, int], list[Any]] = {}
    for name, game_id, seq, message in rows:
        held.setdefault((name, int(game_id), int(seq)), []).append(message)
    lost = duplicated = 0
    wanted: set[tuple[str, int, int]] = set()
    for t in tables:
        for g in t.service.store.games():
            game = games.for_header(g.header)
            for e in t.service.store.events(g.id):
                key = (t.name, g.id, e.seq)
                wanted.add(key)
                got = held.get(key, [])
                if not got:
                    lost += 1
                duplicated += sum(1 for m in got if m != public_event(t.name, game, e))
                duplicated += max(0, len(got) - 1)
    duplicated += sum(len(v) for k, v in held.items() if k not in wanted)
    return lost, duplicated


def _hall_has_all(dsn: str, tables: list[Table]) -> bool:
    import psycopg

    with psycopg.connect(dsn) as conn:
        counts: dict[str, int] = dict(conn.execute("SELECT table_name, count(*) FROM hall_events"
                                   " GROUP BY table_name").fetchall())
    return all(counts.get(t.name, 0) == sum(g.event_count for g in t.service.store.games())
               for t in tables)


def _play(t: Table, rng: random.Random, interval: float, stop: threading.Event) -> None:
    stop.wait(rng.uniform(0, interval))
    while not stop.is_set():
        s = t.service
        if s.current_game_id is None or s.state().phase == "over":
            s.new_game(rng.choice([["red", "blue"], ["red", "blue", "yellow"]]),
                       modules=rng.choice([[], ["port"], ["life_goals"]]))
        action = rng.choice(s.legal_view()["actions"])
        began = time.monotonic()
        seq = s.submit(action)
        done = time.monotonic()
        t.taps.append((began, done - began))
        t.stored.append((s.current_game_id or 0, seq, done))
        stop.wait(interval)


def _hall(folder: Path, broker: Broker, dsn: str, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    log = (folder / "hall.log").open("ab")
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "hall", "--mqtt",
                             broker.url, "--db", dsn, "--host", "127.0.0.1", "--port",
                             str(port), "--token", "bench"], stdout=log,
                            stderr=subprocess.STDOUT, env=env)
    wait_until(lambda: b"pages on" in (folder / "hall.log").read_bytes(), 30, "the hall")
    return proc


def run(tables: int, minutes: float, interval: float, outage: float, offline: float,
        seed: int = 1) -> dict[str, Any]:
    """Run the bench; its numbers (see the module's docstring). Raises
    `companion.bench.servers.Missing` without Mosquitto or PostgreSQL."""
    folder = Path(tempfile.mkdtemp(prefix="hall-bench-"))
    total = minutes * 60
    offline = min(offline, 0.6 * total)
    broker, pg = Broker(folder), Postgres()
    broker.start()
    pg.start()
    dsn = pg.database()
    port = free_port()
    hall = _hall(folder, broker, dsn, port)
    screen = Screen(port)
    screen.start()
    url = parse_broker_url(broker.url)
    stop = threading.Event()
    made: list[Table] = []
    for i in range(tables):
        s = TableService(EventStore(folder / f"t{i}.sqlite3"), "tok")
        pub = HallPublisher(s.store.path, f"t{i}", url)
        s.add_listener(pub.wake)
        pub.start()
        made.append(Table(f"t{i}", s, pub))
    rng = random.Random(seed)
    players = [threading.Thread(target=_play, args=(t, random.Random(rng.random()), interval,
                                                    stop), daemon=True) for t in made]
    t0 = time.monotonic()
    for p in players:
        p.start()
    outages: list[tuple[float, float]] = []
    broker_down: tuple[float, float] = (0.0, 0.0)
    catch_up = float("nan")
    away = made[0]
    offline_window: dict[str, tuple[float, float]] = {}

    def at(fraction: float) -> None:
        stop.wait(max(0.0, t0 + fraction * total - time.monotonic()))

    try:
        at(0.1)
        away.pub.stop()  # table 0 offline
        gone = time.monotonic()
        at(0.2)
        a = time.monotonic()
        broker.kill()
        stop.wait(outage)
        broker.start()
        broker_down = (a, time.monotonic())
        outages.append(broker_down)
        at(0.5)
        a = time.monotonic()
        hall.kill()
        hall.wait(5)
        stop.wait(outage)
        hall = _hall(folder, broker, dsn, port)
        outages.append((a, time.monotonic()))
        stop.wait(max(0.0, gone + offline - time.monotonic()))
        back = time.monotonic()
        held = away.service.seq()
        away.pub = HallPublisher(away.service.store.path, away.name, url)
        away.service.add_listener(away.pub.wake)
        away.pub.start()
        gid = away.service.current_game_id
        with contextlib.suppress(AssertionError):
            wait_until(lambda: (away.pub.acked().get(gid or 0, -1)) >= held, 120,
                       "the offline table to catch up")
            catch_up = time.monotonic() - back
        offline_window = {away.name: (gone, time.monotonic())}
        at(1.0)
    finally:
        stop.set()
        for p in players:
            p.join(10)
    c0 = time.monotonic()
    converged = True
    try:
        wait_until(lambda: _hall_has_all(dsn, made), 180, "the hall to hold every event")
    except AssertionError:
        converged = False
    converge_s = time.monotonic() - c0
    time.sleep(1.0)  # the last cards
    lost, duplicated = _compare(dsn, made)
    lat, delayed = _latencies(made, screen, outages, offline_window)
    up = [d for t in made for when, d in t.taps if not broker_down[0] <= when <= broker_down[1]]
    down = [d for t in made for when, d in t.taps if broker_down[0] <= when <= broker_down[1]]
    screen.stop.set()
    for t in made:
        t.pub.stop()
        t.service.store.close()
    hall.send_signal(signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        hall.wait(10)
    if hall.poll() is None:
        hall.kill()
    broker.stop()
    pg.stop()
    events = sum(len(t.stored) for t in made)
    return {
        "tables": tables, "minutes": minutes, "interval_s": interval, "outage_s": outage,
        "offline_s": round(offline, 1), "events": events, "converged": converged,
        "lost": lost, "duplicated": duplicated, "converge_s": round(converge_s, 2),
        "p50_ms": round(_percentile(lat, 0.5) * 1000, 1),
        "p95_ms": round(_percentile(lat, 0.95) * 1000, 1),
        "max_ms": round(max(lat, default=float("nan")) * 1000, 1),
        "measured_events": len(lat), "delayed_by_outage": delayed,
        "catch_up_s": round(catch_up, 2),
        "tap_p95_ms_broker_up": round(_percentile(up, 0.95) * 1000, 1),
        "tap_p95_ms_broker_down": round(_percentile(down, 0.95) * 1000, 1),
        "load": [round(x, 1) for x in os.getloadavg()], "cores": os.cpu_count(),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.hall.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--minutes", type=float, default=5.0)
    p.add_argument("--interval", type=float, default=3.0,
                   help="seconds between two moves at a table (default 3)")
    p.add_argument("--outage", type=float, default=30.0,
                   help="seconds the broker, then the hall, are down (default 30)")
    p.add_argument("--offline", type=float, default=300.0,
                   help="seconds table 0 is offline (at most 0.6 of the run; default 300)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    result = run(args.tables, args.minutes, args.interval, args.outage, args.offline,
                 args.seed)
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:>24}: {v}")
    return 0 if result["converged"] and not result["lost"] and not result["duplicated"] else 1


if __name__ == "__main__":
    raise SystemExit(main())

