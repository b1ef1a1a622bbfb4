"""The serial reader hub adapter: a hub's lines (``firmware/PROTOCOL.md``) → observations.

API (what ``companion tags listen --serial PORT`` and the runtime use)::

    hub = SerialHub(port, emit, zones, lookup)   # port None: scan for a hub's hello
    hub.start()        # own thread; returns at once; the device may come later
    hub.health()       # Health observation now (also emitted when it changes)
    hub.readers()      # one dict per reader for the reader-health panel (see readers())
    hub.stats()        # {"lines", "bad_lines", "gaps", "observations", "naks", "connects"}
    hub.lines, hub.bad_lines, hub.gaps, hub.observations   # counters, readable any time
    hub.send("RATE 40")  # a command to the hub (PROTOCOL.md); hub.naks counts refusals
    hub.set_zones(zone_map)  # a new zone map while running (pieces on readers re-announced)
    hub.state          # a HubLink: disconnected | opening | hello | streaming | lost
    hub.close()        # idempotent, returns within ~1 s

- ``emit(obs)`` receives `PiecesSeen` / `PiecesGone` (``zone`` from the zone map,
  ``source`` ``hub:<id>/reader:<n>``, the piece from ``lookup(uid)`` or the UID in
  ``unknown_uids``) and `Health` (``source``/``device`` ``hub:<id>``, or ``serial:<port>``
  before a hello). Readers the zone map does not name report zone ``"unmapped"``.
- ``on_tag(TagEvent)`` (optional) receives every debounced tag event with its reader and
  UID, for diagnostics such as ``tags listen``.
- ``zones``: a `ZoneMap` (per hub id, from the JSON file ``hardware.md`` describes, see
  `companion.sensors.zone_config.load`) or a plain ``{reader index: zone}`` for whichever
  hub answers.
- Counters: ``lines`` every line received, ``bad_lines`` lines skipped (not ASCII, no or
  wrong checksum, bad fields, too long), ``gaps`` sequence breaks (the line is used, and
  the adapter asks the hub to replay what it sees), ``observations`` piece observations
  emitted.

State machine (`HubLink`, changed only by ``_change_state``, which logs the change and
tells the health panel): disconnected → opening → hello (port open, waiting for the hub's
hello; the board may be resetting) → streaming (after ``START``; the hub replays present
tags, then ``SYNC n``) → lost (read error, unplug or silence for ``link_timeout``) →
disconnected → … reopened after a back-off (`companion.sensors.backoff`): ``retry_s``,
doubling up to ``retry_cap_s`` (1 s, so a replugged hub streams again within about 1.5 s),
each cut by up to 20 % at random; back to ``retry_s`` once the hub has said hello. Port
discovery lives in `companion.sensors.ports`, the zone map's format in
`companion.sensors.zone_map`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from companion.reconcile.observations import Health, PiecesGone, PiecesSeen
from companion.sensors import Emit
from companion.sensors.backoff import Backoff
from companion.sensors.hub_protocol import BadLine, HubLine, command, parse_line
from companion.sensors.ports import ask_hello, candidate_ports, claim, release
from companion.sensors.zone_map import ZoneMap

log = logging.getLogger(__name__)

Lookup = Callable[[str], str | None]


class HubLink(StrEnum):
    """The adapter's link to its hub (the words the reader-health panel shows)."""

    DISCONNECTED = "disconnected"
    OPENING = "opening"  # a port is open
    HELLO = "hello"  # waiting for the hub's hello (the board may be resetting)
    STREAMING = "streaming"  # after START: tag events flow
    LOST = "lost"  # a read error, an unplug or silence ended the session


DISCONNECTED, OPENING, HELLO, STREAMING, LOST = HubLink


@dataclass(frozen=True, slots=True)
class TagEvent:
    """One debounced tag event as the hub reported it."""

    kind: str  # "seen" | "gone"
    hub: int | None
    reader: int
    uid: str
    piece: str | None
    zone: str
    t: float


class _Reader:
    def __init__(self) -> None:
        self.state = "unknown"
        self.present: set[str] = set()
        self.rate = 0.0
        self.last_seen: float | None = None
        self.errors = 0  # faults
        self.read_errors = 0  # polls that lost a tag to a garbled answer (from HB)
        self.full = 0  # tags its last poll found that the hub had no room to track (FULL)
        self.overflows = 0  # FULL lines with a count above 0: times tags went untracked
        self.detail = ""


class SerialHub:
    """One hub on one serial port (``port`` None: the first candidate that says hello).

    Scanning adapters in one process never take a port another adapter holds, so N
    scanning adapters serve N hubs; a scanning adapter that loses its hub scans again
    (a replugged USB adapter may come back under another name)."""

    def __init__(
        self,
        port: str | None,
        emit: Emit,
        zones: ZoneMap | Mapping[int, str] | None = None,
        lookup: Lookup | None = None,
        *,
        on_tag: Callable[[TagEvent], None] | None = None,
        baudrate: int = 115200,
        candidates: Callable[[], Iterable[str]] = candidate_ports,
        retry_s: float = 0.1,
        retry_cap_s: float = 1.0,
        hello_timeout: float = 4.0,
        link_timeout: float = 3.5,
        name: str | None = None,
    ) -> None:
        self.port = port
        self._scan = port is None
        self._emit = emit
        if zones is None:
            zones = ZoneMap({}, {})
        self.zones = zones if isinstance(zones, ZoneMap) else ZoneMap({}, dict(zones))
        self._lookup = lookup or (lambda uid: None)
        self._on_tag = on_tag
        self.baudrate = baudrate
        self._candidates = candidates
        self.retry_s = retry_s
        self.retry = Backoff(retry_s, max(retry_s, retry_cap_s))
        self.hello_timeout = hello_timeout
        self.link_timeout = link_timeout
        self.name = name or f"serial:{port or 'scan'}"
        self.state: HubLink = DISCONNECTED
        self.lines = self.bad_lines = self.gaps = self.observations = 0
        self.connects = 0
        self.naks = 0  # commands the hub refused (NAK lines)
        self.last_error = ""  # why the last session ended
        self.hello: dict[str, str] = {}
        self.hub_id: int | None = None
        self._readers: list[_Reader] = []
        self._lock = threading.RLock()
        # held across a tag's bookkeeping and its emit, and across set_zones: observations
        # of one reader leave in the order of the adapter's state
        self._tag_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: Any = None
        self._expected_seq: int | None = None
        self._syncing: set[str] | None = None  # "r/UID" replayed so far during a SYNC
        self._last_sync_request = 0.0
        self._last_health: tuple[str, str] | None = None
        self._pending_hello: HubLine | None = None

    # -- the Adapter protocol -------------------------------------------------------------

    def start(self) -> None:
        """Start the adapter's thread; returns at once."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread and release the port; idempotent."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        self._thread = None
        self._close_port()
        if self._scan:
            self._release()

    def health(self) -> Health:
        """The link and readers now: up, degraded (a reader faulted), connecting or down."""
        with self._lock:
            if self.state == STREAMING:
                faulted = [i for i, r in enumerate(self._readers)
                           if r.state == "fault" or r.full]
                state = "degraded" if faulted else "up"
            elif self.state in (OPENING, HELLO):
                state = "connecting"
            else:
                state = "down"
            parts = [f"link {self.state}"]
            if self.state != STREAMING and self.last_error:
                parts[0] += f" ({self.last_error})"

            for i, r in enumerate(self._readers):
                parts.append(f"r{i} {r.state} {r.rate:.1f}/s"
                             + (f" {r.full} tags untracked (hub full)" if r.full else ""))
            src = self._device()
            return Health(
                source=src, t=time.monotonic(), device=src, state=state,
                reads_per_s=round(sum(r.rate for r in self._readers), 2),
                errors=self.bad_lines + self.gaps
                + sum(r.errors + r.read_errors + r.overflows for r in self._readers),
                detail="; ".join(parts),
            )

    def readers(self) -> list[dict[str, Any]]:
        """Each reader, in order (empty before the first hello), as the reader-health
        panel shows it: ``reader`` (``hub:<id>/reader:<n>``), ``index``, ``zone``,
        ``state`` (``tag``/``empty``, ``error`` when faulted), ``uid`` (the UIDs on it,
        space-separated, or None), ``reads_per_s`` (polls of its field per second),
        ``last_seen`` (epoch seconds of its last tag event, or None), ``errors`` (faults
        + garbled answers), ``faults``, ``read_errors``, ``last_error``, ``link`` (the
        adapter's state), ``untracked`` (tags its last poll found that the hub had no room
        to track: ``FULL``), ``overflows`` (how often that began)."""
        now_wall, now = time.time(), time.monotonic()
        with self._lock:
            rows = []
            for i, r in enumerate(self._readers):
                state = "error" if r.state == "fault" else ("tag" if r.present else "empty")
                rows.append({
                    "reader": f"hub:{self.hub_id if self.hub_id is not None else '?'}"
                              f"/reader:{i}",
                    "index": i,
                    "zone": self.zones.zone(self.hub_id, i),
                    "state": state,
                    "uid": " ".join(sorted(r.present)) or None,
                    "reads_per_s": r.rate,
                    "last_seen": None if r.last_seen is None
                    else round(now_wall - (now - r.last_seen), 3),
                    "errors": r.errors + r.read_errors,
                    "faults": r.errors,
                    "read_errors": r.read_errors,
                    "last_error": r.detail,
                    "link": self.state,
                    "untracked": r.full,
                    "overflows": r.overflows,
                })
            return rows

    def stats(self) -> dict[str, int]:
        """The link's counters (``tags listen --stats``)."""
        with self._lock:
            return {"lines": self.lines, "bad_lines": self.bad_lines, "gaps": self.gaps,
                    "observations": self.observations, "naks": self.naks,
                    "connects": self.connects}

    def present(self) -> dict[int, frozenset[str]]:
        """UIDs each reader sees now (as far as the adapter knows)."""
        with self._lock:
            return {i: frozenset(r.present) for i, r in enumerate(self._readers)}

    def set_zones(self, zones: ZoneMap | Mapping[int, str]) -> int:
        """Use ``zones`` from now on (thread-safe; the link stays up). Tags already on a
        reader whose zone changes are re-announced: `PiecesGone` from the old zone, then
        `PiecesSeen` in the new one (``on_tag`` is not called: the hub reported nothing).
        Returns the number of readers whose zone changed."""
        new = zones if isinstance(zones, ZoneMap) else ZoneMap({}, dict(zones))
        with self._tag_lock:
            with self._lock:
                old, self.zones = self.zones, new
                hub = self.hub_id
                moves = [(i, old.zone(hub, i), new.zone(hub, i), sorted(r.present))
                         for i, r in enumerate(self._readers)
                         if old.zone(hub, i) != new.zone(hub, i)]
            for i, was, now_zone, uids in moves:
                for uid in uids:
                    self._announce(PiecesGone, i, uid, was)
                for uid in uids:
                    self._announce(PiecesSeen, i, uid, now_zone)
        return len(moves)

    def send(self, text: str) -> None:
        """Send a host command (``"RATE 40"``) if the port is open; errors are dropped."""
        ser = self._serial
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.write(command(text))

    # -- the thread -----------------------------------------------------------------------

    def _device(self) -> str:
        return f"hub:{self.hub_id}" if self.hub_id is not None else f"serial:{self.port or 'scan'}"

    def _change_state(self, state: HubLink, why: str = "") -> None:
        """The one way the link's state changes: logged when it does, and the health
        panel told (`_emit_health` sends a Health observation if what it shows changed)."""
        with self._lock:
            old, self.state = self.state, state
        if old != state:  # a lost link is worth a warning: a hub unplugged mid-game
            log.log(logging.WARNING if state is LOST else logging.INFO, "%s: %s -> %s%s",
                    self._device(), old, state, f" ({why})" if why else "")
        self._emit_health()

    def _emit_health(self) -> None:
        h = self.health()
        key = (h.state, ",".join(r.state for r in self._readers))
        if key != self._last_health:
            self._last_health = key
            self._emit(h)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._open()
                if self._serial is None:
                    self._wait_to_retry("no hub answers")
                    continue
                self._session()
            except Exception as exc:  # a vanished device: anything pyserial/OS raises
                self.last_error = f"{type(exc).__name__}: {exc}"
            self._close_port()
            if self._scan:
                self._release()
            if self._stop.is_set():  # closed on purpose: nothing was lost
                if self.state != DISCONNECTED:
                    self._change_state(DISCONNECTED, "closed")
                break
            if self.state != DISCONNECTED:
                self._change_state(LOST, self.last_error)
                self._change_state(DISCONNECTED)
            self._wait_to_retry(self.last_error)

    def _wait_to_retry(self, why: str) -> None:
        delay = self.retry.next()
        log.debug("%s: %s; next try in %.2f s", self.name, why or "closed", delay)
        self._stop.wait(delay)

    def _open(self) -> None:
        import serial

        ports = [self.port] if self.port else list(self._candidates())
        for p in ports:
            if self._stop.is_set():
                return
            if self._scan and not claim(p):
                continue  # another adapter of this process holds it
            try:
                ser = serial.Serial(p, self.baudrate, timeout=0.05, write_timeout=0.5,
                                    exclusive=True)
            except (OSError, serial.SerialException, ValueError):
                if self._scan:
                    self._release(p)
                continue
            self._serial = ser
            self._change_state(OPENING)
            if self._scan:
                if self._await_hello(ser, p):
                    self.port = p
                    return
                self._close_port()
                self._release(p)
                self._change_state(DISCONNECTED, f"no hello on {p}")
                continue
            return

    def _release(self, port: str | None = None) -> None:
        port = port or self.port
        if port is None:
            return
        release(port)
        if self._scan and port == self.port:
            self.port = None

    def _await_hello(self, ser: Any, port: str) -> bool:
        """Scanning: does this port say a village hub's hello within hello_timeout?"""
        self._change_state(HELLO)
        hello = ask_hello(ser, self.hello_timeout, self._stop)
        if hello is None:
            return False
        self._pending_hello = hello
        return True

    def _session(self) -> None:
        ser = self._serial
        self.connects += 1
        self._change_state(HELLO)
        self._expected_seq = None
        pending, self._pending_hello = self._pending_hello, None
        if pending is not None:
            self._on_hello(pending)
        else:
            ser.write(command("HELLO"))
        last_line = last_ask = time.monotonic()
        buf = b""
        skipping = False
        while not self._stop.is_set():
            chunk = ser.read(max(1, min(4096, ser.in_waiting or 1)))
            now = time.monotonic()
            if chunk:
                buf += chunk
            elif self.state == HELLO and now - last_ask > 1.0:
                ser.write(command("HELLO"))  # the board may have missed it while resetting
                last_ask = now
            while True:
                nl = buf.find(b"\n")
                if nl < 0:
                    if len(buf) > 2 * 128:  # no line end in sight: drop, count once
                        buf = b""
                        if not skipping:
                            skipping = True
                            self._bad()
                    break
                raw, buf = buf[:nl], buf[nl + 1:]
                last_line = now
                if skipping:  # the tail of an overlong line
                    skipping = False
                    continue
                self._handle(raw.rstrip(b"\r"))
            if now - last_line > (self.link_timeout if self.state == STREAMING
                                  else self.hello_timeout + self.link_timeout):
                self.last_error = "silence"
                return  # silence: lost

    def _bad(self) -> None:
        with self._lock:
            self.lines += 1
            self.bad_lines += 1

    def _handle(self, raw: bytes) -> None:
        try:
            line = parse_line(raw)
        except BadLine:
            self._bad()
            return
        with self._lock:
            self.lines += 1
        if line.type == "HELLO":
            self._on_hello(line)
            return
        if self.state != STREAMING:
            return  # lines before the hello (or of a former session): ignored
        if self._expected_seq is not None and line.seq != self._expected_seq:
            with self._lock:
                self.gaps += 1
            self._ask_sync()
        self._expected_seq = (line.seq + 1) % 256
        try:
            self._apply(line)
        except BadLine:
            with self._lock:
                self.bad_lines += 1

    def _ask_sync(self) -> None:
        now = time.monotonic()
        if now - self._last_sync_request > 1.0:
            self._last_sync_request = now
            self._syncing = set()
            self.send("SYNC")

    def _on_hello(self, line: HubLine) -> None:
        n = int(line.params["readers"])
        with self._lock:
            self.hello = dict(line.params)
            hub_id = line.params.get("id", "")
            self.hub_id = int(hub_id) if hub_id.isdigit() else None
            if len(self._readers) != n:
                self._readers = [_Reader() for _ in range(n)]
            for r, s in zip(self._readers, line.params["status"], strict=True):
                r.state = "ok" if s == "O" else "fault"
                if s != "O" and not r.detail:
                    r.detail = "faulted at hello"
            self._syncing = set()
            self._expected_seq = None
        self.send("START")
        self.retry.reset()
        self._change_state(STREAMING)

    def _apply(self, line: HubLine) -> None:
        n = len(self._readers)
        if line.type in ("SEEN", "GONE"):
            r, uid = line.reader(n), line.args[1]
            if line.type == "SEEN":
                if self._syncing is not None:
                    self._syncing.add(f"{r}/{uid}")
                self._tag("seen", r, uid)
            else:
                self._tag("gone", r, uid)
        elif line.type == "SYNC":
            replayed, self._syncing = self._syncing, None
            if replayed is None:
                return  # a replay nobody asked for: nothing to compare
            if len(replayed) < int(line.args[0]):  # a replayed SEEN went missing
                self._last_sync_request = 0.0
                self._ask_sync()
                return
            for i, rd in enumerate(self._readers):
                if rd.state == "fault":
                    continue  # it cannot see: what it saw last stays as it was
                for uid in sorted(rd.present):
                    if f"{i}/{uid}" not in replayed:
                        self._tag("gone", i, uid)
        elif line.type == "HB":
            rates = line.args[1].split(",")
            if len(rates) != n:
                raise BadLine("HB: poll counts for another number of readers")
            errs = line.args[2].split(",") if len(line.args) > 2 else ["0"] * n
            with self._lock:
                for rd, p, e in zip(self._readers, rates, errs, strict=True):
                    rd.rate = 0.0 if p == "F" else float(p)
                    rd.state = "fault" if p == "F" else "ok"
                    rd.read_errors += int(e)
            self._emit_health()
        elif line.type == "FAULT":
            r = line.reader(n)
            with self._lock:
                rd = self._readers[r]
                rd.state, rd.errors, rd.rate = "fault", rd.errors + 1, 0.0
                rd.detail = " ".join(line.args[1:])
            self._emit_health()
        elif line.type == "FULL":
            r = line.reader(n)
            with self._lock:
                rd = self._readers[r]
                count = int(line.args[1])
                if count and not rd.full:
                    rd.overflows += 1
                rd.full = count
            self._emit_health()
        elif line.type == "NAK":
            with self._lock:
                self.naks += 1
        elif line.type == "READY":
            r = line.reader(n)
            with self._lock:
                self._readers[r].state = "ok"  # detail keeps the last fault's reason
            self._emit_health()
            self._ask_sync()

    def _tag(self, kind: str, r: int, uid: str) -> None:
        with self._tag_lock:
            with self._lock:
                rd = self._readers[r]
                if kind == "seen":
                    if uid in rd.present:
                        return
                    rd.present.add(uid)
                else:
                    if uid not in rd.present:
                        return
                    rd.present.discard(uid)
                rd.last_seen = time.monotonic()
                self.observations += 1
                zone = self.zones.zone(self.hub_id, r)
            cls = PiecesSeen if kind == "seen" else PiecesGone
            now, piece = self._announce(cls, r, uid, zone)
        if self._on_tag is not None:
            self._on_tag(TagEvent(kind, self.hub_id, r, uid, piece, zone, now))

    def _announce(self, cls: type[PiecesSeen] | type[PiecesGone], r: int, uid: str,
                  zone: str) -> tuple[float, str | None]:
        now = time.monotonic()
        piece = self._lookup(uid)
        source = f"hub:{self.hub_id if self.hub_id is not None else '?'}/reader:{r}"
        pieces = frozenset({piece}) if piece else frozenset()
        unknown = frozenset() if piece else frozenset({uid})
        self._emit(cls(source=source, t=now, zone=zone, pieces=pieces, unknown_uids=unknown))
        return now, piece

    def _close_port(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()


__all__ = ["HubLink", "SerialHub", "TagEvent"]
