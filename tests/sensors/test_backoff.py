"""The adapters' back-off: exponential, capped, with jitter that only shortens a delay."""

from __future__ import annotations

import random

import pytest

from companion.sensors.backoff import Backoff


def test_delays_double_up_to_the_cap_and_start_again_after_a_reset() -> None:
    wait = Backoff(first=0.1, cap=1.0, jitter=0.0)
    assert [round(wait.next(), 6) for _ in range(7)] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0]
    wait.reset()
    assert wait.next() == 0.1


def test_jitter_spreads_adapters_apart_and_never_passes_the_cap() -> None:
    a = Backoff(first=0.5, cap=4.0, rng=random.Random(1))
    b = Backoff(first=0.5, cap=4.0, rng=random.Random(2))
    da, db = [a.next() for _ in range(50)], [b.next() for _ in range(50)]
    assert da != db  # two hubs replugged together do not retry in step
    for n, (x, y) in enumerate(zip(da, db, strict=True)):
        full = min(4.0, 0.5 * 2 ** n)
        assert 0.8 * full <= x <= full and 0.8 * full <= y <= full


def test_a_thousand_failures_do_not_overflow() -> None:
    wait = Backoff(first=1.0, cap=30.0, jitter=0.0)
    for _ in range(1000):
        wait.next()
    assert wait.next() == 30.0


def test_no_wait_at_all_for_a_first_delay_of_zero() -> None:
    wait = Backoff(first=0.0, cap=0.0)
    assert [wait.next() for _ in range(3)] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(("first", "cap", "jitter"), [(-1, 1, 0.2), (2, 1, 0.2), (1, 2, 1.5)])
def test_impossible_settings_are_refused(first: float, cap: float, jitter: float) -> None:
    with pytest.raises(ValueError, match="back-off"):
        Backoff(first, cap, jitter)
