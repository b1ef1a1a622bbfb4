"""A game played on a real table service, published through a real Mosquitto into a real
PostgreSQL: the hall holds exactly the table's events, in order, once each — also when the
broker or the hall is killed mid-game."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hallkit import Broker, hall_rows, play, published_form, wait_until

import companion.village as v
from companion.hall.ingest import Hall
from companion.hall.outbox import HallPublisher
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService

TABLE = "t1"
MODULES = ["port", "life_goals"]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableService]:
    service = TableService(EventStore(tmp_path / "games.sqlite3"), "tok")
    yield service
    service.store.close()


def _publisher(service: TableService, broker: Broker, **kw: float) -> HallPublisher:
    pub = HallPublisher(service.store.path, TABLE, parse_broker_url(broker.url), poll=0.1, **kw)
    service.add_listener(pub.wake)
    pub.start()
    return pub


def _hall(broker: Broker, dsn: str) -> Hall:
    hall = Hall(parse_broker_url(broker.url), dsn)
    hall.start()
    return hall


def _converged(service: TableService, dsn: str, timeout: float = 20) -> None:
    want = published_form(TABLE, service.store)
    stored: list[tuple[object, ...]] = []

    def same() -> bool:
        nonlocal stored
        stored = [tuple(r) for r in hall_rows(dsn, TABLE)]
        return stored == want
    try:
        wait_until(same, timeout, "the hall to hold the table's events")
    except AssertionError:
        seqs = [r[1] for r in stored]
        raise AssertionError(f"hall holds {len(stored)} events (seqs {seqs[:5]}…{seqs[-5:]}),"
                             f" the table {len(want)}") from None


def _hall_state(dsn: str) -> tuple[int, object] | None:
    import psycopg

    with psycopg.connect(dsn) as conn:
        row = conn.execute("SELECT seq, state FROM hall_states WHERE table_name = %s",
                           (TABLE,)).fetchone()
    return None if row is None else (row[0], row[1])


def test_the_hall_holds_exactly_the_tables_events_in_order(
        table: TableService, broker: Broker, dsn: str) -> None:
    hall = _hall(broker, dsn)
    pub = _publisher(table, broker)
    try:
        table.new_game(["red", "blue", "white"], modules=MODULES)
        play(table, random.Random(1), 120, undo_every=17)
        kinds = [e.kind for e in table.events()]
        assert "revert" in kinds
        _converged(table, dsn)
        wait_until(lambda: pub.acked().get(1) == table.seq(), 10, "the hall's acknowledgement")
        assert hall.duplicates == 0
        # the retained state, followed action by action and replayed at each undo, is the
        # table's own public view
        want = json.loads(json.dumps(v.view(table.state(), "table")))
        wait_until(lambda: _hall_state(dsn) == (table.seq(), want), 10, "the table's state")
    finally:
        pub.stop()
        hall.stop()


def test_a_broker_killed_mid_game_loses_nothing_and_doubles_nothing(
        table: TableService, broker: Broker, dsn: str) -> None:
    hall = _hall(broker, dsn)
    pub = _publisher(table, broker, stall=1000)  # only the reconnection may resend
    try:
        table.new_game(["red", "blue"], modules=MODULES)
        play(table, random.Random(2), 60, undo_every=13)
        broker.kill()
        started = time.monotonic()
        play(table, random.Random(3), 60)  # the table goes on, the broker is dead
        took = time.monotonic() - started
        assert took < 10, f"60 moves took {took:.1f} s with the broker dead"
        broker.start()
        play(table, random.Random(4), 20, undo_every=7)
        _converged(table, dsn, timeout=30)
    finally:
        pub.stop()
        hall.stop()


def test_a_table_restarted_resumes_from_what_the_hall_acknowledged(
        table: TableService, broker: Broker, dsn: str) -> None:
    hall = _hall(broker, dsn)
    pub = _publisher(table, broker)
    try:
        table.new_game(["red", "blue"], modules=MODULES)
        play(table, random.Random(5), 40)
        wait_until(lambda: pub.acked().get(1) == table.seq(), 20, "the acknowledgement")
        pub.stop()
        first = table.seq()
        play(table, random.Random(6), 30)
        pub = _publisher(table, broker)
        _converged(table, dsn)
        assert pub.published <= table.seq() - first + 5, "resent what was acknowledged"
    finally:
        pub.stop()
        hall.stop()


def test_a_duplicate_and_an_out_of_order_delivery_are_stored_once_in_place(
        broker: Broker, dsn: str, tmp_path: Path) -> None:
    from companion.hall.mqtt import connect

    hall = _hall(broker, dsn)
    acks: list[dict[str, int]] = []
    client = connect(parse_broker_url(broker.url), "raw-table",
                     on_message=lambda c, u, m: acks.append(json.loads(m.payload)))
    try:
        wait_until(client.is_connected, 10, "the raw client to connect")
        client.subscribe(f"village/hall/{TABLE}/ack", qos=1)
        time.sleep(0.3)
        topic = f"village/hall/{TABLE}/events"

        def event(seq: int) -> str:
            return json.dumps({"table": TABLE, "game_id": 7, "seq": seq, "kind": "action",
                               "type": "pass", "source": "tablet", "time": "t",
                               "action": {"type": "pass"}, "reverts": None, "draw": None})
        client.publish(topic, json.dumps({"table": TABLE, "game_id": 7, "seq": 0,
                                          "kind": "game", "header": {}}), qos=1)
        for seq in (2, 2, 1, 3, 1):
            client.publish(topic, event(seq), qos=1)
        wait_until(lambda: len(hall_rows(dsn, TABLE)) == 3 and hall.duplicates == 2, 10,
                   "three events stored")
        assert [r[1] for r in hall_rows(dsn, TABLE)] == [1, 2, 3]
        wait_until(lambda: any(a["seq"] == 3 for a in acks), 10, "the ack of seq 3")
        # seq 2 arrived before seq 1: nothing past the gap was acknowledged before it closed
        assert [a["seq"] for a in acks][:2] == [0, 0]
        # a message under another table's topic is refused
        client.publish(topic, json.dumps({"table": "t2", "game_id": 7, "seq": 4,
                                          "kind": "action"}), qos=1)
        wait_until(lambda: hall.refused == 1, 10, "the refusal")
    finally:
        client.disconnect()
        client.loop_stop()
        hall.stop()
