"""``companion tags …`` as a user runs it (a subprocess): listen on a real pcscd with
``--count``/``--timeout``/``--stats``, the guided enrolment by taps and by keyboard, list,
export → import, retire, and clear one-line refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from queue import Empty, Queue
from typing import Any

import pytest
from pcscdkit import READER_0, READER_1, Pcscd
from vcard import VirtualTag

from companion.sensors.tag_registry import TagRegistry

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}


def tags(db: Path, *args: str, stdin: str = "", timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", "tags", "--db", str(db), *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, cwd=REPO, env=ENV,
    )


class Running:
    """A ``companion tags …`` process whose output lines arrive in a queue."""

    def __init__(self, db: Path, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion.cli", "tags", "--db", str(db), *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, cwd=REPO, env=ENV,
        )
        self.lines: Queue[str] = Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))

    def expect(self, text: str, timeout: float = 10) -> str:
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except Empty:
                break
            self.seen.append(line)
            if text in line:
                return line
        raise AssertionError(f"no line with {text!r} in {timeout} s; got {self.seen}")

    def type(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def finish(self, timeout: float = 10) -> tuple[int, str]:
        code = self.proc.wait(timeout)
        time.sleep(0.1)
        rest = []
        while not self.lines.empty():
            rest.append(self.lines.get())
        self.seen += rest
        err = self.proc.stderr.read() if self.proc.stderr else ""
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if f:
                f.close()
        return code, err


def json_lines(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_listen_prints_one_object_per_tap(pcscd: Pcscd, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    TagRegistry(db).enrol("04A2B3C4D5E680", "red-2b")
    run = Running(db, "listen", "--pcsc", "--json", "--count", "2", "--timeout", "30", "--stats")
    run.expect('"state": "up"')
    with VirtualTag("04A2B3C4D5E680", 35963):
        run.expect('"kind": "tapped"')
        time.sleep(1.0)  # resting: no second line
    with VirtualTag("DEADBEEF", 35964):
        code, err = run.finish(15)
    assert code == 0, err
    out = [json.loads(line) for line in run.seen]
    taps = [o for o in out if o["kind"] == "tapped"]
    assert [(t["reader"], t["uid"], t.get("piece")) for t in taps] == [
        (READER_0, "04A2B3C4D5E680", "red-2b"), (READER_1, "DEADBEEF", None)]
    assert "piece" not in taps[1]  # unknown: no piece key
    assert out[-1] == {"kind": "stats", "lines": None, "bad_lines": None, "observations": 2}


def test_listen_times_out_when_nothing_is_tapped(pcscd: Pcscd, tmp_path: Path) -> None:
    t0 = time.monotonic()
    r = tags(tmp_path / "games.sqlite3", "listen", "--json", "--count", "1", "--timeout", "2")
    assert r.returncode == 1
    assert 2 <= time.monotonic() - t0 < 10
    assert "timeout after 2.0 s: 0 of 1 observations" in r.stderr
    assert [o["state"] for o in json_lines(r.stdout)][-1] == "up"


def test_listen_without_pcscd_runs_and_says_so(tmp_path: Path) -> None:
    if subprocess.run(["pgrep", "-x", "pcscd"], capture_output=True).returncode == 0:
        pytest.skip("a pcscd is running")
    r = tags(tmp_path / "games.sqlite3", "listen", "--json", "--timeout", "1.5")
    assert r.returncode == 0, r.stderr
    last = json_lines(r.stdout)[-1]
    assert (last["kind"], last["state"]) == ("health", "connecting")
    assert "pcscd not reachable" in last["detail"]


def test_listen_on_a_serial_hub(tmp_path: Path) -> None:
    """`tags listen --serial PORT` through a real pty pair and a scripted hub: one `seen`
    per tag (piece named when enrolled), then the link's counts with --stats."""
    from hub_support import PeerHub, SocatPair

    db = tmp_path / "games.sqlite3"
    TagRegistry(db).enrol("04A1B2C3D4E5F6", "blue-2a")
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2, hub_id=3)
    peer.present = {(0, "04A1B2C3D4E5F6"), (1, "DEADBEEF")}
    try:
        r = tags(db, "listen", "--serial", pair.a, "--count", "2", "--timeout", "20",
                 "--stats", "--json")
    finally:
        peer.close()
        pair.close()
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    seen = {row["uid"]: row for row in rows if row["kind"] == "seen"}
    assert {row["reader"] for row in seen.values()} == {"hub:3/reader:0", "hub:3/reader:1"}
    assert set(seen) == {"04A1B2C3D4E5F6", "DEADBEEF"}
    assert seen["04A1B2C3D4E5F6"]["piece"] == "blue-2a"
    assert "piece" not in seen["DEADBEEF"]
    stats = rows[-1]
    assert stats["kind"] == "stats" and stats["observations"] >= 2
    assert stats["lines"] >= 3 and stats["bad_lines"] == 0


def test_enrolment_through_a_hub_reader(tmp_path: Path) -> None:
    """A tag put on any reader of a hub enrols the asked piece, as a tap on the pad does."""
    from hub_support import PeerHub, SocatPair

    db = tmp_path / "games.sqlite3"
    pair = SocatPair(tmp_path)
    peer = PeerHub(pair.b, readers=2, hub_id=4)
    run = Running(db, "enrol", "--serial", pair.a, "--colour", "monk")
    try:
        run.expect("[1/4] tap black monk 1 (monk-1)")
        time.sleep(0.5)  # the adapter has said START and streams
        peer.line("SEEN 1 A1B2C3D4")
        run.expect("ok: monk-1 = A1B2C3D4")
        run.expect("[2/4] tap black monk 2")
        peer.line("GONE 1 A1B2C3D4")
        peer.line("SEEN 0 0badcafe".upper())
        run.expect("ok: monk-2 = 0BADCAFE")
        run.type("q")
        code, err = run.finish()
        assert code == 0, err
    finally:
        if run.proc.poll() is None:
            run.proc.kill()
            run.finish()
        peer.close()
        pair.close()
    assert TagRegistry(db).lookup("A1B2C3D4") == "monk-1"
    assert TagRegistry(db).lookup("0BADCAFE") == "monk-2"


def test_guided_enrolment_by_taps(pcscd: Pcscd, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    TagRegistry(db).enrol("0A0B0C0D", "yellow-1a")  # a tag of another piece
    run = Running(db, "enrol", "--pcsc", "--colour", "monk")
    run.expect("[1/4] tap black monk 1 (monk-1)")
    with VirtualTag("11111111", 35963):
        run.expect("ok: monk-1 = 11111111")
    run.expect("[2/4] tap black monk 2")
    time.sleep(0.6)
    with VirtualTag("11111111", 35963):  # the same tag tapped twice
        run.expect("tag 11111111 was just enrolled to monk-1")
    time.sleep(0.6)
    with VirtualTag("0A0B0C0D", 35964):
        run.expect("already enrolled to yellow-1a (yellow 1, first copy)")
    run.type("s")
    run.expect("skipped monk-2")
    run.expect("[3/4] tap black monk 3")
    time.sleep(0.6)
    with VirtualTag("33333333", 35963):
        run.expect("ok: monk-3 = 33333333")
    run.type("u")
    run.expect("undone: monk-3 no longer 33333333")
    run.type("q")
    code, err = run.finish()
    assert code == 0, err
    assert "enrolled 1, skipped 1; 2 of 48 pieces have a tag" in run.seen[-1]
    assert TagRegistry(db).enrolled() == {"yellow-1a": "0A0B0C0D", "monk-1": "11111111"}


def test_keyboard_enrolment_list_export_import_retire(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    r = tags(db, "enrol", "--keyboard", "--colour", "red",
             stdin="04:00:00:01\n04000002\ns\n" + "".join(f"04{n:06X}\n" for n in range(4, 12)))
    assert r.returncode == 0, r.stderr
    assert "[1/11] tap red 1, first copy (red-1a)" in r.stdout
    assert "enrolled 10, skipped 1; 10 of 48 pieces have a tag" in r.stdout
    listed = json.loads(tags(db, "list", "--json").stdout)
    assert listed["enrolled"] == 10
    assert [p["uid"] for p in listed["pieces"][:3]] == ["04000001", "04000002", None]

    # a spare for red-1c, then only the missing pieces are asked for
    r = tags(db, "enrol", "--keyboard", "--colour", "red", stdin="0400BEEF\n")
    assert "[1/1] tap red 1, third copy (red-1c)" in r.stdout

    export = tmp_path / "tags.json"
    assert tags(db, "export", str(export)).returncode == 0
    other = tmp_path / "other.sqlite3"
    r = tags(other, "import", str(export))
    assert r.returncode == 0 and "11 of 48 pieces have a tag" in r.stdout
    assert TagRegistry(other).enrolled() == TagRegistry(db).enrolled()

    r = tags(other, "retire", "04000001")
    assert r.returncode == 0 and "red-1a (red 1, first copy) has no tag now" in r.stdout
    r = tags(other, "retire", "04000001")
    assert r.returncode == 2 and r.stderr.strip() == "companion tags retire: tag 04000001 is not enrolled"
    export.write_text('{"format": "something else"}')
    r = tags(other, "import", str(export))
    assert r.returncode == 2 and "not a tag registry export" in r.stderr


def test_all_48_pieces_in_one_session(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    r = tags(db, "enrol", "--keyboard", stdin="".join(f"04{n:06X}\n" for n in range(48)))
    assert r.returncode == 0, r.stderr
    assert "[48/48] tap black monk 4 (monk-4)" in r.stdout
    assert "enrolled 48, skipped 0; 48 of 48 pieces have a tag" in r.stdout
    r = tags(db, "enrol", "--keyboard")
    assert r.returncode == 0 and "every piece has a tag; --all enrols them again" in r.stdout
