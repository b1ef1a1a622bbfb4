"""Sensor adapters: each turns one kind of device into observations.

Every adapter is a small state machine (e.g. disconnected → opening → streaming → lost;
an enum per adapter, changed by one function that logs the change, at WARNING when the
device is lost, and tells the health panel) running on its own thread, trying its device
again after a capped exponential back-off with jitter (`companion.sensors.backoff`),
built with an ``emit`` callback that receives
``companion.reconcile.observations.Observation`` values, and follows the `Adapter`
protocol below so the runtime can start, stop and watch any of them alike. Adapters never
touch the game state (``docs/sensing.md``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from companion.reconcile.observations import Health, Observation

Emit = Callable[[Observation], None]


class Adapter(Protocol):
    """What the runtime needs of a sensor adapter."""

    name: str

    def start(self) -> None:
        """Start the adapter's thread; returns at once (the device may come later)."""

    def close(self) -> None:
        """Stop the thread and release the device; idempotent; returns within ~2 s."""

    def health(self) -> Health:
        """The adapter's state now (also emitted as an observation when it changes)."""


__all__ = ["Adapter", "Emit"]
