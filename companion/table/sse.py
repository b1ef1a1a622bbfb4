"""A small server-sent-events client on a raw socket (tests and the benchmark).

It speaks HTTP/1.0 so the server streams the body as is (no chunked encoding) and parses
the ``text/event-stream`` format: ``id:``/``data:`` lines, a blank line ends an event,
lines starting with ``:`` are comments.
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One received event: its ``id`` and ``data`` text (``json()`` parses it)."""

    id: str | None
    data: str

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
    ) -> None:
        self._sock = socket.create_connection((host, port), timeout=timeout)
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        request = f"GET {path} HTTP/1.0\r\nHost: {host}\r\nAccept: text/event-stream\r\n{extra}\r\n"
        self._sock.sendall(request.encode("utf-8"))
        self._buffer = b""
        head = self._read_until(b"\r\n\r\n")
        status_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        if " 200 " not in status_line + " ":
            raise ConnectionError(f"SSE request refused: {status_line}")
        self.comments = 0

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buffer:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise ConnectionError("the server closed the stream")
            self._buffer += chunk
        part, self._buffer = self._buffer.split(marker, 1)
        return part

    def next_event(self) -> SSEEvent:
        """Block until the next event (comments are counted and skipped).

        Raises:
            TimeoutError: nothing within the timeout. ConnectionError: stream closed.
        """
        while True:
            block = self._read_until(b"\n\n").decode("utf-8")
            event_id: str | None = None
            data: list[str] = []
            for line in block.split("\n"):
                if line.startswith(":"):
                    self.comments += 1
                    continue
                name, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if name == "id":
                    event_id = value
                elif name == "data":
                    data.append(value)
            if data:
                return SSEEvent(event_id, "\n".join(data))

    def close(self) -> None:
        """Close the connection."""
        self._sock.close()

    def __enter__(self) -> SSEClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
