"""Benchmark: serial line written → observation emitted by the serial hub adapter.

    python -m companion.sensors.hub_bench [--lines N] [--interval-ms MS] [--burst N]

A socat pseudo-terminal pair stands for the USB cable; a peer writes checksummed ``SEEN``
/ ``GONE`` lines as the firmware would, the real `SerialHub` reads the other end. Prints
latency p50/p95/max from the write to the ``emit`` call (measured up to the observation:
the reconciler and the live feed are not in this path), and the throughput of a burst.
Needs ``socat`` and pyserial.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.reconcile.observations import Observation, PiecesGone, PiecesSeen
from companion.sensors.hub_protocol import frame
from companion.sensors.serial_hub import SerialHub


def _percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.sensors.hub_bench")
    ap.add_argument("--lines", type=int, default=2000, help="lines timed one by one")
    ap.add_argument("--interval-ms", type=float, default=2.0, help="pause between them")
    ap.add_argument("--burst", type=int, default=20000, help="lines for the throughput run")
    args = ap.parse_args(argv)
    if not shutil.which("socat"):
        print("socat is not installed", file=sys.stderr)
        return 2
    tmp = Path(tempfile.mkdtemp(prefix="hub-bench-"))
    a, b = str(tmp / "a"), str(tmp / "b")
    socat = subprocess.Popen(["socat", f"pty,raw,echo=0,link={a}", f"pty,raw,echo=0,link={b}"],
                             stderr=subprocess.DEVNULL)
    try:
        while not (os.path.exists(a) and os.path.exists(b)):
            time.sleep(0.005)
        fd = os.open(b, os.O_RDWR | os.O_NOCTTY)
        seq = 0
        lock = threading.Lock()

        def line(body: str) -> float:
            nonlocal seq
            with lock:
                data = frame(f"{seq} {body}")
                seq = (seq + 1) % 256
                t = time.monotonic()
                os.write(fd, data)
                return t

        def answer() -> None:  # the peer's side of the handshake
            buf = b""
            while True:
                try:
                    chunk = os.read(fd, 256)
                except OSError:
                    return
                if not chunk:
                    return
                buf += chunk
                while b"\n" in buf:
                    raw, buf = buf.split(b"\n", 1)
                    if raw.startswith(b"HELLO*"):
                        line("HELLO village-hub proto=1 fw=bench board=bench id=1 readers=1 "
                             "status=O rate=20")
                    elif raw.startswith((b"START*", b"SYNC*")):
                        line("SYNC 0")

        threading.Thread(target=answer, daemon=True).start()
        got: dict[str, float] = {}
        done = threading.Event()
        want = [0]

        def emit(o: Observation) -> None:
            if isinstance(o, PiecesSeen | PiecesGone):
                uid = next(iter(o.unknown_uids))
                got[uid] = time.monotonic()
                if len(got) >= want[0]:
                    done.set()

        hub = SerialHub(a, emit, {0: "bag"})
        hub.start()
        deadline = time.monotonic() + 5
        while hub.state != "streaming" and time.monotonic() < deadline:
            time.sleep(0.01)
        if hub.state != "streaming":
            print("the adapter did not reach streaming", file=sys.stderr)
            return 1

        sent: dict[str, float] = {}
        want[0] = args.lines
        for i in range(args.lines):
            uid = f"{i:08X}"
            sent[uid] = line(f"SEEN 0 {uid}")
            time.sleep(args.interval_ms / 1000)
        done.wait(10)
        lat = [(got[u] - sent[u]) * 1000 for u in sent if u in got]
        print(f"serial line -> observation (socat pty, {len(lat)}/{args.lines} lines, "
              f"one every {args.interval_ms} ms)")
        print(f"  p50 {statistics.median(lat):.3f} ms  p95 {_percentile(lat, 0.95):.3f} ms  "
              f"max {max(lat):.3f} ms")

        got.clear()
        done.clear()
        want[0] = args.burst
        t0 = time.monotonic()
        chunk = []
        with lock:
            for i in range(args.burst):
                chunk.append(frame(f"{seq} GONE 0 {i:08X}") if i < args.lines
                             else frame(f"{seq} SEEN 0 {i:08X}"))
                seq = (seq + 1) % 256
            data = b"".join(chunk)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        done.wait(60)
        dt = time.monotonic() - t0
        print(f"burst of {args.burst} lines: {len(got)} observations in {dt:.2f} s "
              f"= {len(got) / dt:.0f} lines/s; bad lines {hub.bad_lines}, gaps {hub.gaps}")
        print("(measured up to the observation; reconciler and live feed not included)")
        hub.close()
        os.close(fd)
        return 0
    finally:
        socat.terminate()
        socat.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
