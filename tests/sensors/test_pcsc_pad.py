"""The tap pad against a real pcscd with vpcd's virtual readers and a virtual tag
(``vcard.VirtualTag``): one observation per tap, two readers, pcscd restarted or absent,
readers changing across a restart, health and per-reader reports."""

from __future__ import annotations

import contextlib
import queue
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from appkit import make_app
from pcscdkit import MAIN, READER_0, READER_1, Pcscd, reader_names, skip_reason
from vcard import VirtualTag

from companion.reconcile.observations import Health, Observation, TagTapped
from companion.sensors.pcsc_pad import PcscPad
from web import runtime_of

UID_A = "04A2B3C4D5E680"
UID_B = "DEADBEEF"


class Recorder:
    """The pad's emit: every observation in a queue, taps and health split out."""

    def __init__(self) -> None:
        self.q: queue.Queue[Observation] = queue.Queue()
        self.taps: list[TagTapped] = []
        self.health: list[Health] = []

    def __call__(self, obs: Observation) -> None:
        self.q.put(obs)

    def next_tap(self, timeout: float = 5.0) -> TagTapped:
        return self.wait(lambda o: isinstance(o, TagTapped), timeout)  # type: ignore[return-value]

    def wait(self, match: Callable[[Observation], bool], timeout: float = 5.0) -> Observation:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"nothing matching in {timeout} s; taps {self.taps}, "
                                     f"health {[(h.state, h.detail) for h in self.health]}")
            try:
                obs = self.q.get(timeout=left)
            except queue.Empty:
                continue
            (self.taps if isinstance(obs, TagTapped) else self.health).append(obs)  # type: ignore[arg-type]
            if match(obs):
                return obs

    def quiet(self, seconds: float) -> list[Observation]:
        """Everything emitted during the next ``seconds``."""
        got: list[Observation] = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            with contextlib.suppress(queue.Empty):
                got.append(self.q.get(timeout=left))
        return got


TABLE = {"Authorization": "Bearer t"}  # taps and reader rows name tag UIDs: the table only


@pytest.fixture
def rec() -> Recorder:
    return Recorder()


@pytest.fixture
def pad(pcscd: Pcscd, rec: Recorder) -> Iterator[PcscPad]:
    p = PcscPad(rec, {UID_A: "red-1a"}.get, name="pad")
    p.start()
    rec.wait(lambda o: isinstance(o, Health) and o.state == "up")
    yield p
    p.close()


def test_one_observation_per_tap_however_long_it_rests(pad: PcscPad, rec: Recorder) -> None:
    with VirtualTag(UID_A, 35963):
        tap = rec.next_tap()
        assert (tap.reader, tap.uid, tap.piece) == (READER_0, UID_A, "red-1a")
        assert tap.source == f"pad:{READER_0}"
        assert [o for o in rec.quiet(2.0) if isinstance(o, TagTapped)] == []  # resting: silent
    time.sleep(0.8)  # removed
    with VirtualTag(UID_A, 35963):  # re-tap: a new observation
        assert rec.next_tap().uid == UID_A
    assert [r["taps"] for r in pad.readers() if r["reader"] == READER_0] == [2]


def test_unknown_tag_has_no_piece_and_two_readers_are_told_apart(pad: PcscPad, rec: Recorder) -> None:
    with VirtualTag(UID_B, 35964):
        tap = rec.next_tap()
        assert (tap.reader, tap.uid, tap.piece) == (READER_1, UID_B, None)
        with VirtualTag(UID_A, 35963):
            tap = rec.next_tap()
            assert (tap.reader, tap.uid, tap.piece) == (READER_0, UID_A, "red-1a")
    rows = {r["reader"]: r for r in pad.readers()}
    assert set(rows) == {READER_0, READER_1}
    assert rows[READER_0]["taps"] == rows[READER_1]["taps"] == 1
    assert rows[READER_0]["last_seen"] is not None and rows[READER_0]["errors"] == 0


def test_quick_remove_and_retap_is_two_taps(pad: PcscPad, rec: Recorder) -> None:
    for _ in range(5):
        with VirtualTag(UID_A, 35963):
            rec.next_tap()
        time.sleep(0.6)
    assert len(rec.taps) == 5


def test_pcscd_restarted_is_followed(pcscd: Pcscd, pad: PcscPad, rec: Recorder) -> None:
    pcscd.stop()
    h = rec.wait(lambda o: isinstance(o, Health) and o.state == "connecting", 5)
    assert "pcscd" in h.detail  # type: ignore[attr-defined]
    assert pad.readers() == []
    pcscd.start(MAIN)
    rec.wait(lambda o: isinstance(o, Health) and o.state == "up", 10)
    with VirtualTag(UID_A, 35963):
        assert rec.next_tap(8).uid == UID_A


def test_no_pcscd_then_no_reader_then_readers(tmp_path: Path, rec: Recorder) -> None:
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    daemon = Pcscd(tmp_path)
    pad = PcscPad(rec, name="pad")
    pad.start()
    try:
        h = rec.wait(lambda o: isinstance(o, Health) and o.state == "connecting")
        assert pad.health().state == "connecting"
        daemon.start()  # pcscd with no reader at all
        h = rec.wait(lambda o: isinstance(o, Health) and o.state == "down", 10)
        assert h.detail == "no PC/SC reader present"  # type: ignore[attr-defined]
        daemon.restart((MAIN,))  # readers plugged in; the pad is not restarted
        rec.wait(lambda o: isinstance(o, Health) and o.state == "up", 10)
        assert sorted(r["reader"] for r in pad.readers()) == reader_names(MAIN)
        with VirtualTag(UID_B, 35964):
            tap = rec.next_tap(8)
            assert (tap.reader, tap.uid) == (READER_1, UID_B)
        daemon.restart(())  # unplugged again
        rec.wait(lambda o: isinstance(o, Health) and o.state == "down", 10)
        assert pad.readers() == []
    finally:
        pad.close()
        daemon.stop()
    assert pad.health().detail == "closed"


def test_close_is_prompt_and_idempotent(pad: PcscPad) -> None:
    t0 = time.monotonic()
    pad.close()
    pad.close()
    assert time.monotonic() - t0 < 2.0


def test_taps_and_health_reach_the_server(pcscd: Pcscd, tmp_path: Path) -> None:
    """The pad wired as the runtime would: emit → RunningSensors of a real app; the tap and
    the reader rows come out of /api/tags/taps and /api/sensors."""

    app = make_app(db_path=tmp_path / "games.sqlite3", table_token="t", boxcheck_path=str(tmp_path / "b.json"))
    running, registry = runtime_of(app).running, runtime_of(app).registry
    registry.enrol(UID_A, "blue-3b")
    pad = PcscPad(running.observe, registry.lookup, name="pad")
    running.add(pad)
    pad.start()
    client = app.test_client()
    try:
        deadline = time.monotonic() + 5
        while client.get("/api/sensors").get_json()["adapters"][0]["health"]["state"] != "up":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        with VirtualTag(UID_A, 35963):
            got = client.get("/api/tags/taps?after=0&wait=8", headers=TABLE).get_json()
            assert [(t["reader"], t["uid"], t["piece"]) for t in got["taps"]] == [
                (READER_0, UID_A, "blue-3b")]
            (report,) = client.get("/api/sensors", headers=TABLE).get_json()["adapters"]
            rows = {r["reader"]: r for r in report["readers"]}
            assert (rows[READER_0]["state"], rows[READER_0]["uid"], rows[READER_0]["taps"]) == (
                "tag", UID_A, 1)
            assert rows[READER_0]["reads_per_s"] > 0 and rows[READER_1]["state"] == "empty"
    finally:
        running.close()
        runtime_of(app).close()
