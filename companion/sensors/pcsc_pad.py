"""The tap pad: every PC/SC reader present (an ACR122U…), through pcscd and pyscard.

One thread, one small state machine for the link to pcscd (`PadLink`, changed only by
``_change_link``, which logs the change and tells the health panel)::

    connecting ──context made──▶ watching ──pcscd gone──▶ connecting
                                   │  ▲
                        readers changed (PnP notification, or the list every second)

pcscd out of reach is tried again after a back-off (`companion.sensors.backoff`): 0.5 s,
doubling up to 4 s, each cut by up to 20 % at random; back to 0.5 s once it answers.

and per reader ``empty → present (UID read once, one TagTapped) → empty``. A tap is a card
arriving on a reader: the UID is read with ``FF CA 00 00 00`` (GET DATA) and one
`TagTapped` is emitted, however long the piece rests there. A remove and re-tap between two
looks is still seen, by pcscd's per-reader event counter (the high 16 bits of the state).

Health (`PcscPad.health`, also emitted when it changes): ``connecting`` while pcscd cannot be
reached, ``down`` with no reader plugged in, ``degraded`` when the last UID read on some
reader failed, else ``up``. `PcscPad.readers` reports each reader (taps, reads per second,
last seen, errors). pyscard is imported when the pad starts (the ``hardware`` extra).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from types import ModuleType
from typing import Any, Final

from companion.reconcile.observations import Health, Observation, TagTapped
from companion.sensors import Emit
from companion.sensors.backoff import Backoff

__all__ = ["GET_UID", "PNP_READER", "PadLink", "PcscPad", "ReaderState"]

log = logging.getLogger(__name__)

GET_UID: Final = [0xFF, 0xCA, 0x00, 0x00, 0x00]
PNP_READER: Final = "\\\\?PnP?\\Notification"
WAIT_MS: Final = 250  # one SCardGetStatusChange; close() also cancels it
RELIST_S: Final = 1.0  # list the readers again at least this often (no PnP support)
RETRY_S: Final = 0.5  # between two attempts to reach pcscd, at first …
RETRY_CAP_S: Final = 4.0  # … and at most
RATE_WINDOW_S: Final = 10.0  # reads per second over this window
READ_TRIES: Final = 3
RETRY_READ_S: Final = 0.2


class PadLink(StrEnum):
    """The pad's link to pcscd (the ``link`` of each reader row)."""

    CONNECTING = "connecting"
    WATCHING = "watching"


@dataclass
class ReaderState:
    """What the pad knows of one reader."""

    name: str
    present: bool = False
    known: int = 0  # the state pcscd last reported (SCARD_STATE_UNAWARE until then)
    events: int = -1  # pcscd's card event counter (high 16 bits of the state), -1 at first
    uid: str | None = None  # the tag on it now (read once per tap)
    taps: int = 0
    errors: int = 0
    last_error: str = ""
    last_seen: float | None = None  # wall-clock time of the last tap
    failed: bool = False  # the last UID read failed
    tries: int = 0
    retry_at: float = 0.0  # monotonic time of the next read after a failure
    times: deque[float] = field(default_factory=deque)

    def reads_per_s(self, now: float) -> float:
        while self.times and self.times[0] < now - RATE_WINDOW_S:
            self.times.popleft()
        return round(len(self.times) / RATE_WINDOW_S, 3)


class PcscPad:
    """Watch every PC/SC reader and emit a `TagTapped` per tap (and `Health` on changes).

    ``lookup(uid)`` gives the enrolled piece (or None); it is called at each tap, so tags
    enrolled while the pad runs are recognised. ``scard`` replaces ``smartcard.scard`` in
    unit tests. The pad starts without pcscd or readers and follows them as they come.
    """

    def __init__(
        self,
        emit: Emit,
        lookup: Callable[[str], str | None] = lambda uid: None,
        *,
        name: str = "pad",
        scard: ModuleType | None = None,
    ) -> None:
        self.name = name
        self._emit = emit
        self._lookup = lookup
        self._scard = scard
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._context: Any = None
        self._readers: dict[str, ReaderState] = {}
        self._link = PadLink.CONNECTING
        self._link_detail = "looking for pcscd"
        self.retry = Backoff(RETRY_S, RETRY_CAP_S)
        self._pnp_state = 0
        self._pnp = True  # pcscd answers the PnP pseudo-reader
        self._listed_at = 0.0
        self._errors = 0
        self._last_health: tuple[str, str] | None = None

    # -- the Adapter protocol --------------------------------------------------------------

    def start(self) -> None:
        """Start the thread. Raises ImportError if pyscard is not installed."""
        if self._scard is None:
            from smartcard import scard  # the hardware extra

            self._scard = scard
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name=f"pcsc-{self.name}", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop the thread (cancelling a wait in pcscd) and release the context."""
        self._stop.set()
        ctx = self._context
        if ctx is not None and self._scard is not None:
            with contextlib.suppress(Exception):  # pcscd may be gone: nothing to cancel
                self._scard.SCardCancel(ctx)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(2.0)

    def health(self) -> Health:
        """connecting / down (no reader) / degraded (a read failed) / up, with detail."""
        with self._lock:
            return self._health_locked()

    def readers(self) -> list[dict[str, Any]]:
        """Each reader: ``reader``, ``state`` (``empty``/``tag``/``error``), ``uid`` on it,
        ``taps``, ``reads_per_s``, ``last_seen`` (epoch seconds or None), ``errors``,
        ``last_error``, ``link`` (the pad's link to pcscd)."""
        now = time.monotonic()
        with self._lock:
            return [
                {
                    "reader": r.name,
                    "state": "error" if r.failed else ("tag" if r.present else "empty"),
                    "uid": r.uid,
                    "taps": r.taps,
                    "reads_per_s": r.reads_per_s(now),
                    "last_seen": r.last_seen,
                    "errors": r.errors,
                    "last_error": r.last_error,
                    "link": self._link,
                }
                for r in sorted(self._readers.values(), key=lambda r: r.name)
            ]

    # -- the thread ------------------------------------------------------------------------

    def _run(self) -> None:
        self._publish_health()
        while not self._stop.is_set():
            try:
                if self._context is None:
                    self._connect()
                else:
                    self._watch_once()
            except Exception as exc:  # never let the thread die: report and start over
                log.exception("tap pad %s: unexpected error", self.name)
                self._lost(f"unexpected error: {exc}")
                self._stop.wait(RETRY_S)
            self._publish_health()
        self._release()
        with self._lock:
            self._readers.clear()
        self._change_link(PadLink.CONNECTING, "closed")

    def _connect(self) -> None:
        s = self._scard
        assert s is not None
        hr, ctx = s.SCardEstablishContext(s.SCARD_SCOPE_USER)
        if hr != s.SCARD_S_SUCCESS:
            self._change_link(PadLink.CONNECTING,
                              f"pcscd not reachable ({_text(s, hr)}); retrying")
            self._stop.wait(self.retry.next())
            return
        self._context = ctx
        self._pnp_state = 0
        self._listed_at = 0.0
        if self._relist():  # else lost again: still connecting
            self.retry.reset()
            self._change_link(PadLink.WATCHING, "")

    def _watch_once(self) -> None:
        s = self._scard
        assert s is not None
        if time.monotonic() - self._listed_at > RELIST_S and not self._relist():
            return
        with self._lock:
            names = sorted(self._readers)
            states = [(n, self._readers[n].known) for n in names]
        if self._pnp:
            states.append((PNP_READER, self._pnp_state))
        if not states:
            self._stop.wait(WAIT_MS / 1000)
            return
        hr, new = s.SCardGetStatusChange(self._context, WAIT_MS, states)
        if hr == s.SCARD_E_TIMEOUT or hr == s.SCARD_E_CANCELLED:
            self._retry_failed_reads()
            return
        if hr == s.SCARD_E_UNKNOWN_READER:
            self._relist()
            return
        if hr != s.SCARD_S_SUCCESS:
            self._lost(f"pcscd lost ({_text(s, hr)}); reconnecting")
            return
        relist = False
        for reader, event_state, _atr in new:
            if reader == PNP_READER:
                if event_state & s.SCARD_STATE_UNKNOWN:
                    self._pnp = False  # this pcscd has no PnP: listing every second does it
                elif event_state & s.SCARD_STATE_CHANGED:
                    relist = True
                self._pnp_state = event_state & ~s.SCARD_STATE_CHANGED
                continue
            if event_state & (s.SCARD_STATE_UNKNOWN | s.SCARD_STATE_IGNORE):
                relist = True
                continue
            self._reader_changed(reader, event_state)
            self._publish_health()
        if relist:
            self._relist()
        self._retry_failed_reads()

    def _retry_failed_reads(self) -> None:
        """A tag resting on a reader whose UID read failed is read again (a few times, a
        moment apart, so the failure is reported first)."""
        now = time.monotonic()
        with self._lock:
            again = [r for r in self._readers.values()
                     if r.present and r.failed and r.tries < READ_TRIES and now >= r.retry_at]
        for r in again:
            self._read_uid(r)

    def _reader_changed(self, reader: str, event_state: int) -> None:
        s = self._scard
        assert s is not None
        with self._lock:
            r = self._readers.get(reader)
        if r is None:
            return
        events = (event_state >> 16) & 0xFFFF
        present = bool(event_state & s.SCARD_STATE_PRESENT) and not (
            event_state & s.SCARD_STATE_MUTE
        )
        new_card = present and (not r.present or (r.events >= 0 and events != r.events))
        with self._lock:
            r.known = event_state & ~s.SCARD_STATE_CHANGED
            r.events = events
            if not present:
                r.present, r.uid, r.failed, r.tries = False, None, False, 0
        if new_card:
            with self._lock:
                r.present, r.uid, r.tries, r.failed = True, None, 0, False
            self._read_uid(r)

    def _read_uid(self, r: ReaderState) -> None:
        """Read the UID of the tag on ``r`` and emit the tap; on failure count the error."""
        s = self._scard
        assert s is not None
        r.tries += 1
        hr, card, proto = s.SCardConnect(
            self._context, r.name, s.SCARD_SHARE_SHARED, s.SCARD_PROTOCOL_T0 | s.SCARD_PROTOCOL_T1
        )
        if hr != s.SCARD_S_SUCCESS:
            self._read_failed(r, f"connect: {_text(s, hr)}")
            return
        try:
            hr, response = s.SCardTransmit(card, proto, GET_UID)
        finally:
            s.SCardDisconnect(card, s.SCARD_LEAVE_CARD)
        if hr != s.SCARD_S_SUCCESS:
            self._read_failed(r, f"transmit: {_text(s, hr)}")
            return
        if len(response) < 6 or response[-2:] != [0x90, 0x00]:
            sw = "".join(f"{b:02X}" for b in response[-2:])
            self._read_failed(r, f"the reader answered {sw} to GET UID")
            return
        uid = "".join(f"{b:02X}" for b in response[:-2])
        piece = self._lookup(uid)
        with self._lock:
            r.uid, r.failed, r.taps, r.last_seen = uid, False, r.taps + 1, time.time()
            r.times.append(time.monotonic())
        self._send(TagTapped(source=f"pad:{r.name}", t=time.monotonic(), reader=r.name,
                             uid=uid, piece=piece))

    def _read_failed(self, r: ReaderState, why: str) -> None:
        log.info("tap pad %s: %s: %s", self.name, r.name, why)
        with self._lock:
            r.failed, r.errors, r.last_error = True, r.errors + 1, why
            r.retry_at = time.monotonic() + RETRY_READ_S
            self._errors += 1

    def _relist(self) -> bool:
        """List the readers again (new ones start empty, gone ones are dropped). Returns
        False when pcscd is gone."""
        s = self._scard
        assert s is not None
        hr, names = s.SCardListReaders(self._context, [])
        self._listed_at = time.monotonic()
        if hr == s.SCARD_E_NO_READERS_AVAILABLE:
            names = []
        elif hr != s.SCARD_S_SUCCESS:
            self._lost(f"pcscd lost ({_text(s, hr)}); reconnecting")
            return False
        with self._lock:
            for gone in set(self._readers) - set(names):
                del self._readers[gone]
            for name in names:
                self._readers.setdefault(name, ReaderState(name))
        return True

    def _lost(self, why: str) -> None:
        self._release()
        with self._lock:
            self._errors += 1
            self._readers.clear()
        self._change_link(PadLink.CONNECTING, why)
        self._stop.wait(self.retry.next())

    def _release(self) -> None:
        ctx, self._context = self._context, None
        if ctx is not None and self._scard is not None:
            with contextlib.suppress(Exception):  # pcscd gone: the handle is dead anyway
                self._scard.SCardReleaseContext(ctx)

    # -- health ----------------------------------------------------------------------------

    def _change_link(self, link: PadLink, detail: str) -> None:
        """The one way the link changes: logged when it does, and the health panel told
        (`_publish_health` sends a Health observation if what it shows changed)."""
        with self._lock:
            old, self._link, self._link_detail = self._link, link, detail
        if old != link:  # pcscd lost while watching is worth a warning
            lost = old is PadLink.WATCHING and detail != "closed"
            log.log(logging.WARNING if lost else logging.INFO, "tap pad %s: %s -> %s%s",
                    self.name, old, link, f" ({detail})" if detail else "")
        self._publish_health()

    def _health_locked(self) -> Health:
        now = time.monotonic()
        readers = list(self._readers.values())
        rate = round(sum(r.reads_per_s(now) for r in readers), 3)
        if self._link is not PadLink.WATCHING:
            state, detail = "connecting", self._link_detail
        elif not readers:
            state, detail = "down", "no PC/SC reader present"
        elif any(r.failed for r in readers):
            bad = [r for r in readers if r.failed]
            state = "degraded"
            detail = "; ".join(f"{r.name}: {r.last_error}" for r in bad)
        else:
            state = "up"
            detail = ", ".join(sorted(r.name for r in readers))
        return Health(source=f"pad:{self.name}", t=now, device=self.name, state=state,
                      reads_per_s=rate, errors=self._errors + sum(r.errors for r in readers),
                      detail=detail)

    def _publish_health(self) -> None:
        with self._lock:
            h = self._health_locked()
        key = (h.state, h.detail)
        if key != self._last_health:
            self._last_health = key
            self._send(h)

    def _send(self, obs: Observation) -> None:
        try:
            self._emit(obs)
        except Exception:  # a failing consumer must not stop the pad
            log.exception("tap pad %s: emit failed", self.name)


def _text(s: ModuleType, hr: int) -> str:
    try:
        return f"{s.SCardGetErrorMessage(hr)} (0x{hr & 0xFFFFFFFF:08X})"
    except Exception:
        return f"0x{hr & 0xFFFFFFFF:08X}"
