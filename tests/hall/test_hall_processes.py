"""Real processes: the hall killed -9 and restarted converges; ``companion serve --hall``
publishes its game to a hall."""

from __future__ import annotations

import random
from pathlib import Path

from hallkit import Broker, Process, hall_rows, play, published_form, wait_until

from companion.hall.outbox import HallPublisher
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService

TABLE = "t9"


def test_a_hall_killed_and_restarted_stores_everything_once(
        broker: Broker, dsn: str, tmp_path: Path) -> None:
    service = TableService(EventStore(tmp_path / "games.sqlite3"), "tok")
    pub = HallPublisher(service.store.path, TABLE, parse_broker_url(broker.url), poll=0.1,
                        stall=1000)  # no timed resend: the hall's session and epoch carry it
    service.add_listener(pub.wake)
    hall = Process(tmp_path / "hall.log", "hall", "--mqtt", broker.url, "--db", dsn, "--port", "0")
    try:
        hall.start().ready("storing events")
        pub.start()
        service.new_game(["red", "blue", "yellow"], modules=["port", "life_goals"])
        play(service, random.Random(11), 50, undo_every=9)
        wait_until(lambda: len(hall_rows(dsn, TABLE)) >= 20, 20, "the hall to store events")
        hall.kill()
        play(service, random.Random(12), 50)
        hall.start().ready("storing events")
        play(service, random.Random(13), 10)
        want = published_form(TABLE, service.store)
        wait_until(lambda: [tuple(r) for r in hall_rows(dsn, TABLE)] == want, 30,
                   "the restarted hall to hold the table's events")
        wait_until(lambda: pub.acked().get(1) == service.seq(), 10, "the last acknowledgement")
    finally:
        pub.stop()
        hall.kill()
        service.store.close()


def test_companion_serve_with_hall_publishes_its_game(
        broker: Broker, dsn: str, tmp_path: Path) -> None:
    db = tmp_path / "table.sqlite3"
    hall = Process(tmp_path / "hall.log", "hall", "--mqtt", broker.url, "--db", dsn, "--port", "0")
    serve = Process(tmp_path / "serve.log", "serve", "--host", "127.0.0.1", "--port", "0",
                    "--db", str(db), "--token", "tok", "--no-qr", "--demo", "--speed", "0.05",
                    "--hall", broker.url, "--hall-table", "cafe-3")
    try:
        hall.start().ready("storing events")
        serve.start()
        wait_until(lambda: len(hall_rows(dsn, "cafe-3")) >= 30, 30, "the demo game in the hall")
        rows = [tuple(r) for r in hall_rows(dsn, "cafe-3")]
        with EventStore(db) as store:
            want = published_form("cafe-3", store)
        assert rows == want[: len(rows)]
    finally:
        serve.kill()
        hall.kill()
