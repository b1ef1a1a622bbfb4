"""The tap pad's state machine alone, against a scripted stand-in for ``smartcard.scard``
(unit test of one module): readers plugged in and pulled out while it runs (pcscd's PnP
notification, which vpcd's static readers cannot produce), a UID read that fails then
succeeds, a card swapped between two looks (the event counter), and a consumer that
raises."""

from __future__ import annotations

import itertools
import logging
import threading
import time
from types import SimpleNamespace

import pytest

from companion.reconcile.observations import Health, Observation, TagTapped
from companion.sensors.backoff import Backoff
from companion.sensors.pcsc_pad import GET_UID, PNP_READER, PadLink, PcscPad

scard = pytest.importorskip("smartcard.scard", reason="pyscard is not installed")


class FakePcscd:
    """What pcscd would answer: readers with event counters and the tag on each."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.readers: dict[str, dict[str, object]] = {}
        self.fail_reads = 0
        self.unreachable = 0  # attempts to reach pcscd that fail from now on
        self.attempts: list[float] = []  # when the pad tried to reach pcscd
        self.module = SimpleNamespace(**{k: getattr(scard, k) for k in dir(scard) if k.startswith("SCARD_")})
        for name in ("SCardEstablishContext", "SCardListReaders", "SCardGetStatusChange",
                     "SCardConnect", "SCardTransmit", "SCardDisconnect", "SCardCancel",
                     "SCardReleaseContext", "SCardGetErrorMessage"):
            setattr(self.module, name, getattr(self, name))

    # test controls
    def plug(self, name: str) -> None:
        with self.lock:
            self.readers[name] = {"events": 0, "uid": None}

    def unplug(self, name: str) -> None:
        with self.lock:
            del self.readers[name]

    def put(self, name: str, uid: str | None) -> None:
        with self.lock:
            r = self.readers[name]
            r["uid"] = uid
            r["events"] = int(r["events"]) + 1  # type: ignore[call-overload]

    # the scard functions
    def SCardEstablishContext(self, scope: int) -> tuple[int, int]:
        self.attempts.append(time.monotonic())
        if self.unreachable:
            self.unreachable -= 1
            return scard.SCARD_E_NO_SERVICE, 0
        return scard.SCARD_S_SUCCESS, 1

    def SCardReleaseContext(self, ctx: int) -> int:
        return scard.SCARD_S_SUCCESS

    def SCardCancel(self, ctx: int) -> int:
        return scard.SCARD_S_SUCCESS

    def SCardGetErrorMessage(self, hr: int) -> str:
        return "error"

    def SCardListReaders(self, ctx: int, groups: list[str]) -> tuple[int, list[str]]:
        with self.lock:
            if not self.readers:
                return scard.SCARD_E_NO_READERS_AVAILABLE, []
            return scard.SCARD_S_SUCCESS, sorted(self.readers)

    def _actual(self, name: str) -> int:
        if name == PNP_READER:
            return len(self.readers) << 16
        r = self.readers.get(name)
        if r is None:
            return scard.SCARD_STATE_UNKNOWN | scard.SCARD_STATE_IGNORE
        bit = scard.SCARD_STATE_PRESENT if r["uid"] else scard.SCARD_STATE_EMPTY
        return int(r["events"]) << 16 | bit  # type: ignore[call-overload]

    def SCardGetStatusChange(self, ctx: int, ms: int, states: list[tuple[str, int]]):  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + ms / 1000
        while True:
            with self.lock:
                out = []
                changed = False
                for name, current in states:
                    actual = self._actual(name)
                    if actual != current:
                        changed = True
                        actual |= scard.SCARD_STATE_CHANGED
                    out.append((name, actual, []))
            if changed:
                return scard.SCARD_S_SUCCESS, out
            if time.monotonic() > deadline:
                return scard.SCARD_E_TIMEOUT, out
            time.sleep(0.01)

    def SCardConnect(self, ctx: int, name: str, share: int, protocols: int):  # type: ignore[no-untyped-def]
        with self.lock:
            r = self.readers.get(name)
            if not r or not r["uid"]:
                return scard.SCARD_E_NO_SMARTCARD, 0, 0
            return scard.SCARD_S_SUCCESS, name, scard.SCARD_PROTOCOL_T1

    def SCardTransmit(self, card: str, proto: int, apdu: list[int]):  # type: ignore[no-untyped-def]
        assert apdu == GET_UID
        with self.lock:
            if self.fail_reads:
                self.fail_reads -= 1
                return scard.SCARD_S_SUCCESS, [0x63, 0x00]
            return scard.SCARD_S_SUCCESS, [*bytes.fromhex(str(self.readers[card]["uid"])), 0x90, 0x00]

    def SCardDisconnect(self, card: str, disposition: int) -> int:
        return scard.SCARD_S_SUCCESS


class Sink:
    def __init__(self) -> None:
        self.got: list[Observation] = []

    def __call__(self, obs: Observation) -> None:
        self.got.append(obs)

    def until(self, test, timeout: float = 3.0) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while not test():
            assert time.monotonic() < deadline, self.got
            time.sleep(0.01)

    @property
    def taps(self) -> list[TagTapped]:
        return [o for o in self.got if isinstance(o, TagTapped)]

    @property
    def states(self) -> list[str]:
        return [o.state for o in self.got if isinstance(o, Health)]


def test_readers_plugged_and_pulled_while_running() -> None:
    fake, sink = FakePcscd(), Sink()
    pad = PcscPad(sink, name="pad", scard=fake.module)  # type: ignore[arg-type]
    pad.start()
    try:
        sink.until(lambda: pad.health().state == "down")
        fake.plug("ACS ACR122U 00 00")
        sink.until(lambda: pad.health().state == "up")
        fake.put("ACS ACR122U 00 00", "04A2B3C4")
        sink.until(lambda: len(sink.taps) == 1)
        fake.plug("ACS ACR122U 01 00")
        sink.until(lambda: len(pad.readers()) == 2)
        fake.put("ACS ACR122U 01 00", "DEADBEEF")
        sink.until(lambda: len(sink.taps) == 2)
        assert sink.taps[1].reader == "ACS ACR122U 01 00"
        fake.unplug("ACS ACR122U 00 00")
        sink.until(lambda: [r["reader"] for r in pad.readers()] == ["ACS ACR122U 01 00"])
        fake.unplug("ACS ACR122U 01 00")
        sink.until(lambda: pad.health().state == "down")
    finally:
        pad.close()
    assert sink.states[:3] == ["connecting", "down", "up"]


def test_a_failed_read_is_retried_and_counted() -> None:
    fake, sink = FakePcscd(), Sink()
    fake.plug("R")
    fake.fail_reads = 1
    pad = PcscPad(sink, name="pad", scard=fake.module)  # type: ignore[arg-type]
    pad.start()
    try:
        sink.until(lambda: pad.health().state == "up")
        fake.put("R", "04A2B3C4")
        sink.until(lambda: len(sink.taps) == 1)
        assert "degraded" in sink.states  # said while the read was failing
        (row,) = pad.readers()
        assert (row["errors"], row["state"], row["taps"]) == (1, "tag", 1)
        assert "6300" in row["last_error"]
    finally:
        pad.close()


def test_a_card_swapped_between_two_looks_is_a_new_tap() -> None:
    fake, sink = FakePcscd(), Sink()
    fake.plug("R")
    pad = PcscPad(sink, name="pad", scard=fake.module)  # type: ignore[arg-type]
    pad.start()
    try:
        sink.until(lambda: pad.health().state == "up")
        fake.put("R", "04A2B3C4")
        sink.until(lambda: len(sink.taps) == 1)
        with fake.lock:  # removed and another put on, with no look in between
            fake.readers["R"]["events"] = 3
            fake.readers["R"]["uid"] = "11223344"
        sink.until(lambda: len(sink.taps) == 2)
        assert [t.uid for t in sink.taps] == ["04A2B3C4", "11223344"]
    finally:
        pad.close()


def test_a_consumer_that_raises_does_not_stop_the_pad() -> None:
    fake = FakePcscd()
    fake.plug("R")
    seen: list[Observation] = []

    def bad_emit(obs: Observation) -> None:
        seen.append(obs)
        raise RuntimeError("consumer broke")

    pad = PcscPad(bad_emit, name="pad", scard=fake.module)  # type: ignore[arg-type]
    pad.start()
    try:
        fake.put("R", "04A2B3C4")
        deadline = time.monotonic() + 3
        while not any(isinstance(o, TagTapped) for o in seen):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        fake.put("R", None)
        fake.put("R", "04A2B3C4")
        while sum(isinstance(o, TagTapped) for o in seen) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        pad.close()


def test_pcscd_out_of_reach_is_tried_less_and_less_often(
        caplog: pytest.LogCaptureFixture) -> None:
    """0.05, 0.1, 0.2, 0.4, 0.4 s between attempts (each cut by at most 20 %); the link's
    changes logged; once pcscd answers the back-off starts again from the first delay."""
    caplog.set_level(logging.INFO, logger="companion.sensors.pcsc_pad")
    fake, sink = FakePcscd(), Sink()
    fake.unreachable = 6
    pad = PcscPad(sink, name="pad", scard=fake.module)  # type: ignore[arg-type]
    pad.retry = Backoff(0.05, 0.4)
    pad.start()
    try:
        sink.until(lambda: pad.health().state == "down", 5)
        assert pad.retry.failures == 0 and len(fake.attempts) == 7
    finally:
        pad.close()
    gaps = [b - a for a, b in itertools.pairwise(fake.attempts)]
    for gap, full in zip(gaps, [0.05, 0.1, 0.2, 0.4, 0.4, 0.4], strict=True):
        assert gap >= 0.8 * full - 0.005, gaps  # never early (late: the load)
    assert sink.states[:3] == ["connecting", "connecting", "down"]  # looking, not reachable
    said = [r.getMessage() for r in caplog.records]
    assert said[0] == "tap pad pad: connecting -> watching"
    assert said[-1] == "tap pad pad: watching -> connecting (closed)"
    assert pad.readers() == [] and PadLink.CONNECTING == "connecting"
