"""A real server process (``python -m companion.serve`` under uvicorn) on 127.0.0.1:
durability across ``kill -9``, live updates to 50 clients at once, catching up."""

from __future__ import annotations

import http.client
import json
import random
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from servicekit import AUTH, ServerProcess

import companion.village as v
from companion.bench.sse import SSEClient
from companion.store import EventStore
from companion.table.service import engine_action


class Http:
    """One keep-alive HTTP connection to the test server."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=15)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        headers = {**AUTH, "Content-Type": "application/json"} if method == "POST" else {}
        self.conn.request(method, path, body=data, headers=headers)
        r = self.conn.getresponse()
        return r.status, json.loads(r.read() or b"null")

    def close(self) -> None:
        self.conn.close()


def new_game(port: int) -> int:
    h = Http(port)
    status, body = h.call("POST", "/api/games", {"players": ["red", "yellow", "blue"]})
    h.close()
    assert status == 201
    game_id: int = body["game_id"]
    return game_id


def test_every_acknowledged_action_survives_kill_9(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    db = tmp_path / "durable.sqlite3"
    rng = random.Random()
    acked: list[tuple[int, dict[str, Any]]] = []
    for round_no in range(3):  # kill, restart, carry on, kill again…
        server = server_factory(db=db)
        if round_no == 0:
            new_game(server.port)
        h = Http(server.port)
        stop = threading.Event()

        def pump(h: Http = h, stop: threading.Event = stop) -> None:
            while not stop.is_set():
                try:
                    _, legal = h.call("GET", "/api/legal")
                    if not legal["actions"]:
                        return
                    action = rng.choice(legal["actions"])
                    status, body = h.call("POST", "/api/actions", action)
                except (OSError, http.client.HTTPException, ValueError):
                    return  # the server died under us
                if status == 200:
                    acked.append((body["seq"], action))

        worker = threading.Thread(target=pump)
        worker.start()
        # killed after a random number of acknowledged actions (not a fixed time: a
        # loaded machine acknowledged too few), then a random moment later, mid-request
        before, wanted = len(acked), rng.randint(8, 20)
        deadline = time.monotonic() + 60
        while len(acked) - before < wanted and worker.is_alive() \
                and time.monotonic() < deadline:
            time.sleep(0.01)
        time.sleep(rng.uniform(0.0, 0.3))
        server.kill(signal.SIGKILL)
        stop.set()
        worker.join(20)
        h.close()
    assert len(acked) > 20, "too few actions acknowledged to mean anything"

    with EventStore(db) as store:
        [game] = store.games()
        events = {e.seq: e for e in store.events(game.id)}
        for seq, action in acked:
            assert seq in events, f"acknowledged seq {seq} lost"
            stored = engine_action(events[seq].payload)
            if action["type"] == "virtual_draw":
                assert events[seq].source == "virtual_bag"
                assert events[seq].payload["_draw"]["digest"] == action["commitment"]
            else:
                assert stored == action
        # At most one action per kill was stored but not acknowledged (in flight).
        assert len(events) - len(acked) <= 3
        expected = v.replay(
            store.header(game.id), [engine_action(a) for a in store.effective_actions(game.id)]
        )

    server = server_factory(db=db)
    h = Http(server.port)
    status, state = h.call("GET", "/api/state")
    h.close()
    assert status == 200
    assert state["seq"] == max(events)
    assert state["players"] == v.view(expected, "table")["players"]


def _collect(port: int, path: str, count: int, out: list[Any], errors: list[str]) -> None:
    try:
        with SSEClient("127.0.0.1", port, path, timeout=30) as sse:
            while len(out) < count:
                out.append(sse.next_event().json())
    except Exception as exc:  # reported by the test
        errors.append(repr(exc))


@pytest.mark.slow
def test_fifty_sse_clients_receive_every_event_in_order(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    game = new_game(server.port)
    n_clients, n_actions = 50, 120
    received: list[list[Any]] = [[] for _ in range(n_clients)]
    errors: list[str] = []
    threads = [
        threading.Thread(
            target=_collect,
            args=(server.port, f"/api/events?after=0&game={game}", n_actions, received[i], errors),
        )
        for i in range(n_clients)
    ]
    for t in threads:
        t.start()
    time.sleep(0.5)
    h = Http(server.port)
    rng = random.Random(7)
    posted = 0
    while posted < n_actions:
        _, legal = h.call("GET", "/api/legal")
        status, _ = h.call("POST", "/api/actions", rng.choice(legal["actions"]))
        assert status == 200
        posted += 1
    for t in threads:
        t.join(60)
    h.close()
    assert errors == []
    for events in received:
        assert [e["seq"] for e in events] == list(range(1, n_actions + 1))
        assert events[-1]["state"]["seq"] == n_actions
    assert received[0] == received[-1]


def test_sse_catch_up_from_last_event_id_and_after(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    game = new_game(server.port)
    h = Http(server.port)
    for _ in range(10):
        _, legal = h.call("GET", "/api/legal")
        assert h.call("POST", "/api/actions", legal["actions"][0])[0] == 200
    h.close()
    with SSEClient("127.0.0.1", server.port, headers={"Last-Event-ID": "6"}) as sse:
        events = [sse.next_event() for _ in range(4)]
    assert [e.id for e in events] == ["7", "8", "9", "10"]
    data = [e.json() for e in events]
    assert [d["state"] is None for d in data] == [True, True, True, False]
    assert data[-1]["state"]["seq"] == 10
    with SSEClient("127.0.0.1", server.port, f"/api/events?after=9&game={game}") as sse:
        assert sse.next_event().json()["seq"] == 10
    # A client showing another game is told about the current one first.
    with SSEClient("127.0.0.1", server.port, f"/api/events?after=9&game={game + 5}") as sse:
        first = sse.next_event().json()
    assert (first["type"], first["game_id"], first["state"]["seq"]) == ("new_game", game, 10)
