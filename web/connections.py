"""Connections that cannot starve the table: limits below HTTP, where requests begin.

uvicorn's HTTP protocol (httptools) is extended by `guarded_protocol` so that every TCP
connection, before it has said anything, is counted and timed:

- **per address**: at most ``per_address`` open connections from one client address (the
  peer's own address: ``X-Forwarded-For`` never counts here); the next is answered 503 and
  closed at once;
- **in all**: at most ``total`` open connections (the process's descriptors minus a
  reserve for the database, devices and the table); when full, a newcomer takes the place
  of the oldest idle connection of the address holding the most, if that address holds
  more than the newcomer's, else it is refused (so a crowd on one address never locks out
  another address);
- **headers**: a request's headers must arrive within ``header_timeout`` seconds of the
  connection (or of the previous response) and fit in ``max_header_bytes`` (else 408 or
  431 and the connection is closed; the parser is never fed more than that plus one read);
- **live streams** (``/api/events``) get a small kernel send buffer (``stream_sndbuf``), so
  a reader that stops reading pins little kernel memory.

Bodies are read whole, under a deadline, before a request reaches a Flask thread (see
`web.asgi`), so a slow body never holds one.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["ConnectionLimits", "Connections", "guarded_protocol"]

RESERVED_DESCRIPTORS = 96
"""Descriptors kept out of the connection budget: SQLite and its WAL, the tag readers, the
camera, log files, and a few connections for the table itself."""


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The connection-level limits (see the module docstring); `for_descriptors` sizes
    ``total`` from the process's open-file limit."""

    per_address: int = 160
    total: int = 4000
    header_timeout: float = 10.0
    max_header_bytes: int = 16 * 1024
    stream_sndbuf: int = 32 * 1024

    @classmethod
    def for_descriptors(cls, fd_limit: int, **overrides: Any) -> ConnectionLimits:
        """Limits for a process allowed ``fd_limit`` open files. Raises ValueError when the
        limit leaves no room for connections."""
        total = fd_limit - RESERVED_DESCRIPTORS
        if total < 16:
            raise ValueError(f"an open-file limit of {fd_limit} leaves no room for connections")
        base = cls(**overrides)
        return replace(base, per_address=min(base.per_address, total),
                       total=min(base.total, total))


class Connections:
    """The open connections by client address, oldest first; what the guard refused."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.by_address: dict[str, OrderedDict[int, Any]] = {}
        self.count = 0
        self.refused = 0
        self.evicted = 0
        self.timed_out = 0
        self.too_large = 0

    def admit(self, address: str, conn: Any) -> bool:
        """Count ``conn`` from ``address`` in, making room if the total is reached; False
        (not counted) when it must be refused."""
        mine = self.by_address.get(address)
        if mine is not None and len(mine) >= self.limits.per_address:
            self.refused += 1
            return False
        if self.count >= self.limits.total and not self._make_room(address):
            self.refused += 1
            return False
        self.by_address.setdefault(address, OrderedDict())[id(conn)] = conn
        self.count += 1
        return True

    def release(self, address: str, conn: Any) -> None:
        """Forget ``conn`` (no error if it was never counted)."""
        mine = self.by_address.get(address)
        if mine is not None and mine.pop(id(conn), None) is not None:
            self.count -= 1
            if not mine:
                del self.by_address[address]

    def _make_room(self, address: str) -> bool:
        crowd = max(self.by_address, key=lambda a: len(self.by_address[a]), default=None)
        if crowd is None or crowd == address:
            return False
        held = self.by_address[crowd]
        if len(held) <= len(self.by_address.get(address, ())) + 1:
            return False
        victim = next((c for c in held.values() if c.idle), None) or next(iter(held.values()))
        self.release(crowd, victim)
        victim.evict()
        self.evicted += 1
        return True


def _plain(status: bytes, text: str) -> bytes:
    body = text.encode()
    return (
        b"HTTP/1.1 " + status + b"\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n"
        b"retry-after: 5\r\n\r\n" + body
    )


BUSY = _plain(b"503 Service Unavailable", "too many connections from this address\n")
SLOW = _plain(b"408 Request Timeout", "the request's headers came too slowly\n")
LARGE = _plain(b"431 Request Header Fields Too Large", "the request's headers are too large\n")


def guarded_protocol(connections: Connections) -> type[HttpToolsProtocol]:
    """uvicorn's httptools protocol bound to ``connections`` (pass it as ``http=``)."""
    limits = connections.limits

    class GuardedProtocol(HttpToolsProtocol):
        """One connection, counted by `Connections`, with header timeout and size limit."""

        _address = ""
        _counted = False
        _awaiting = True  # waiting for the headers of a request
        _header_bytes = 0
        _timer: asyncio.TimerHandle | None = None

        @property
        def idle(self) -> bool:
            """Whether no request is being answered on this connection."""
            return self.cycle is None or self.cycle.response_complete

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._address = self.client[0] if self.client else "unknown"
            if not connections.admit(self._address, self):
                transport.write(BUSY)
                transport.close()
                return
            self._counted = True
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if self._counted:
                connections.release(self._address, self)
                self._counted = False
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if not self._counted:
                return
            if self._awaiting:
                self._header_bytes += len(data)
            super().data_received(data)
            if self._awaiting and self._header_bytes > limits.max_header_bytes:
                connections.too_large += 1
                self._refuse(LARGE)

        def on_headers_complete(self) -> None:
            self._awaiting = False
            self._header_bytes = 0
            self._disarm()
            if self.url.startswith(b"/api/events"):
                # a stalled reader holds ~16 KiB queued in the process, 64 KiB in the kernel
                self.transport.set_write_buffer_limits(high=16 * 1024)
                sock = self.transport.get_extra_info("socket")
                if sock is not None:
                    with contextlib.suppress(OSError):  # a socket that refuses keeps its own
                        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, limits.stream_sndbuf)
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            pipelined = bool(self.pipeline)  # the next request's headers are in already
            super().on_response_complete()
            if not pipelined and not self.transport.is_closing():
                self._awaiting = True
                self._header_bytes = 0
                self._arm()

        def evict(self) -> None:
            """Close to make room for another address's connection."""
            self._counted = False
            self._disarm()
            self.transport.close()

        def _arm(self) -> None:
            self._disarm()
            self._timer = self.loop.call_later(limits.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _too_slow(self) -> None:
            self._timer = None
            if self._awaiting and not self.transport.is_closing():
                connections.timed_out += 1
                self._refuse(SLOW)

        def _refuse(self, answer: bytes) -> None:
            if not self.transport.is_closing():
                if self.idle:
                    self.transport.write(answer)
                self.transport.close()

    return GuardedProtocol
