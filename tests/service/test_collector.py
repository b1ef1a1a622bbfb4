"""The service's garbage collector once start-up is done (`companion.collector`): what
start-up made is frozen and the young generation is collected less often; the reconcile
bench runs with the same settings and says so in its JSON."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from companion.collector import THRESHOLDS, settle_collector


@pytest.fixture
def restored() -> Iterator[None]:
    was = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*was)


@pytest.mark.usefixtures("restored")
def test_start_up_is_frozen_and_the_young_are_collected_less_often() -> None:
    frozen = gc.get_freeze_count()
    made_at_start = [[n] for n in range(1000)]  # containers the collector traces
    settle_collector()
    assert gc.get_freeze_count() >= frozen + len(made_at_start)
    assert gc.get_threshold() == THRESHOLDS
    assert THRESHOLDS[0] > 700  # the default: the search's states traced again and again
