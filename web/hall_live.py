"""The hall's served app: its live feed on an event loop, every other request in Flask
(`web.hall.create_hall_app`), in the manner of `web.asgi` for a table.

``GET /api/events`` streams server-sent events: each time a table's state or games change in
PostgreSQL (the ``hall`` channel, `companion/hall/migrations/002_notify.sql`), one ``card``
event with that table's card (`companion.hall.scoreboard.card`) as its JSON data. One
thread LISTENs (`CardFeed`), gathers what arrives within `GATHER_S`, reads each changed
table's card once and hands it to the loop, which writes the same bytes to every stream: a
hundred screens cost one query per change, not a hundred. A heartbeat comment every
`HEARTBEAT_S` keeps idle streams alive. Caps: `MAX_STREAMS` in all, `MAX_PER_ADDRESS`
per client address (503 beyond).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from a2wsgi import WSGIMiddleware
from flask import Flask

from companion.hall import reads

__all__ = ["CardFeed", "HallASGI"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

GATHER_S: Final = 0.05
HEARTBEAT_S: Final = 15.0
MAX_STREAMS: Final = 1000
MAX_PER_ADDRESS: Final = 8
MAX_QUEUED: Final = 256
"""Messages a stream may have waiting; a reader that far behind is cut (it reconnects)."""


class CardFeed:
    """LISTENs on the ``hall`` channel and calls ``deliver(card)`` for each changed table,
    at most once per `GATHER_S`. Two threads, two connections: one only listens (a
    connection busy with a query may drop a notification, psycopg issue 962), the other
    reads the cards. Both reconnect when the database goes away. ``start()``, ``stop()``."""

    def __init__(self, dsn: str, deliver: Callable[[dict[str, Any]], None]) -> None:
        self.dsn = dsn
        self.deliver = deliver
        self._stop = threading.Event()
        self._changed: queue.Queue[str] = queue.Queue()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for target, name in ((self._listen, "hall-listen"), (self._read, "hall-cards")):
            t = threading.Thread(target=target, name=name, daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        self._stop.set()
        self._changed.put("")
        for t in self._threads:
            t.join(2.0)

    def _listen(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as conn:
                    conn.execute("LISTEN hall")
                    self._changed.put("*")  # (re)connected: what changed meanwhile is unknown
                    while not self._stop.is_set():
                        for n in conn.notifies(timeout=1.0):
                            self._changed.put(n.payload)
            except psycopg.Error as exc:
                log.warning("hall feed lost the database (%s); again in 1 s", exc)
                self._stop.wait(1.0)

    def _read(self) -> None:
        import psycopg

        conn: Any = None
        while not self._stop.is_set():
            first = self._changed.get()
            if self._stop.is_set():
                break
            time.sleep(GATHER_S)
            changed = {first}
            with contextlib.suppress(queue.Empty):
                while True:
                    changed.add(self._changed.get_nowait())
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self.dsn, autocommit=True)
                if "*" in changed:
                    for found in reads.cards(conn):
                        self.deliver(found)
                    continue
                for table in sorted(changed):
                    one = reads.table_card(conn, table)
                    if one is not None:
                        self.deliver(one)
            except psycopg.Error as exc:
                log.warning("hall feed could not read the cards (%s)", exc)
                conn = None
                self._stop.wait(1.0)


class _Stream:
    __slots__ = ("address", "queue")

    def __init__(self, address: str) -> None:
        self.address = address
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue(MAX_QUEUED)


class HallASGI:
    """The hall's ASGI app around ``app`` (from `web.hall.create_hall_app`); the feed starts
    with the server's lifespan."""

    def __init__(self, app: Flask, dsn: str) -> None:
        self.app = app
        self.wsgi = WSGIMiddleware(app, workers=8)  # type: ignore[arg-type]
        self.feed = CardFeed(dsn, self._from_thread)
        self.streams: set[_Stream] = set()
        self.per_address: dict[str, int] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.sent = 0
        """Card messages handed to streams (for the bench and the tests)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http" and scope["path"] == "/api/events" \
                and scope["method"] == "GET":
            await self._stream(scope, receive, send)
        else:
            await self.wsgi(scope, receive, send)  # type: ignore[arg-type]

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.loop = asyncio.get_running_loop()
                self.loop.create_task(self._heartbeats())
                self.feed.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.feed.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    def _from_thread(self, card: dict[str, Any]) -> None:
        if self.loop is None:
            return
        data = f"event: card\ndata: {json.dumps(card, separators=(',', ':'))}\n\n".encode()
        with contextlib.suppress(RuntimeError):  # the loop is closing
            self.loop.call_soon_threadsafe(self._broadcast, data)

    def _broadcast(self, data: bytes) -> None:
        for stream in list(self.streams):
            try:
                stream.queue.put_nowait(data)
                self.sent += 1
            except asyncio.QueueFull:  # far behind: cut, the browser reconnects
                self._close(stream)
                with contextlib.suppress(asyncio.QueueFull):
                    stream.queue.put_nowait(None)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            for stream in list(self.streams):
                with contextlib.suppress(asyncio.QueueFull):
                    stream.queue.put_nowait(b": heartbeat\n\n")

    def _close(self, stream: _Stream) -> None:
        if stream in self.streams:
            self.streams.discard(stream)
            left = self.per_address.get(stream.address, 1) - 1
            if left > 0:
                self.per_address[stream.address] = left
            else:
                self.per_address.pop(stream.address, None)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = (scope.get("client") or ("?", 0))[0]
        if len(self.streams) >= MAX_STREAMS or \
                self.per_address.get(address, 0) >= MAX_PER_ADDRESS:
            body = json.dumps({"error": "too_many_streams",
                               "message": "too many open streams; try again soon"}).encode()
            await send({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"application/json"), (b"retry-after", b"5")]})
            await send({"type": "http.response.body", "body": body})
            return
        stream = _Stream(address)
        self.streams.add(stream)
        self.per_address[address] = self.per_address.get(address, 0) + 1

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            with contextlib.suppress(asyncio.QueueFull):
                stream.queue.put_nowait(None)

        watcher = asyncio.ensure_future(watch())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]})
            await send({"type": "http.response.body", "body": b"retry: 2000\n: connected\n\n",
                        "more_body": True})
            while (data := await stream.queue.get()) is not None:
                await send({"type": "http.response.body", "body": data, "more_body": True})
        except OSError:
            pass
        finally:
            self._close(stream)
            watcher.cancel()
