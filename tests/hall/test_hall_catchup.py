"""A table whose network is gone for a while, playing on, then back: the hall has every event
within 10 s of its return. The table reaches the real Mosquitto through a TCP relay the test
cuts (connections reset, new ones refused), as a Wi-Fi outage would; its publisher runs all
along and reconnects by itself.

Shortened, said plainly: the issue's outage is 5 minutes; here it is `OFFLINE_S` (20 s) with
the table playing a move every 0.1 s, so it stores about 150 events while away — more than a
real table stores in 5 minutes (a move every 5–10 s: 30–60 events). What the catch-up costs
grows with the events held back, not with the wall-clock time away.
"""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from pathlib import Path

from hallkit import Broker, free_port, hall_rows, published_form, wait_until

from companion.hall.ingest import Hall
from companion.hall.outbox import HallPublisher
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService

OFFLINE_S = 20.0
CATCH_UP_S = 10.0


class Relay:
    """127.0.0.1:``port`` → the broker, byte for byte, until `cut` (every connection reset,
    the port closed) and after `restore`."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self._conns: list[socket.socket] = []
        self._server: socket.socket | None = None
        self._lock = threading.Lock()

    def restore(self) -> None:
        server = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        server.settimeout(0.2)
        self._server = server
        threading.Thread(target=self._accept, args=(server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while self._server is server:
            try:
                client, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target))
            with self._lock:
                self._conns += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := a.recv(65536):
                b.sendall(data)
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.close()

    def cut(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
        with self._lock:
            conns, self._conns = self._conns, []
        for s in conns:
            with contextlib.suppress(OSError):
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                s.close()


def test_a_table_offline_catches_up_within_10_s(broker: Broker, dsn: str,
                                                tmp_path: Path) -> None:
    relay = Relay(broker.port)
    relay.restore()
    service = TableService(EventStore(tmp_path / "t.sqlite3"), "tok")
    pub = HallPublisher(service.store.path, "away", parse_broker_url(
        f"mqtt://127.0.0.1:{relay.port}"), poll=0.5)
    service.add_listener(pub.wake)
    hall = Hall(parse_broker_url(broker.url), dsn)
    rng = random.Random(3)

    def play_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if service.state().phase == "over":
                service.new_game(["red", "blue", "yellow"], modules=["port"])
            service.submit(rng.choice(service.legal_view()["actions"]))
            time.sleep(0.1)

    try:
        hall.start()
        pub.start()
        service.new_game(["red", "blue", "yellow"], modules=["port"])
        play_for(3)
        wait_until(lambda: len(hall_rows(dsn, "away")) == service.seq(), 20, "the first events")
        relay.cut()
        before = service.seq()
        play_for(OFFLINE_S)
        held_back = service.seq() - before
        assert held_back >= 100
        assert len(hall_rows(dsn, "away")) == before  # nothing got through while away
        back = time.monotonic()
        relay.restore()
        want = published_form("away", service.store)
        wait_until(lambda: [tuple(r) for r in hall_rows(dsn, "away")] == want, CATCH_UP_S,
                   f"the hall to hold the {held_back} events stored while away")
        took = time.monotonic() - back
        assert took <= CATCH_UP_S
        print(f"{held_back} events held back {OFFLINE_S:g} s, caught up in {took:.2f} s")
    finally:
        pub.stop()
        hall.stop()
        relay.cut()
        service.store.close()
