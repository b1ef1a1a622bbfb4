"""``companion reconcile-bench --compute``: the reconciler's CPU per look, in percentiles,
per setup and noise level (a benchmark's report, not a timed test)."""

from __future__ import annotations

from companion.bench import reconcile as rbench
from companion.sim.link import Counts


def test_each_row_gives_the_percentiles_and_the_dearest_look() -> None:
    counts = Counts()
    counts.timings = [i / 1000 for i in range(1, 101)]  # 1 to 100 ms
    counts.table_timings = [0.2]
    r = rbench.row("hub", "ordinary", counts)
    assert (r["compute_ms_p50"], r["compute_ms_p95"], r["compute_ms_p99"],
            r["compute_ms_max"]) == (51.0, 96.0, 100.0, 100.0)
    assert r["compute_ms_total"] == 5050.0  # every look's CPU, summed


def test_the_compute_table_lists_every_row() -> None:
    counts = Counts()
    counts.timings = [0.001, 0.002, 0.030]
    counts.table_timings = [0.033]
    result = {"games": 1, "seed": 1, "play": "random", "seconds": 1.0,
              "machine": {"load_1min": 2.5, "cpus": 2},
              "results": [rbench.row(s, "heavy", counts) for s in ("pad", "camera")]}
    text = rbench.compute_table(result)
    lines = text.splitlines()
    assert lines[0].startswith("| setup | noise | looks | CPU ms p50 | p95 | p99 | max |")
    assert any(line.startswith("| camera | heavy | 3 | 2.0 | 30.0 | 30.0 | 30.0 | 33.0 |")
               for line in lines)
    assert "load 2.5" in text
