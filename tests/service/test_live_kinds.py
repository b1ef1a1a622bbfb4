"""One live feed for everything: stored events (with ids, carrying the public state and
the legal actions) and the sensing messages (named, without ids; those still open first),
on both servers: Flask (test client) and `web.asgi` under a real uvicorn server."""

from __future__ import annotations

import http.client
import json
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.bench.sse import SSEClient, SSEEvent
from companion.runtime import Runtime
from companion.settings import FeedLimits, Settings
from web import create_app
from web.asgi import make_asgi

TOKEN = "test-table-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def rt(tmp_path: Path) -> Iterator[Runtime]:
    runtime = Runtime(Settings(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "boxcheck.json"))
    runtime.start()
    yield runtime
    runtime.close()


def _fields(block: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in block.split("\n"):
        if line and not line.startswith(":"):
            name, _, value = line.partition(": ")
            out[name] = value
    return out


def _play(rt: Runtime, n: int, seed: int = 5) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        rt.service.submit(rng.choice(rt.service.legal()), "tablet")


def test_every_event_carries_what_api_legal_answers_then(rt: Runtime) -> None:
    """Over a played stretch (virtual draws included), each event's ``legal`` and ``state``
    equal what /api/legal and /api/state answered right after it; a catch-up carries them
    on its last event only."""
    client = create_app(rt).test_client()
    client.post("/api/games", json={"players": ["red", "blue", "white"]}, headers=AUTH)
    sub = rt.service.subscribe()
    rng = random.Random(11)
    seen = 0
    for _ in range(60):
        legal = client.get("/api/legal").get_json()
        r = client.post("/api/actions", json=rng.choice(legal["actions"]), headers=AUTH)
        assert r.status_code == 200, r.get_json()
        notice = sub.get(timeout=5)
        assert notice is not None and notice.event is None
        data = json.loads(notice.data)
        assert data["legal"] == client.get("/api/legal").get_json()
        assert data["state"] == client.get("/api/state").get_json()
        seen += data["legal"]["actions"][0].get("type") == "virtual_draw"
    sub.close()
    assert seen > 0  # a chance point was among them: its offer is what the event carried
    backlog, _ = rt.service.catch_up(after=rt.service.seq() - 5)
    datas = [json.loads(n.data) for n in backlog]
    assert [d["legal"] is None for d in datas] == [True] * 4 + [False]
    assert datas[-1]["legal"] == client.get("/api/legal").get_json()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture
def served(rt: Runtime) -> Iterator[tuple[Runtime, int]]:
    import uvicorn

    port = _free_port()
    app = create_app(rt)
    quiet = FeedLimits(heartbeat=60.0)  # no comments: a missing event times out the read
    config = uvicorn.Config(make_asgi(app, quiet), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on", timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < end, "uvicorn did not start"
        time.sleep(0.05)
    yield rt, port
    server.should_exit = True
    thread.join(10)


def _next(client: SSEClient, want: Any) -> SSEEvent:
    """The next event for which ``want(event)`` holds (others skipped)."""
    for _ in range(50):
        event = client.next_event()
        if want(event):
            return event
    raise AssertionError("not received")


def _get(port: int, path: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)
    body = json.loads(conn.getresponse().read())
    conn.close()
    return body


def test_asgi_hub_carries_named_messages_and_events_without_moving_resume(
    served: tuple[Runtime, int],
) -> None:
    rt, port = served
    rt.service.new_game(["red", "blue"])
    rt.sensing.publish("discrepancy", {"kind": "discrepancy", "id": 3, "items": []})
    rt.sensing.publish("health", {"device": "camera:0", "state": "up"})
    seq = rt.service.seq()
    clients = [SSEClient("127.0.0.1", port, f"/api/events?after={seq}", timeout=10)
               for _ in range(3)]
    try:
        for c in clients:
            first = [c.next_event(), c.next_event()]
            assert [(e.event, e.id) for e in first] == [("discrepancy", None), ("health", None)]
        rt.sensing.publish("prompt", {"kind": "prompt", "id": 4, "words": ["a", "b"]})
        _play(rt, 2)
        rt.sensing.publish("closed", {"kind": "closed", "id": 3})
        for c in clients:
            got = [c.next_event() for _ in range(4)]
            assert [e.event for e in got] == ["prompt", None, None, "closed"]
            assert [e.id for e in got] == [None, str(seq + 1), str(seq + 2), None]
            last = got[2].json()
            assert last["legal"] == _get(port, "/api/legal")
            assert last["state"] == _get(port, "/api/state")
        # a page that connects now gets only what is still open: the prompt and the health
        late = SSEClient("127.0.0.1", port, f"/api/events?after={rt.service.seq()}", timeout=10)
        clients.append(late)
        opened = [late.next_event(), late.next_event()]
        assert sorted((e.event or "", e.json().get("id")) for e in opened) == [
            ("health", None), ("prompt", 4)]
        # resuming after the named messages starts right after the last stored event
        resumed = SSEClient("127.0.0.1", port, "/api/events",
                            headers={"Last-Event-ID": str(seq + 1)}, timeout=10)
        clients.append(resumed)
        stored = _next(resumed, lambda e: e.event is None)
        assert stored.id == str(seq + 2)
    finally:
        for c in clients:
            c.close()


def test_sensing_events_stream_is_gone(rt: Runtime) -> None:
    client = create_app(rt).test_client()
    assert client.get("/api/sensing/events").status_code == 404
