"""Benchmark: the hub firmware's own latency and capacity, in simulated time.

    python -m companion.bench.hub_firmware [--board uno|mega] [--readers N]
        [--samples N] [--crowd N [N ...]]

Builds the firmware image (``make`` in ``firmware/``, ``READERS=N`` if given) and the
simavr harness (``firmware/sim``), runs the image with simulated MFRC522s and tags (their
answer times modelled from ISO/IEC 14443-3 and the MFRC522 datasheet: see
``firmware/sim/mfrc522_sim.h``), and times, on the AVR's own clock (so a busy machine
changes nothing):

- a single tag put on a random reader of a quiet hub at a random moment → its ``SEEN``
  line has left the UART; then taken away → ``GONE`` (``--samples`` placements);
- for each ``--crowd`` size n: n tags put on one reader at once → the last ``SEEN``, and
  the poll rate of that reader with n tags on it (from the ``HB`` lines).

Needs gcc-avr, arduino-core-avr, libsimavr-dev (as ``make -C firmware/sim``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import statistics
import sys
import threading
import time

from companion.sensors.hub_protocol import command
from companion.sim.hub_harness import MCU, SimHub, build_firmware, wait_for

READERS = {"uno": 6, "mega": 12}


class TracedSim(SimHub):
    """The firmware image in simavr, traced, its pty drained by the host side, started
    (HELLO, START, SYNC) before the first measure."""

    def __init__(self, board: str, readers: int | None = None) -> None:
        super().__init__(build_firmware(board, readers), MCU[board])
        self.fd = os.open(self.pty, os.O_RDWR | os.O_NOCTTY)
        threading.Thread(target=self._drain, daemon=True).start()
        self.trace()
        if not wait_for(lambda: self.lines(kind="HELLO"), 30):
            raise RuntimeError("the firmware never said HELLO")
        os.write(self.fd, command("START"))
        if not wait_for(lambda: self.lines(kind="SYNC"), 30):
            raise RuntimeError("the firmware never said SYNC")

    def _drain(self) -> None:
        while True:
            try:
                if not os.read(self.fd, 4096):
                    return
            except OSError:
                return

    def at(self, *texts: str) -> int:
        """Apply script commands at one instant; returns its simulated µs."""
        self.cmds(list(texts))
        return self.command_time(texts[-1])

    def close(self) -> None:
        super().close()
        with contextlib.suppress(OSError):
            os.close(self.fd)


def placement_latencies(samples: int, board: str = "uno", readers: int | None = None,
                        seed: int = 11) -> tuple[list[float], list[float]]:
    """SEEN and GONE latencies in ms (simulated) of `samples` single placements."""
    rng = random.Random(seed)
    n = readers or READERS[board]
    uid = "04D1D2D3D4D5D6"
    seen: list[float] = []
    gone: list[float] = []
    sim = TracedSim(board, readers)
    try:
        for _ in range(samples):
            r = rng.randrange(n)
            time.sleep(rng.uniform(0, 0.05))
            t = sim.at(f"add {r} {uid}")
            seen.append((sim.wait_line(t, "SEEN", uid) - t) / 1000)
            time.sleep(rng.uniform(0, 0.05))
            t = sim.at(f"remove {r} {uid}")
            gone.append((sim.wait_line(t, "GONE", uid) - t) / 1000)
    finally:
        sim.close()
    return seen, gone


def crowd_numbers(n: int, board: str) -> tuple[float, float]:
    """(ms from n tags put on reader 0 to the last SEEN, polls/s of that reader then)."""
    rng = random.Random(n)
    uids: list[str] = []
    while len(uids) < n:
        uid = bytes([0x04, 0xA1, 0xB2] + [rng.randrange(256) for _ in range(4)]).hex().upper()
        if uid not in uids and uid[6:8] != "88":
            uids.append(uid)
    sim = TracedSim(board)
    try:
        t = sim.at(*[f"add 0 {u}" for u in uids])
        last = max(sim.wait_line(t, "SEEN", u) for u in uids)
        hb = sim.wait_line(last, "HB")
        hb2 = sim.wait_line(hb + 1, "HB")
        rate = float(next(a for us, _, a in sim.lines(hb2, "HB"))[1].split(",")[0])
        return (last - t) / 1000, rate
    finally:
        sim.close()


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.bench.hub_firmware")
    ap.add_argument("--board", choices=sorted(MCU), default="uno")
    ap.add_argument("--readers", type=int, default=None, help="build with READERS=N")
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--crowd", type=int, nargs="*", default=[],
                    help="tags on one reader: time to report them all, polls/s")
    args = ap.parse_args(argv)
    n = args.readers or READERS[args.board]
    seen, gone = placement_latencies(args.samples, args.board, args.readers)
    print(f"{args.board}, {n} readers, quiet, {args.samples} placements (simulated time):")
    for name, xs in (("placed -> SEEN", seen), ("removed -> GONE", gone)):
        print(f"  {name:16s} p50 {statistics.median(xs):7.1f} ms  p95 {_pct(xs, 0.95):7.1f} ms"
              f"  max {max(xs):7.1f} ms")
    for c in args.crowd:
        t, rate = crowd_numbers(c, args.board)
        print(f"  {c:2d} tags on one reader: all SEEN after {t:7.1f} ms; "
              f"that reader polled {rate:.0f}/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
