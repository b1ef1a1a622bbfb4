"""The served app: the live feed on an event loop, every other request in Flask.

`make_asgi` wraps a Flask app made by `web.create_app` into an ASGI app (run by uvicorn in
``companion serve``):

- ``GET /api/events`` is answered on the event loop itself (`LiveHub`): an open stream costs
  a socket and a few objects, no thread. The service's feed reaches the loop once per event
  (one thread-safe call), and the hub writes the same bytes to every stream. A heartbeat
  comment every ``heartbeat`` seconds keeps data in flight, so with the kernel's
  ``TCP_USER_TIMEOUT`` (set on the listening socket by ``companion serve``) a client that
  vanished is released within a few seconds; one that closed or reset is released at once.
- Every other request goes to Flask through a2wsgi thread pools: requests bearing the table
  token get their own small pool, so the table's writes never queue behind readers.
- Caps (`companion.settings.FeedLimits`): open streams per client address
  (``max_per_address``) and in all (``max_streams``), and requests in progress per address
  without the table token (``http_per_address``). Over a cap the answer is 503 with ``Retry-After``;
  a page or its files first wait their turn, as long as that address's requests keep ending
  (none for ``retry_after`` seconds, or `SLOT_WAIT` in all: refused; a page refused one of
  its scripts stays dead: issue 18 item 8).

This is the only live-feed server (docs/api.md has the format: ``id: <seq>``, ``data:
<JSON>``: the stored event, ``state``, the public view after it, and ``legal``; resume with
``Last-Event-ID`` or ``?after=``, ``?game=``; a ``new_game`` event first when another game
is current). The sensing messages (`companion.runtime.SensingFeed`) go on the same streams
as named events without id; a stream that opens gets those still open
first. (A message published just as a stream opens may reach it twice; each names the
prompt, discrepancy or device it is about, so a page applies it twice to the same effect.)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask

from companion.settings import FeedLimits
from companion.table import Notice, TableService

if TYPE_CHECKING:
    from companion.runtime import SensingFeed

__all__ = ["LiveHub", "make_asgi"]

log = logging.getLogger(__name__)
SLOT_WAIT = 30.0  # seconds a page's file waits at most for its turn while its queue moves

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

PREAMBLE: Final = b"retry: 2000\n: connected\n\n"
HEARTBEAT: Final = b": heartbeat\n\n"


def _event_bytes(notice: Notice) -> bytes:
    return notice.encoded


FAN_OUT_SLICE: Final = 100
"""Spectators' streams given an event per turn of the event loop (see `LiveHub._broadcast`)."""
SEND_BYTES: Final = 16 * 1024
"""At most this much is handed to the transport at once (whose write buffer pauses the
stream past 16 KiB, `web.connections`): a reader that stops reading then holds about twice
this much of the process's memory and its socket's send buffer in the kernel, not the whole
history it asked for."""


class _Stream:
    """One open stream: bytes waiting to be written (shared, encoded once per notice), how
    many of them are live lag rather than the history asked for, and whether it is to end."""

    __slots__ = ("address", "buffered", "chunks", "ended", "history", "mark", "reserved",
                 "wake")

    def __init__(self, address: str, reserved: bool = False) -> None:
        self.address = address
        self.reserved = reserved
        self.chunks: deque[bytes] = deque()
        self.buffered = 0
        self.history = 0  # bytes of the catch-up still queued: not counted as lag
        self.ended = False
        self.mark: int | None = None  # None while catching up: live notices wait in `pending`
        self.wake = asyncio.Event()

    def push(self, data: bytes, limit: int) -> None:
        """Queue ``data``; past ``limit`` bytes of live lag, the stream is cut (the browser
        resumes by Last-Event-ID)."""
        self.chunks.append(data)
        self.buffered += len(data)
        if self.buffered - self.history > limit:
            self.ended = True
        self.wake.set()

    def push_history(self, items: list[bytes]) -> None:
        """Queue a catch-up's events (bounded by the game's length and the per-address rate
        of long catch-ups, not by the lag limit)."""
        for data in items:
            self.chunks.append(data)
            self.buffered += len(data)
            self.history += len(data)
        self.wake.set()

    def take(self) -> bytes:
        """The next bytes to send: whole chunks, about `SEND_BYTES` at most."""
        out: list[bytes] = []
        size = 0
        while self.chunks and (not out or size + len(self.chunks[0]) <= SEND_BYTES):
            data = self.chunks.popleft()
            out.append(data)
            size += len(data)
        self.buffered -= size
        self.history = max(0, self.history - size)
        return b"".join(out)


class RateLimits:
    """A token bucket per client address: ``burst`` at once, then ``per_second``."""

    def __init__(self, burst: float, per_second: float) -> None:
        self.burst = burst
        self.per_second = per_second
        self._buckets: dict[str, tuple[float, float]] = {}

    def take(self, address: str) -> bool:
        """Spend one token of ``address``; False when it has none left."""
        now = time.monotonic()
        tokens, then = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget the oldest addresses: full buckets anyway
            for key in list(self._buckets)[:5_000]:
                del self._buckets[key]
        return True


class LiveHub:
    """The open streams of one service, fed on the event loop.

    `attach` must be called on the loop; the service's listener (`_on_notice`, called in
    the writer's thread) numbers each notice and hands it to the loop. ``sensing`` (a
    `companion.runtime.SensingFeed`, optional): its named messages go to every stream.
    """

    def __init__(
        self, service: TableService, limits: FeedLimits, sensing: SensingFeed | None = None
    ) -> None:
        self.service = service
        self.sensing = sensing
        self.heartbeat = limits.heartbeat
        self.max_streams = limits.max_streams
        self.max_per_address = limits.max_per_address
        self.max_buffered = limits.max_buffered
        self.max_reserved = limits.max_reserved
        self.reserved = 0
        self.catch_ups = RateLimits(float(limits.catch_up_burst), limits.catch_up_per_second)
        self.long_catch_up = limits.catch_up_long
        self.streams: set[_Stream] = set()
        self.per_address: dict[str, int] = {}
        self.catching_up: dict[_Stream, list[tuple[int, Notice]]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._beat: asyncio.Task[None] | None = None
        self._fan_out: deque[tuple[int, Notice, list[_Stream]]] = deque()

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
        for stream in self._in_order():  # catching up or not: a named message has no seq
            stream.push(data, self.max_buffered)

    def _in_order(self) -> list[_Stream]:
        """The open streams, those with a token first: the loop wakes them in this order,
        so the table and the players get an event before the crowd of spectators."""
        return sorted(self.streams, key=lambda st: not st.reserved) if self.reserved else list(
            self.streams
        )

    def _broadcast(self, number: int, notice: Notice) -> None:
        """Give a stored event to every stream: those with a token at once, the crowd in
        slices of `FAN_OUT_SLICE` streams per turn of the loop, event after event in
        order, so the table's next request is read between two slices instead of after
        thousands of spectators' writes."""
        crowd = []
        for stream in self.streams:
            if stream.reserved:
                self._give(stream, number, notice)
            else:
                crowd.append(stream)
        self._fan_out.append((number, notice, crowd))
        if len(self._fan_out) == 1:
            self._next_slice(0)

    def _give(self, stream: _Stream, number: int, notice: Notice) -> None:
        if stream.mark is None:
            self.catching_up[stream].append((number, notice))
        elif number > stream.mark:
            stream.push(_event_bytes(notice), self.max_buffered)

    def _next_slice(self, start: int) -> None:
        number, notice, crowd = self._fan_out[0]
        for stream in crowd[start : start + FAN_OUT_SLICE]:
            if stream in self.streams:
                self._give(stream, number, notice)
        if start + FAN_OUT_SLICE < len(crowd):
            assert self.loop is not None
            self.loop.call_soon(self._next_slice, start + FAN_OUT_SLICE)
            return
        self._fan_out.popleft()
        if self._fan_out:
            assert self.loop is not None
            self.loop.call_soon(self._next_slice, 0)

    async def _heartbeats(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            for stream in self.streams:
                if not stream.chunks:
                    stream.push(HEARTBEAT, self.max_buffered)

    def refusal(self, address: str, reserved: bool = False, backlog: int = 0) -> str | None:
        """Why a new stream from ``address`` is refused (None: it is welcome). A
        ``reserved`` stream (the table's or a player's token) has its own cap, outside the
        public ones; a catch-up of ``backlog`` events above `CATCH_UP_LONG` is rate-limited
        per address."""
        if backlog > self.long_catch_up and not reserved and not self.catch_ups.take(address):
            return (
                f"{address} asked for the whole history too often; try again in a few seconds"
            )
        if reserved:
            if self.reserved >= self.max_reserved:
                return f"the table serves {self.max_reserved} streams with a token at most"
            return None
        if len(self.streams) - self.reserved >= self.max_streams:
            return f"the table serves {self.max_streams} live streams at most; try again soon"
        if self.per_address.get(address, 0) >= self.max_per_address:
            return (
                f"{self.max_per_address} live streams are open from {address} already; "
                "close one or try again soon"
            )
        return None

    def open(self, address: str, reserved: bool = False) -> _Stream:
        stream = _Stream(address, reserved)
        self.streams.add(stream)
        self.catching_up[stream] = []
        if reserved:
            self.reserved += 1
        else:
            self.per_address[address] = self.per_address.get(address, 0) + 1
        if self.sensing is not None:
            for notice in self.sensing.open_notices():
                stream.push(_event_bytes(notice), self.max_buffered)
        return stream

    def caught_up(self, stream: _Stream, backlog: list[Notice], mark: int) -> None:
        """Queue ``backlog`` then the live notices after ``mark`` that came meanwhile."""
        stream.push_history([_event_bytes(n) for n in backlog])
        for number, notice in self.catching_up.pop(stream, []):
            if number > mark:
                stream.push(_event_bytes(notice), self.max_buffered)
        stream.mark = mark

    def close(self, stream: _Stream) -> None:
        if stream in self.streams:
            self.streams.discard(stream)
            self.catching_up.pop(stream, None)
            if stream.reserved:
                self.reserved -= 1
                return
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
        value = int(text.strip())
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {text[:40]!r}") from None
    if not -(2**63) <= value < 2**63:
        raise ValueError(f"{name} is out of range")
    return value


async def _json(send: Send, status: int, code: str, message: str, retry: int | None) -> None:
    body = json.dumps({"error": "ApiError", "code": code, "message": message, "rule": None})
    headers = [(b"content-type", b"application/json"), (b"cache-control", b"no-store")]
    if retry is not None:
        headers.append((b"retry-after", str(retry).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body.encode()})


def _page_file(scope: Scope) -> bool:
    """A page or one of its files (scripts, styles), not a call to the API."""
    return scope.get("method") == "GET" and not str(scope.get("path", "")).startswith("/api/")


class TableASGI:
    """The ASGI app (see the module docstring)."""

    def __init__(self, app: Flask, limits: FeedLimits | None = None) -> None:
        from web import runtime_of

        runtime = runtime_of(app)
        limits = limits or runtime.settings.feed
        self.flask = app
        self.service: TableService = runtime.service
        self.hub = LiveHub(self.service, limits, runtime.sensing)
        self.reads = WSGIMiddleware(app, workers=limits.read_workers)  # type: ignore[arg-type]
        self.writes = WSGIMiddleware(app, workers=limits.write_workers)  # type: ignore[arg-type]
        self.max_per_address = limits.http_per_address
        self.retry_after = limits.retry_after
        self.body_timeout = limits.body_timeout
        self.max_body = limits.max_body
        self.in_progress: dict[str, int] = {}
        self.ended: dict[str, int] = {}  # requests ended per address: its queue moving
        self._freed: asyncio.Condition | None = None  # made on the loop, when first needed

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
            return
        whole = await self._body(receive, send)
        if whole is None:
            return
        if self.service.is_table_token(_bearer(scope)):
            await self.writes(scope, whole, send)  # type: ignore[arg-type]
        else:
            await self._read(scope, whole, send, address)

    async def _body(self, receive: Receive, send: Send) -> Receive | None:
        """Read the request's body whole within `BODY_TIMEOUT`, on the loop (so a slow body
        never holds a Flask thread); a ``receive`` that replays it, or None when the answer
        is given already (408 too slow, 413 too large) or the client has gone."""
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - loop.time(), 0.001))
            except TimeoutError:
                await _json(send, 408, "body_too_slow",
                            f"the request's body did not arrive within {self.body_timeout:g} s",
                            None)
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await _json(send, 413, "too_large",
                            f"the request's body is larger than {self.max_body} bytes", None)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        first: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                                 "more_body": False}]

        async def replay() -> Message:
            return first.pop() if first else await receive()

        return replay

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
        if busy >= self.max_per_address and _page_file(scope):
            busy = await self._slot(address)
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
                self.ended[address] = self.ended.get(address, 0) + 1
            else:
                del self.in_progress[address]
                self.ended.pop(address, None)  # nothing left to wait for: kept no longer
            if self._freed is not None:
                async with self._freed:
                    self._freed.notify_all()

    async def _slot(self, address: str) -> int:
        """Wait for a request from ``address`` to end, for as long as its requests keep
        ending (none in ``retry_after`` seconds: given up), at most `SLOT_WAIT` seconds; the
        requests then in progress from it. For a page's own files: a page loads a dozen
        scripts at once, and one refused leaves it dead (it cannot retry a script), where a
        wait costs a coroutine; on a loaded machine the queue moves slower, not never."""
        if self._freed is None:
            self._freed = asyncio.Condition()
        freed = self._freed
        loop = asyncio.get_running_loop()
        give_up = loop.time() + SLOT_WAIT
        async with freed:
            while self.in_progress.get(address, 0) >= self.max_per_address:
                ended = self.ended.get(address, 0)

                def turn(before: int = ended) -> bool:  # a slot free, or the queue moved
                    return (self.in_progress.get(address, 0) < self.max_per_address
                            or self.ended.get(address, 0) != before)

                try:
                    await asyncio.wait_for(
                        freed.wait_for(turn),
                        min(self.retry_after, max(give_up - loop.time(), 0.001)),
                    )
                except TimeoutError:
                    break  # none of its requests ended for a while: stuck, not slow
                if loop.time() >= give_up:
                    break
        return self.in_progress.get(address, 0)

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
        token = query.get("token", [None])[-1] or _bearer(scope)
        reserved = self.service.is_table_token(token) or self.service.is_any_player_token(token)
        behind = self._backlog(after, game_id)
        refusal = hub.refusal(address, reserved, behind)
        if refusal is not None:
            await _json(send, 503, "too_many_streams", refusal, self.retry_after)
            return
        stream = hub.open(address, reserved)
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
                while stream.chunks and not watcher.done() and not stream.ended:
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

    def _backlog(self, after: int | None, game_id: int | None) -> int:
        """How many stored events a stream resuming after ``after`` would be sent first."""
        if after is None:
            return 0
        current = self.service.current_game_id
        if current is None or (game_id is not None and game_id != current):
            return 0
        return max(self.service.seq() - max(after, 0), 0)

    @staticmethod
    async def _watch(receive: Receive, stream: _Stream) -> None:
        """End ``stream`` when its client goes (closed, reset or timed out by the kernel)."""
        while (await receive())["type"] != "http.disconnect":
            pass
        stream.ended = True
        stream.wake.set()


def make_asgi(app: Flask, limits: FeedLimits | None = None) -> TableASGI:
    """The ASGI app serving ``app`` (made by `web.create_app`) with its live feed; its
    limits are ``limits``, else the runtime's settings' (`companion.settings.FeedLimits`)."""
    return TableASGI(app, limits)
