"""The serial hub benchmark runs as documented (real socat pair, real `SerialHub`) and
accounts for every line it writes."""

from __future__ import annotations

import re
import subprocess
import sys


def test_the_hub_benchmark_counts_every_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion.bench.hub", "--lines", "60", "--burst", "600"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert "(socat pty, 60/60 lines" in out, out
    burst = re.search(r"burst of 600 lines: (\d+) observations .* bad lines (\d+), gaps (\d+)", out)
    assert burst and burst.groups() == ("600", "0", "0"), out


def test_the_firmware_benchmark_prints_simulated_latencies() -> None:
    """The firmware image in simavr: placements timed on the AVR's clock, a crowd reported."""
    out = subprocess.run(
        [sys.executable, "-m", "companion.bench.hub_firmware", "--samples", "5",
         "--crowd", "3"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    assert "uno, 6 readers, quiet, 5 placements (simulated time)" in out, out
    seen = re.search(r"placed -> SEEN\s+p50\s+([\d.]+) ms\s+p95\s+([\d.]+) ms", out)
    gone = re.search(r"removed -> GONE\s+p50\s+([\d.]+) ms\s+p95\s+([\d.]+) ms", out)
    assert seen and gone, out
    assert 5 < float(seen.group(2)) < 120  # a tag needs 5 ms of field before it answers
    assert 200 < float(gone.group(2)) < 1000  # GONE waits 300 ms since the last sighting
    assert re.search(r" 3 tags on one reader: all SEEN after\s+[\d.]+ ms", out), out


def test_end_to_end_starts_at_the_placement() -> None:
    """--end-to-end measures the firmware first, then the path to the live feed."""
    out = subprocess.run(
        [sys.executable, "-m", "companion.bench.hub", "--end-to-end", "--samples", "3"],
        capture_output=True, text=True, timeout=300, check=True,
    ).stdout
    assert "placement -> SEEN line (firmware in simavr" in out and "(3/3 births" in out, out
    whole = re.search(r"placement -> SSE\s+p50\s+([\d.]+) ms", out)
    line = re.search(r"placement -> line\s+p50\s+([\d.]+) ms", out)
    assert whole and line, out
    assert float(whole.group(1)) >= 500 + float(line.group(1)) - 1  # settle and firmware in it
