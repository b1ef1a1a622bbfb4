"""A small server-sent-events client on a raw socket (tests and the benchmark).

It speaks HTTP/1.1, undoes the chunked transfer encoding if the server uses it, and parses
the ``text/event-stream`` format: ``id:``/``data:`` lines, a blank line ends an event,
lines starting with ``:`` are comments. ``source`` binds the client to a local address
(e.g. ``127.0.0.7``, to look like another machine); `drop` vanishes without a goodbye (a
TCP reset, as a tablet that loses the Wi-Fi and comes back).
"""

from __future__ import annotations

import json
import socket
import struct
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One received event: its ``id``, ``data`` text (``json()`` parses it) and ``event``
    name (None for an unnamed event: a stored event of the game)."""

    id: str | None
    data: str
    event: str | None = None

    def json(self) -> Any:
        return json.loads(self.data)


class SSEClient:
    """Connect to ``path`` on ``host:port`` and read events with `next_event`.

    Raises:
        OSError: the connection fails. ConnectionError: the server answers with a status
        other than 200, or closes the stream.
    """

    def __init__(
        self,
        host: str,
        port: int,
        path: str = "/api/events",
        headers: dict[str, str] | None = None,
        timeout: float = 10.0,
        source: str | None = None,
    ) -> None:
        address = (source, 0) if source else None
        self._sock = socket.create_connection((host, port), timeout=timeout, source_address=address)
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        request = f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n"
        self._raw = b""
        self._buffer = b""
        self._chunked = False
        self._chunk_left = 0
        try:
            self._sock.sendall(request.encode("utf-8"))
            head = self._read_raw_until(b"\r\n\r\n")
        except BaseException:
            self._sock.close()
            raise
        status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        self.status = int(status_line.split()[1]) if len(status_line.split()) > 1 else 0
        lines = head.decode("latin-1").split("\r\n")[1:]
        self.headers = {
            k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines)
        }
        if self.status != 200:
            self._sock.close()
            raise ConnectionError(f"SSE request refused: {status_line}")
        self._chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        self._buffer, self._raw = self._raw, b""
        if self._chunked:
            self._raw, self._buffer = self._buffer, b""
            self._dechunk()
        self.comments = 0

    def _recv(self) -> bytes:
        chunk = self._sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the stream")
        return chunk

    def _read_raw_until(self, marker: bytes) -> bytes:
        while marker not in self._raw:
            self._raw += self._recv()
        part, self._raw = self._raw.split(marker, 1)
        return part

    def _dechunk(self) -> None:
        """Move the complete chunk data in ``_raw`` to ``_buffer``."""
        while self._raw:
            if self._chunk_left == 0:
                if b"\r\n" not in self._raw:
                    return
                size, rest = self._raw.split(b"\r\n", 1)
                if not size:  # the CRLF that ends the previous chunk
                    self._raw = rest
                    continue
                self._chunk_left = int(size.split(b";")[0], 16)
                if self._chunk_left == 0:
                    raise ConnectionError("the server ended the stream")
                self._raw = rest
            take = self._raw[: self._chunk_left]
            self._buffer += take
            self._raw = self._raw[len(take) :]
            self._chunk_left -= len(take)

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buffer:
            if self._chunked:
                self._raw += self._recv()
                self._dechunk()
            else:
                self._buffer += self._recv()
        part, self._buffer = self._buffer.split(marker, 1)
        return part

    def next_event(self) -> SSEEvent:
        """Block until the next event (comments are counted and skipped).

        Raises:
            TimeoutError: nothing within the timeout. ConnectionError: stream closed.
        """
        while True:
            event = self._parse(self._read_until(b"\n\n"))
            if event is not None:
                return event

    def available_events(self) -> list[SSEEvent]:
        """Read what the socket holds now (call when it is readable, e.g. after select) and
        return the events completed by it, [] if none.

        Raises:
            ConnectionError: the stream was closed or reset.
        """
        try:
            data = self._sock.recv(262144)
        except (BlockingIOError, TimeoutError):
            return []
        if not data:
            raise ConnectionError("the server closed the stream")
        if self._chunked:
            self._raw += data
            self._dechunk()
        else:
            self._buffer += data
        events = []
        while b"\n\n" in self._buffer:
            block, self._buffer = self._buffer.split(b"\n\n", 1)
            event = self._parse(block)
            if event is not None:
                events.append(event)
        return events

    def _parse(self, raw: bytes) -> SSEEvent | None:
        event_id: str | None = None
        event_name: str | None = None
        data: list[str] = []
        for line in raw.decode("utf-8").split("\n"):
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "id":
                event_id = value
            elif name == "event":
                event_name = value
            elif name == "data":
                data.append(value)
        return SSEEvent(event_id, "\n".join(data), event_name) if data else None

    def close(self) -> None:
        """Close the connection."""
        self._sock.close()

    def drop(self) -> None:
        """Vanish: close with SO_LINGER 0, which resets the connection (no FIN)."""
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self._sock.close()

    def fileno(self) -> int:
        """The socket's file descriptor (for select)."""
        return self._sock.fileno()

    def __enter__(self) -> SSEClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
