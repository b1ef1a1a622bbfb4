"""The reconciler's CPU per tick outside its look (`Reconciler.tick_timings`): one figure
per tick, the look's own time (`timings`) left out of it, and the bench's row gives its
percentiles."""

from __future__ import annotations

from typing import Any

import pytest
from reconcile_kit import run

from companion import village as v
from companion.bench import reconcile as rbench
from companion.reconcile import reconciler as reconciler_module
from companion.reconcile.observations import CubeCounts
from companion.reconcile.reconciler import Reconciler
from companion.sim.link import Counts
from companion.sim.memory_link import MemoryLink
from companion.village.picture import picture


class _Clock:
    """A thread clock that moves 1 ms per reading, and 10 s during each look's work."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        self.t += 0.001
        return self.t


def test_each_tick_is_timed_without_its_look(situations: dict[str, Any],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    st, take = situations["take"][0]
    clock = _Clock()
    monkeypatch.setattr(reconciler_module.time, "thread_time", clock)
    dear = Reconciler._reconcile

    def reconcile(self: Reconciler, *args: Any, **kw: Any) -> Any:
        clock.t += 10.0  # a dear look
        return dear(self, *args, **kw)

    monkeypatch.setattr(Reconciler, "_reconcile", reconcile)
    rec = Reconciler(MemoryLink(st))
    after = picture(v.apply(st, take)).cubes
    for region, counts in picture(st).cubes.items():
        rec.observe(CubeCounts("camera:0", 0.0, region=region, counts=dict(counts)))
    run(rec, 0.0, 1.0)
    for region, counts in after.items():
        rec.observe(CubeCounts("camera:0", 2.0, region=region, counts=dict(counts)))
    run(rec, 2.0, 3.0)
    assert len(rec.tick_timings) == 22  # every tick, a look or not
    assert len(rec.timings) >= 2 and all(t > 10 for t in rec.timings)
    assert all(0 < t < 1 for t in rec.tick_timings)


def test_the_bench_row_gives_the_ticks_percentiles() -> None:
    counts = Counts()
    counts.tick_timings = [i / 1e6 for i in range(1, 1001)]  # 1 µs to 1 ms
    r = rbench.row("hub", "ordinary", counts)
    assert r["ticks"] == 1000
    assert (r["tick_ms_p50"], r["tick_ms_p95"], r["tick_ms_p99"], r["tick_ms_max"]) == (
        0.501, 0.951, 0.991, 1.0)
    assert r["tick_ms_total"] == 500.5


def test_the_compute_table_shows_the_ticks() -> None:
    counts = Counts()
    counts.timings = [0.002]
    counts.table_timings = [0.002]
    counts.tick_timings = [0.0001, 0.0002, 0.004]
    result = {"games": 1, "seed": 1, "play": "random", "seconds": 1.0,
              "machine": {"load_1min": 2.5, "cpus": 2},
              "results": [rbench.row("hub", "heavy", counts)]}
    assert "| hub | heavy | 1 | 2.0 | 2.0 | 2.0 | 2.0 | 2.0 | 3 | 4.000 / 4.0 |" in (
        rbench.compute_table(result).splitlines())
