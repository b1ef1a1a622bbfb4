"""Measure the tap pad on a real pcscd + vpcd (as root, no other pcscd running): tap →
observation latency over 20 taps, and how soon the pad is up again after pcscd restarts.

    PYTHONPATH=. python tests/sensors/measure_pad.py
"""

from __future__ import annotations

import queue
import statistics
import tempfile
import time
from pathlib import Path

from pcscdkit import MAIN, Pcscd
from vcard import VirtualTag

from companion.reconcile.observations import Health, Observation, TagTapped
from companion.sensors.pcsc_pad import PcscPad


def wait_for(q: queue.Queue[Observation], kind: type, state: str | None = None) -> Observation:
    while True:
        obs = q.get(timeout=10)
        if isinstance(obs, kind) and (state is None or getattr(obs, "state", None) == state):
            return obs


def main(taps: int = 20) -> None:
    daemon = Pcscd(Path(tempfile.mkdtemp(prefix="measure-pad-")))
    daemon.start(MAIN)
    q: queue.Queue[Observation] = queue.Queue()
    pad = PcscPad(q.put)
    pad.start()
    try:
        wait_for(q, Health, "up")
        latency = []
        for i in range(taps):
            t0 = time.monotonic()
            tag = VirtualTag(f"04{i:06X}").place()
            latency.append(wait_for(q, TagTapped).t - t0)
            tag.remove()
            time.sleep(0.5)
        print(f"tap → observation over {taps} taps: p50 {statistics.median(latency) * 1e3:.0f} ms,"
              f" max {max(latency) * 1e3:.0f} ms")
        daemon.stop()
        t0 = time.monotonic()
        daemon.start(MAIN)
        listed = time.monotonic()
        wait_for(q, Health, "up")
        print(f"pcscd restarted → pad up {(time.monotonic() - listed) * 1e3:.0f} ms after the new"
              f" pcscd listed its readers ({(listed - t0) * 1e3:.0f} ms to start it)")
    finally:
        pad.close()
        daemon.stop()


if __name__ == "__main__":
    main()
