"""The serial hub benchmark runs as documented (real socat pair, real `SerialHub`) and
accounts for every line it writes."""

from __future__ import annotations

import re
import subprocess
import sys


def test_the_hub_benchmark_counts_every_line() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "companion.sensors.hub_bench", "--lines", "60", "--burst", "600"],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert "(socat pty, 60/60 lines" in out, out
    burst = re.search(r"burst of 600 lines: (\d+) observations .* bad lines (\d+), gaps (\d+)", out)
    assert burst and burst.groups() == ("600", "0", "0"), out
