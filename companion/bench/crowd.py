"""Many live-feed clients in one process (the load test and the benchmark).

A `Crowd` opens `SSEClient` streams from distinct loopback addresses (``127.1.x.y``, so a
server's per-address cap sees many machines) and reads them all in one thread with
``select``; each `Member` records the seq of every event it gets and when. `Crowd.drop`
makes a member vanish with a TCP reset (SO_LINGER 0), as a tablet that loses the Wi-Fi.
"""

from __future__ import annotations

import selectors
import threading
import time
from dataclasses import dataclass, field

from companion.bench.sse import SSEClient
from companion.table.limits import raise_file_limit

__all__ = ["Crowd", "Member", "loopback_address", "raise_file_limit"]


def loopback_address(index: int) -> str:
    """The ``index``-th distinct client address on the loopback network (127.1.0.1, …)."""
    return f"127.1.{index // 250}.{index % 250 + 1}"


@dataclass
class Member:
    """One client of the crowd: what it asked to resume after, and what it received."""

    client: SSEClient
    after: int | None
    received: list[tuple[int, float]] = field(default_factory=list)  # (seq, perf_counter)
    live: bool = True
    error: str | None = None
    data_bytes: int = 0  # the data of the stored events received (what a page parses)


class Crowd:
    """SSE clients of ``host:port`` read by one thread. Use as a context manager."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port
        self.members: list[Member] = []
        self._selector = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, name="crowd", daemon=True)
        self._thread.start()

    def join(self, after: int | None = None, timeout: float = 30.0) -> Member:
        """Open one more stream (from the next loopback address), resuming ``after`` a seq.

        Raises:
            ConnectionError: refused (e.g. 503 over a cap). OSError: cannot connect.
        """
        path = "/api/events" if after is None else f"/api/events?after={after}"
        source = loopback_address(len(self.members))
        client = SSEClient(self.host, self.port, path, timeout=timeout, source=source)
        member = Member(client, after)
        with self._lock:
            self.members.append(member)
            client._sock.setblocking(False)
            self._selector.register(client.fileno(), selectors.EVENT_READ, member)
        return member

    def drop(self, member: Member) -> None:
        """Make ``member`` vanish: no FIN, a reset."""
        with self._lock:
            if member.live:
                member.live = False
                self._selector.unregister(member.client.fileno())
                member.client.drop()

    def live(self) -> list[Member]:
        with self._lock:
            return [m for m in self.members if m.live]

    def _read(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                registered = bool(self._selector.get_map())
                ready = self._selector.select(timeout=0.01) if registered else []
                now = time.perf_counter()
                for key, _ in ready:
                    member: Member = key.data
                    try:
                        events = member.client.available_events()
                    except (ConnectionError, OSError) as exc:
                        member.live = False
                        member.error = str(exc)
                        self._selector.unregister(key.fd)
                        member.client.close()
                        continue
                    stored = [e for e in events if e.event is None]
                    member.received.extend((int(e.id or -1), now) for e in stored)
                    member.data_bytes += sum(len(e.data.encode()) for e in stored)
            if not ready:
                time.sleep(0.002)

    def wait_for(self, seq: int, timeout: float = 10.0) -> bool:
        """Wait until every live member has received ``seq``; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if all(m.received and m.received[-1][0] >= seq for m in self.members if m.live):
                    return True
            time.sleep(0.001)
        return False

    def close(self) -> None:
        """Stop reading and close every stream."""
        self._stop.set()
        self._thread.join(5)
        with self._lock:
            for member in self.members:
                if member.live:
                    member.live = False
                    member.client.close()
            self._selector.close()

    def __enter__(self) -> Crowd:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
