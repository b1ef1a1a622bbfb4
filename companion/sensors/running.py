"""The adapters running in this process, for the pages: their health and the recent taps.

The runtime that owns the adapters (`companion.runtime.Runtime.running`) creates the
adapters with ``emit=running.observe`` and registers them with `RunningSensors.add`; the
web app reads the same object through its runtime. The pages then read `RunningSensors.report` (each
adapter's `Health` and, when the adapter has a ``readers()`` method, one row per reader)
and `RunningSensors.taps_after` (the taps, for enrolment). Other consumers (the reconciler)
get every observation through `RunningSensors.subscribe`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from companion.reconcile.observations import Observation, TagTapped, to_json
from companion.sensors import Adapter

__all__ = ["RunningSensors"]


class RunningSensors:
    """A registry of running adapters, the last ``keep`` taps, and observation listeners."""

    def __init__(self, keep: int = 200) -> None:
        self._lock = threading.Condition()
        self._adapters: dict[str, Adapter] = {}
        self._taps: deque[dict[str, Any]] = deque(maxlen=keep)
        self._seq = 0
        self._listeners: list[Callable[[Observation], None]] = []
        self._stopped = False

    def add(self, adapter: Adapter) -> None:
        """Show this adapter on the health panel (by its ``name``; a second one with the
        same name replaces the first)."""
        with self._lock:
            self._adapters[adapter.name] = adapter

    def adapters(self) -> list[Adapter]:
        with self._lock:
            return list(self._adapters.values())

    def subscribe(self, listener: Callable[[Observation], None]) -> Callable[[], None]:
        """Call ``listener`` with every observation from now on; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def observe(self, obs: Observation) -> None:
        """The ``emit`` to give adapters: keeps taps for the pages, passes everything on."""
        with self._lock:
            if isinstance(obs, TagTapped):
                self._seq += 1
                self._taps.append(
                    {"seq": self._seq, "time": time.time(), **to_json(obs)}
                )
                self._lock.notify_all()
            listeners = list(self._listeners)
        for listener in listeners:
            listener(obs)

    @property
    def last_tap(self) -> int:
        """The number of the last tap kept (0 before any)."""
        with self._lock:
            return self._seq

    def taps_after(self, seq: int, wait: float = 0.0) -> list[dict[str, Any]]:
        """The taps numbered above ``seq`` (oldest first), waiting up to ``wait`` seconds
        for one if there is none yet. Each is the tap's JSON (``kind``, ``reader``, ``uid``,
        ``piece``, ``source``, ``t``) plus ``seq`` and ``time`` (epoch seconds)."""
        deadline = time.monotonic() + wait
        with self._lock:
            while self._seq <= seq and not self._stopped \
                    and (left := deadline - time.monotonic()) > 0:
                self._lock.wait(left)
            return [t for t in self._taps if t["seq"] > seq]

    def report(self) -> list[dict[str, Any]]:
        """One entry per adapter: ``name``, ``health`` (the `Health` as JSON) and
        ``readers`` (the adapter's ``readers()`` rows, or [] if it has none)."""
        out = []
        for adapter in self.adapters():
            readers = getattr(adapter, "readers", None)
            out.append(
                {
                    "name": adapter.name,
                    "health": to_json(adapter.health()),
                    "readers": list(readers()) if callable(readers) else [],
                }
            )
        return out

    def stop_waiting(self) -> None:
        """End every wait for a tap now, and wait no more (the server is stopping)."""
        with self._lock:
            self._stopped = True
            self._lock.notify_all()

    def close(self) -> None:
        """End the waits for a tap, close every adapter (each returns within ~2 s)."""
        self.stop_waiting()
        for adapter in self.adapters():
            adapter.close()
