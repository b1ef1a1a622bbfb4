"""The live feed: every change of a game, fanned out to subscribers (SSE clients).

The service publishes one `Notice` per stored event, in seq order, while it holds its lock;
each subscriber has its own queue. A subscriber that falls too far behind is cut off (its
queue is closed), so one sleeping tablet cannot make the server hold every event forever:
it reconnects and catches up from its last seq.
"""

from __future__ import annotations

import functools
import queue
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

MAX_BACKLOG: Final = 10_000
"""Notices a subscriber may have waiting before it is cut off."""


@dataclass(frozen=True)
class Notice:
    """One message of the feed. ``data`` is the JSON text sent to clients (built once,
    shared by all subscribers). A stored event has no ``event`` name and is sent with
    ``id: <seq>`` (``seq``: the store's seq); a named message (``event``: ``proposal``,
    ``prompt``, ``discrepancy``, ``closed``, ``health``) is sent with ``event: <name>`` and
    no id, so it never moves a client's resume point (its ``game_id`` and ``seq`` are 0)."""

    game_id: int
    seq: int
    data: str
    event: str | None = None

    def sse(self) -> str:
        """The SSE text of this message (ends with the blank line)."""
        if self.event is not None:
            return f"event: {self.event}\ndata: {self.data}\n\n"
        return f"id: {self.seq}\ndata: {self.data}\n\n"

    @functools.cached_property
    def encoded(self) -> bytes:
        """`sse` as UTF-8, encoded once and shared by every stream that sends it."""
        return self.sse().encode()


class Subscription:
    """A subscriber's queue of notices. Iterate with `get`; `close` when done."""

    def __init__(self, feed: Feed, backlog: Iterable[Notice]) -> None:
        self._feed = feed
        self._queue: queue.SimpleQueue[Notice | None] = queue.SimpleQueue()
        self._size = 0
        self.closed = False
        for notice in backlog:
            self._queue.put(notice)

    def get(self, timeout: float | None = None) -> Notice | None:
        """The next notice, or None if ``timeout`` seconds pass first.

        Raises:
            EOFError: the subscription was closed (by `close`, or cut off for lagging).
        """
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            if self.closed:
                raise EOFError("subscription closed") from None
            return None
        if item is None:
            self.closed = True
            raise EOFError("subscription closed")
        return item

    def close(self) -> None:
        """Stop receiving notices (safe to call twice)."""
        self._feed.remove(self)
        self._end()

    def offer(self, notice: Notice) -> None:
        """Queue ``notice`` from outside the feed (a named message); a subscriber that lags
        too far behind is closed instead."""
        self._put(notice)

    def _put(self, notice: Notice) -> bool:
        """Queue ``notice``; False (and closed) if the subscriber lags too far behind."""
        if self._queue.qsize() >= MAX_BACKLOG:
            self._end()
            return False
        self._queue.put(notice)
        return True

    def _end(self) -> None:
        if not self.closed:
            self.closed = True
            self._queue.put(None)


class Feed:
    """The set of subscriptions; `publish` gives a notice to each of them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: set[Subscription] = set()

    def add(self, backlog: Iterable[Notice]) -> Subscription:
        """A new subscription, primed with ``backlog`` (older notices it must see first)."""
        sub = Subscription(self, backlog)
        with self._lock:
            self._subs.add(sub)
        return sub

    def remove(self, sub: Subscription) -> None:
        """Forget ``sub`` (no error if already gone)."""
        with self._lock:
            self._subs.discard(sub)

    def publish(self, notice: Notice) -> None:
        """Queue ``notice`` for every subscriber; drop those that lag too far behind."""
        with self._lock:
            lagging = [sub for sub in self._subs if not sub._put(notice)]
            for sub in lagging:
                self._subs.discard(sub)

    def __len__(self) -> int:
        with self._lock:
            return len(self._subs)
