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
import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from companion.sensors.hub_protocol import command

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
MCU = {"uno": "atmega328p", "mega": "atmega2560"}
READERS = {"uno": 6, "mega": 12}


class TracedSim:
    """The firmware image in ``hub_sim``, traced; the host side says START and drains the
    pty. ``lines()`` are (simulated µs, TYPE, args) of what the hub sent."""

    def __init__(self, board: str, readers: int | None = None) -> None:
        opts = [f"BOARD={board}"] + ([f"READERS={readers}"] if readers else [])
        subprocess.run(["make", "-s", *opts], cwd=FIRMWARE, check=True, capture_output=True)
        subprocess.run(["make", "-s"], cwd=FIRMWARE / "sim", check=True, capture_output=True)
        build = f"build-{board}" + (f"-r{readers}" if readers else "")
        self.proc = subprocess.Popen(
            [str(FIRMWARE / "sim" / "build" / "hub_sim"),
             str(FIRMWARE / build / "village_hub.elf"), MCU[board]],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            text=True, bufsize=1)
        self._answers: queue.Queue[str] = queue.Queue()
        self._lock = threading.Lock()
        self._trace: list[tuple[int, str]] = []
        assert self.proc.stdout is not None
        pty = ""
        while not pty:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("hub_sim did not start")
            if line.startswith("PTY "):
                pty = line.split()[1]
        threading.Thread(target=self._pump, daemon=True).start()
        self.fd = os.open(pty, os.O_RDWR | os.O_NOCTTY)
        threading.Thread(target=self._drain, daemon=True).start()
        self.cmd("trace")
        deadline = time.monotonic() + 30
        while not self.lines(kind="HELLO"):
            if time.monotonic() > deadline:
                raise RuntimeError("the firmware never said HELLO")
            time.sleep(0.01)
        os.write(self.fd, command("START"))
        while not self.lines(kind="SYNC"):
            time.sleep(0.01)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("T "):
                _, us, text = line.rstrip("\n").split(" ", 2)
                with self._lock:
                    self._trace.append((int(us), text))
            else:
                self._answers.put(line.rstrip("\n"))

    def _drain(self) -> None:
        while True:
            try:
                if not os.read(self.fd, 4096):
                    return
            except OSError:
                return

    def cmd(self, *texts: str) -> int:
        """Apply script commands at one instant; returns its simulated µs."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(t + "\n" for t in texts))
        self.proc.stdin.flush()
        for _ in texts:
            answer = self._answers.get(timeout=10)
            if not answer.startswith("OK"):
                raise RuntimeError(answer)
        with self._lock:
            return max(us for us, t in self._trace if t == "> " + texts[-1]) \
                if any(t == "> " + texts[-1] for _, t in self._trace) else 0

    def lines(self, since_us: int = 0, kind: str | None = None) -> list[tuple[int, str, list[str]]]:
        with self._lock:
            rows = list(self._trace)
        out = []
        for us, text in rows:
            if us < since_us or text.startswith(">"):
                continue
            words = text.split("*", 1)[0].split()
            if len(words) >= 2 and (kind is None or words[1] == kind):
                out.append((us, words[1], words[2:]))
        return out

    def wait(self, since_us: int, kind: str, uid: str | None = None,
             timeout: float = 30) -> int:
        """Simulated µs of the first `kind` line (for `uid`) after `since_us`."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for us, _, args in self.lines(since_us, kind):
                if uid is None or uid in args:
                    return us
            time.sleep(0.005)
        raise TimeoutError(f"no {kind} {uid or ''} after {since_us} us")

    def close(self) -> None:
        assert self.proc.stdin is not None
        with contextlib.suppress(OSError):  # it exits on quit, without answering
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
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
            t = sim.cmd(f"add {r} {uid}")
            seen.append((sim.wait(t, "SEEN", uid) - t) / 1000)
            time.sleep(rng.uniform(0, 0.05))
            t = sim.cmd(f"remove {r} {uid}")
            gone.append((sim.wait(t, "GONE", uid) - t) / 1000)
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
        t = sim.cmd(*[f"add 0 {u}" for u in uids])
        last = max(sim.wait(t, "SEEN", u) for u in uids)
        hb = sim.wait(last, "HB")
        hb2 = sim.wait(hb + 1, "HB")
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
