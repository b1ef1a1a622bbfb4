"""The served app: the live feed on an event loop, every other request in Flask.

`make_asgi` wraps a Flask app made by `web.create_app` into an ASGI app (run by uvicorn in
``companion serve``):

- ``GET /api/events`` is answered on the event loop itself (`LiveHub`): an open stream costs
  a socket and a few objects, no thread. The service's feed reaches the loop once per event
  (one thread-safe call), and the hub writes the same bytes to every stream. A heartbeat
  comment every ``SSE_HEARTBEAT`` seconds keeps data in flight, so with the kernel's
  ``TCP_USER_TIMEOUT`` (set on the listening socket by ``companion serve``) a client that
  vanished is released within a few seconds; one that closed or reset is released at once.
- Every other request goes to Flask through a2wsgi thread pools: requests bearing the table
  token get their own small pool, so the table's writes never queue behind readers.
- Caps: open streams per client address (``SSE_MAX_PER_ADDRESS``) and in all
  (``SSE_MAX_STREAMS``), and requests in progress per address without the table token
  (``HTTP_MAX_PER_ADDRESS``). Over a cap the answer is 503 with ``Retry-After``.

The event format is `web.events`' (``id: <seq>``, ``data: <JSON>``; resume with
``Last-Event-ID`` or ``?after=``, ``?game=``), so a Flask test client and this server say
the same thing. With a runtime, the sensing messages (`companion.runtime.SensingFeed`) go
on the same streams as named events without id; a stream that opens gets those still open
first. (A message published just as a stream opens may reach it twice; each names the
prompt, discrepancy or device it is about, so a page applies it twice to the same effect.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask

from companion.table import Notice, TableService

if TYPE_CHECKING:
    from companion.runtime import SensingFeed

__all__ = ["ASGI_DEFAULTS", "LiveHub", "make_asgi"]

log = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ASGI_DEFAULTS: Final[dict[str, Any]] = {
    "SSE_HEARTBEAT": 2.0,  # seconds between heartbeat comments on each stream
    "SSE_MAX_STREAMS": 2000,  # open streams in all
    "SSE_MAX_PER_ADDRESS": 64,  # open streams from one client address
    "SSE_MAX_BUFFERED": 2 * 1024 * 1024,  # bytes waiting for a slow stream before it is cut
    "HTTP_MAX_PER_ADDRESS": 8,  # requests in progress from one address (no table token)
    "READ_WORKERS": 12,  # Flask threads for requests without the table token
    "WRITE_WORKERS": 4,  # Flask threads reserved for requests with the table token
    "RETRY_AFTER": 5,  # seconds, sent with every 503
}

PREAMBLE: Final = b"retry: 2000\n: connected\n\n"
HEARTBEAT: Final = b": heartbeat\n\n"


def _event_bytes(notice: Notice) -> bytes:
    return notice.sse().encode()


class _Stream:
    """One open stream: bytes waiting to be written, and whether it is to end."""

    __slots__ = ("address", "buffered", "chunks", "ended", "mark", "wake")

    def __init__(self, address: str) -> None:
        self.address = address
        self.chunks: deque[bytes] = deque()
        self.buffered = 0
        self.ended = False
        self.mark: int | None = None  # None while catching up: live notices wait in `pending`
        self.wake = asyncio.Event()

    def push(self, data: bytes, limit: int) -> None:
        self.chunks.append(data)
        self.buffered += len(data)
        if self.buffered > limit:
            self.ended = True  # lagging too far: cut off; the browser resumes by Last-Event-ID
        self.wake.set()

    def take(self) -> bytes:
        data = b"".join(self.chunks)
        self.chunks.clear()
        self.buffered = 0
        return data


class LiveHub:
    """The open streams of one service, fed on the event loop.

    `attach` must be called on the loop; the service's listener (`_on_notice`, called in
    the writer's thread) numbers each notice and hands it to the loop. ``sensing`` (a
    `companion.runtime.SensingFeed`, optional): its named messages go to every stream.
    """

    def __init__(
        self, service: TableService, config: dict[str, Any], sensing: SensingFeed | None = None
    ) -> None:
        self.service = service
        self.sensing = sensing
        self.heartbeat = float(config["SSE_HEARTBEAT"])
        self.max_streams = int(config["SSE_MAX_STREAMS"])
        self.max_per_address = int(config["SSE_MAX_PER_ADDRESS"])
        self.max_buffered = int(config["SSE_MAX_BUFFERED"])
        self.streams: set[_Stream] = set()
        self.per_address: dict[str, int] = {}
        self.catching_up: dict[_Stream, list[tuple[int, Notice]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._beat: asyncio.Task[None] | None = None

    def attach(self) -> None:
        """Bind to the running loop: listen to the service, start the heartbeat (once)."""
        if self.loop is not None:
            return
        self.loop = asyncio.get_running_loop()
        self.service.add_listener(self._on_notice)
        if self.sensing is not None:
            self.sensing.listen(self._on_named)
        self._beat = self.loop.create_task(self._heartbeats())

    def _on_notice(self, notice: Notice) -> None:
        """In the writer's thread, under the service lock: number and pass on."""
        assert self.loop is not None
        number = self.service.published
        with contextlib.suppress(RuntimeError):  # the loop is closing: nobody to tell
            self.loop.call_soon_threadsafe(self._broadcast, number, notice)

    def _on_named(self, notice: Notice) -> None:
        """In the publisher's thread: a named message, handed to the loop."""
        assert self.loop is not None
        with contextlib.suppress(RuntimeError):
            self.loop.call_soon_threadsafe(self._broadcast_named, notice)

    def _broadcast_named(self, notice: Notice) -> None:
        data = _event_bytes(notice)
        for stream in self.streams:  # catching up or not: a named message has no seq
            stream.push(data, self.max_buffered)

    def _broadcast(self, number: int, notice: Notice) -> None:
        data = _event_bytes(notice)
        for stream in self.streams:
            if stream.mark is None:
                self.catching_up[stream].append((number, notice))
            elif number > stream.mark:
                stream.push(data, self.max_buffered)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            for stream in self.streams:
                if not stream.chunks:
                    stream.push(HEARTBEAT, self.max_buffered)

    def refusal(self, address: str) -> str | None:
        """Why a new stream from ``address`` is refused (None: it is welcome)."""
        if len(self.streams) >= self.max_streams:
            return f"the table serves {self.max_streams} live streams at most; try again soon"
        if self.per_address.get(address, 0) >= self.max_per_address:
            return (
                f"{self.max_per_address} live streams are open from {address} already; "
                "close one or try again soon"
            )
        return None

    def open(self, address: str) -> _Stream:
        stream = _Stream(address)
        self.streams.add(stream)
        self.catching_up[stream] = []
        self.per_address[address] = self.per_address.get(address, 0) + 1
        if self.sensing is not None:
            for notice in self.sensing.open_notices():
                stream.push(_event_bytes(notice), self.max_buffered)
        return stream

    def caught_up(self, stream: _Stream, backlog: list[Notice], mark: int) -> None:
        """Queue ``backlog`` then the live notices after ``mark`` that came meanwhile."""
        for notice in backlog:
            stream.push(_event_bytes(notice), self.max_buffered)
        for number, notice in self.catching_up.pop(stream, []):
            if number > mark:
                stream.push(_event_bytes(notice), self.max_buffered)
        stream.mark = mark

    def close(self, stream: _Stream) -> None:
        if stream in self.streams:
            self.streams.discard(stream)
            self.catching_up.pop(stream, None)
            left = self.per_address.get(stream.address, 1) - 1
            if left > 0:
                self.per_address[stream.address] = left
            else:
                self.per_address.pop(stream.address, None)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            text: str = value.decode("latin-1")
            return text
    return None


def _bearer(scope: Scope) -> str | None:
    scheme, _, token = (_header(scope, b"authorization") or "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _optional_int(text: str | None, name: str) -> int | None:
    """Raises ValueError with a message for the client."""
    if text is None or not text.strip():
        return None
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {text!r}") from None


async def _json(send: Send, status: int, code: str, message: str, retry: int | None) -> None:
    body = json.dumps({"error": "ApiError", "code": code, "message": message, "rule": None})
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    if retry is not None:
        headers.append((b"retry-after", str(retry).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode()})


class TableASGI:
    """The ASGI app (see the module docstring)."""

    def __init__(self, app: Flask) -> None:
        config = {**ASGI_DEFAULTS, **{k: app.config[k] for k in ASGI_DEFAULTS if k in app.config}}
        self.flask = app
        self.service: TableService = app.extensions["table"]
        runtime = app.extensions.get("runtime")
        self.hub = LiveHub(self.service, config, runtime.sensing if runtime is not None else None)
        self.reads = WSGIMiddleware(app, workers=int(config["READ_WORKERS"]))  # type: ignore[arg-type]
        self.writes = WSGIMiddleware(app, workers=int(config["WRITE_WORKERS"]))  # type: ignore[arg-type]
        self.max_per_address = int(config["HTTP_MAX_PER_ADDRESS"])
        self.retry_after = int(config["RETRY_AFTER"])
        self.in_progress: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        self.hub.attach()
        address = (scope.get("client") or ("unknown", 0))[0]
        if scope["path"] == "/api/events" and scope["method"] == "GET":
            await self._stream(scope, receive, send, address)
        elif self.service.is_table_token(_bearer(scope)):
            await self.writes(scope, receive, send)  # type: ignore[arg-type]
        else:
            await self._read(scope, receive, send, address)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.attach()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _read(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        busy = self.in_progress.get(address, 0)
        if busy >= self.max_per_address:
            message = f"{busy} requests from {address} are in progress already; try again soon"
            await _json(send, 503, "busy", message, self.retry_after)
            return
        self.in_progress[address] = busy + 1
        try:
            await self.reads(scope, receive, send)  # type: ignore[arg-type]
        finally:
            left = self.in_progress[address] - 1
            if left:
                self.in_progress[address] = left
            else:
                del self.in_progress[address]

    async def _stream(self, scope: Scope, receive: Receive, send: Send, address: str) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        try:
            after = _optional_int(query.get("after", [None])[-1], "after")
            if after is None:
                after = _optional_int(_header(scope, b"last-event-id"), "Last-Event-ID")
            game_id = _optional_int(query.get("game", [None])[-1], "game")
        except ValueError as exc:
            await _json(send, 400, "bad_parameter", str(exc), None)
            return
        hub = self.hub
        refusal = hub.refusal(address)
        if refusal is not None:
            await _json(send, 503, "too_many_streams", refusal, self.retry_after)
            return
        stream = hub.open(address)
        watcher = asyncio.ensure_future(self._watch(receive, stream))
        try:
            loop = asyncio.get_running_loop()
            backlog, mark = await loop.run_in_executor(
                self.reads.executor, self.service.catch_up, after, game_id
            )
            hub.caught_up(stream, backlog, mark)
            headers = [
                (b"content-type", b"text/event-stream; charset=utf-8"),
                (b"cache-control", b"no-cache"),
                (b"x-accel-buffering", b"no"),
            ]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": PREAMBLE, "more_body": True})
            while not stream.ended:
                await stream.wake.wait()
                stream.wake.clear()
                if stream.chunks and not watcher.done():
                    body = stream.take()
                    await send({"type": "http.response.body", "body": body, "more_body": True})
            if not watcher.done():  # cut off by the server, the client still there
                await asyncio.wait_for(
                    send({"type": "http.response.body", "body": b"", "more_body": False}), 1.0
                )
        except (TimeoutError, OSError):
            pass
        finally:
            hub.close(stream)
            watcher.cancel()

    @staticmethod
    async def _watch(receive: Receive, stream: _Stream) -> None:
        """End ``stream`` when its client goes (closed, reset or timed out by the kernel)."""
        while (await receive())["type"] != "http.disconnect":
            pass
        stream.ended = True
        stream.wake.set()


def make_asgi(app: Flask) -> TableASGI:
    """The ASGI app serving ``app`` (made by `web.create_app`) with its live feed; settings
    from ``app.config`` over `ASGI_DEFAULTS`."""
    return TableASGI(app)
