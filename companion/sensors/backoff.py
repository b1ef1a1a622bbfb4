"""How long an adapter waits before it tries its device again: exponential back-off,
capped, with jitter.

    wait = Backoff(first=0.1, cap=1.0)
    delay = wait.next()   # 0.1, 0.2, 0.4, 0.8, 1.0, 1.0 … each cut by up to 20 % at random
    wait.reset()          # the device answered: the next failure waits ``first`` again

The jitter only shortens a delay (never past ``cap``), so adapters started together (three
hubs replugged at once) do not retry in step, and the cap is what a person waits at most
after plugging a device back. ``first`` 0 means no waiting at all (a simulated source).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["Backoff"]

_MAX_DOUBLINGS = 32  # past this the cap has long been reached; keeps 2**n small


@dataclass
class Backoff:
    """Delays ``first``, ``2 × first``, ``4 × first`` … up to ``cap`` seconds, each cut by
    up to ``jitter`` (a fraction, 0 to 1) at random with ``rng``.

    Raises ValueError for a negative ``first``, a ``cap`` below ``first`` or a ``jitter``
    outside 0…1."""

    first: float
    cap: float
    jitter: float = 0.2
    rng: random.Random = field(default_factory=random.Random, repr=False)
    failures: int = 0  # delays handed out since the last reset

    def __post_init__(self) -> None:
        if self.first < 0 or self.cap < self.first or not 0 <= self.jitter <= 1:
            raise ValueError(f"back-off needs 0 <= first <= cap and jitter in 0…1, not "
                             f"first={self.first}, cap={self.cap}, jitter={self.jitter}")

    def next(self) -> float:
        """The delay before the next try (and one failure more counted)."""
        base = min(self.cap, self.first * (1 << min(self.failures, _MAX_DOUBLINGS)))
        self.failures += 1
        return base * (1 - self.jitter * self.rng.random())

    def reset(self) -> None:
        """The device answered: start again from ``first``."""
        self.failures = 0
