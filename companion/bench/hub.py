"""Benchmark: serial line written → observation emitted by the serial hub adapter.

    python -m companion.bench.hub [--lines N] [--interval-ms MS] [--burst N]
    python -m companion.bench.hub --end-to-end [--samples N] [--settle S] [--no-firmware]

A socat pseudo-terminal pair stands for the USB cable; a peer writes checksummed ``SEEN``
/ ``GONE`` lines as the firmware would, the real `SerialHub` reads the other end. Prints
latency p50/p95/max from the write to the ``emit`` call (measured up to the observation:
the reconciler and the live feed are not in this path), and the throughput of a burst.
Needs ``socat`` and pyserial.

``--end-to-end``: the whole path in one process: the peer writes ``SEEN`` for a child put
on red's farm (after a family take entered on the tablet), the `SerialHub` that a `Runtime`
built from ``SERIAL``/``ZONES`` emits it, the reconciler settles it and submits the birth,
and a live-feed client (``GET /api/events`` on a uvicorn server, the served ASGI app) gets
the event. Prints p50/p95/max of each step and of the whole, with the settle time (the
reconciler waits that long for a reading to stay still, by design; ``--settle``) and the
part of the whole that is not that wait.

The figure is put down before the line is written: unless ``--no-firmware``, the hub
firmware's own delay from a tag entering a reader's field to its ``SEEN`` line is first
measured in simavr (``companion.bench.hub_firmware``: a quiet 6-reader Uno, simulated
time), and each birth's line is written that long after its placement, so
``placement -> SSE`` is the figure put down → the tablet's live feed.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.reconcile.observations import Observation, PiecesGone, PiecesSeen
from companion.reconcile.observed import ObservedTable
from companion.sensors.serial_hub import SerialHub
from companion.sim.hub_harness import PeerHub, SocatPair


def _percentile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.bench.hub")
    ap.add_argument("--lines", type=int, default=2000, help="lines timed one by one")
    ap.add_argument("--interval-ms", type=float, default=2.0, help="pause between them")
    ap.add_argument("--burst", type=int, default=20000, help="lines for the throughput run")
    ap.add_argument("--end-to-end", action="store_true",
                    help="serial line → observation → applied action → live feed (SSE)")
    ap.add_argument("--samples", type=int, default=30, help="with --end-to-end: births timed")
    ap.add_argument("--settle", type=float, default=0.5,
                    help="with --end-to-end: the reconciler's settle time, s (default 0.5)")
    ap.add_argument("--no-firmware", action="store_true",
                    help="with --end-to-end: start at the serial line, not the placement")
    args = ap.parse_args(argv)
    if not shutil.which("socat"):
        print("socat is not installed", file=sys.stderr)
        return 2
    if args.end_to_end:
        return end_to_end(args.samples, args.settle, firmware=not args.no_firmware)
    tmp = Path(tempfile.mkdtemp(prefix="hub-bench-"))
    pair = SocatPair(tmp)
    a = pair.a
    try:
        peer = PeerHub(pair.b, readers=1, hub_id=1)
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
            sent[uid] = peer.line(f"SEEN 0 {uid}")
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
        peer.burst([f"GONE 0 {i:08X}" if i < args.lines else f"SEEN 0 {i:08X}"
                    for i in range(args.burst)])
        done.wait(60)
        dt = time.monotonic() - t0
        print(f"burst of {args.burst} lines: {len(got)} observations in {dt:.2f} s "
              f"= {len(got) / dt:.0f} lines/s; bad lines {hub.bad_lines}, gaps {hub.gaps}")
        print("(measured up to the observation; reconciler and live feed not included)")
        hub.close()
        peer.close()
        return 0
    finally:
        pair.close()
        shutil.rmtree(tmp, ignore_errors=True)


def end_to_end(samples: int, settle: float, firmware: bool = True) -> int:
    """Time ``samples`` births from the placement (or, without ``firmware``, the serial
    line) to the live feed; print the numbers. Returns the exit status (1 if the path did
    not work)."""
    import http.client
    import json
    import socket

    import uvicorn

    from companion.runtime import Runtime
    from companion.settings import Settings
    from web import create_app
    from web.asgi import make_asgi

    hub_ms: list[float] = []
    if firmware:
        from companion.bench.hub_firmware import placement_latencies

        hub_ms = placement_latencies(samples)[0]
    uids = {"red-1a": "04A1B2C3D4E5F6", "red-1b": "11223344", "red-1c": "04C1C2C3C4C5C6",
            "red-1d": "55667788", "red-2a": "04D1D2D3D4D5D6"}
    tmp = Path(tempfile.mkdtemp(prefix="hub-e2e-"))
    pair = SocatPair(tmp)
    a = pair.a
    rt: Runtime | None = None
    server: uvicorn.Server | None = None
    try:
        peer = PeerHub(pair.b, readers=1, hub_id=1)
        for piece in ("red-1a", "red-1b", "red-1c", "red-1d"):
            peer.present.add((0, uids[piece]))
        zones = tmp / "zones.json"
        zones.write_text(json.dumps({"default": {"0": "farm:red"}}))
        rt = Runtime(Settings(db_path=tmp / "games.sqlite3", serial=(a,), zones=zones))
        rt.reconciler.table.settle = settle
        for piece, uid in uids.items():
            rt.registry.enrol(uid, piece)
        observed: dict[str, float] = {}
        applied: list[tuple[int, float]] = []

        def on_obs(o: Observation) -> None:
            if isinstance(o, PiecesSeen) and "red-2a" in o.pieces:
                observed.setdefault("red-2a", time.monotonic())

        rt.running.subscribe(on_obs)
        # the action is stored: the service calls its listeners right then (under its lock)
        rt.service.add_listener(lambda n: applied.append((n.seq, time.monotonic())))
        rt.start()
        app = create_app(rt)
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(make_asgi(app), log_level="warning",
                                               lifespan="on", http="httptools"))
        threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
        while not server.started:
            time.sleep(0.01)
        feed: list[tuple[int, float]] = []

        def listen() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            conn.request("GET", "/api/events")
            resp = conn.getresponse()
            while True:
                raw = resp.fp.readline()
                if not raw:
                    return
                if raw.startswith(b"id: "):
                    feed.append((int(raw[4:]), time.monotonic()))

        threading.Thread(target=listen, daemon=True).start()
        svc = rt.service
        steps: dict[str, list[float]] = {"placement -> line": [],
                                         "line -> observation": [],
                                         "observation -> applied": [],
                                         "applied -> SSE": [], "line -> SSE": [],
                                         "placement -> SSE": []}
        misses = 0
        deadline = time.monotonic() + 20
        while rt.adapters[0].health().state != "up" and time.monotonic() < deadline:
            time.sleep(0.01)
        for i in range(samples):
            if (0, uids["red-2a"]) in peer.present:
                peer.gone(uids["red-2a"])
                # a tag gone and seen nowhere counts as gone only after the reconciler's
                # drop-out time (a tag back sooner is a drop-out, not a new birth)
                time.sleep(ObservedTable.dropout + settle + 0.3)
            take = None
            while take is None:
                svc.new_game(["red", "blue"], first_player="red")
                while "virtual_draw" in json.dumps(svc.legal()):
                    svc.submit({"type": "virtual_draw"})
                take = next((x for x in svc.legal() if x.get("space") == "family"), None)
            seq = svc.submit(take, "tablet")
            time.sleep(settle + 0.3)
            observed.clear()
            n_feed, n_applied = len(feed), len(applied)
            placed = time.monotonic()
            if hub_ms:  # the firmware's delay for this placement
                time.sleep(max(0.0, placed + hub_ms[i] / 1000 - time.monotonic()))
            t0 = peer.seen(uids["red-2a"])
            end = time.monotonic() + 10
            while time.monotonic() < end and not any(
                    s == seq + 1 for s, _ in feed[n_feed:]):
                time.sleep(0.001)
            got = [t for s, t in feed[n_feed:] if s == seq + 1]
            done = [t for s, t in applied[n_applied:] if s == seq + 1]
            if not got or not done or "red-2a" not in observed:
                misses += 1
                print(f"  a birth missed: observed {sorted(observed)}, applied {bool(done)}, "
                      f"fed {bool(got)}; last messages "
                      f"{[n for n, _ in rt.sensing.recent[-4:]]}", file=sys.stderr)
                continue
            steps["placement -> line"].append((t0 - placed) * 1000)
            steps["line -> observation"].append((observed["red-2a"] - t0) * 1000)
            steps["observation -> applied"].append((done[0] - observed["red-2a"]) * 1000)
            steps["applied -> SSE"].append((got[0] - done[0]) * 1000)
            steps["line -> SSE"].append((got[0] - t0) * 1000)
            steps["placement -> SSE"].append((got[0] - placed) * 1000)
        if not hub_ms:
            del steps["placement -> line"], steps["placement -> SSE"]
        n = len(steps["line -> SSE"])
        start = ("placement -> SEEN line (firmware in simavr, quiet 6-reader Uno, simulated "
                 "time) -> " if hub_ms else "serial line -> ")
        print(f"{start}observation -> applied action -> SSE ({n}/{samples} births; "
              f"socat pty, Runtime + reconciler, uvicorn, one live-feed client; "
              f"settle {settle * 1000:.0f} ms, a reconciler tick when a reading settles)")
        if not n:
            print("no birth reached the live feed", file=sys.stderr)
            return 1
        for name, xs in steps.items():
            print(f"  {name:24s} p50 {statistics.median(xs):8.1f} ms  "
                  f"p95 {_percentile(xs, 0.95):8.1f} ms  max {max(xs):8.1f} ms")
        whole = "placement -> SSE" if hub_ms else "line -> SSE"
        rest = [x - settle * 1000 for x in steps[whole]]
        print(f"  {whole + ' - settle':24s} p50 {statistics.median(rest):8.1f} ms  "
              f"p95 {_percentile(rest, 0.95):8.1f} ms  max {max(rest):8.1f} ms")
        if misses:
            print(f"  {misses} births did not reach the feed within 10 s")
        return 0 if not misses else 1
    finally:
        if server is not None:
            server.should_exit = True
            time.sleep(0.3)
        if rt is not None:
            rt.close()
        pair.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
