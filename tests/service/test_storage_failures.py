"""Storage failures said in words: a full disk (a small tmpfs) answers 507 and loses nothing;
``companion serve`` on a read-only database says so in one line and exits non-zero."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from appkit import make_app
from servicekit import AUTH, REPO

from web import runtime_of


def _mount_tmpfs(where: Path, size: str) -> None:
    where.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs, unmounted afterwards."""
    where = tmp_path / "small"
    _mount_tmpfs(where, "2m")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(disk: Path) -> Path:
    """Fill ``disk`` to the last byte; return the filler file."""
    filler = disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def test_a_full_disk_answers_507_in_words_and_loses_nothing(small_disk: Path) -> None:
    app = make_app(db_path=small_disk / "g.sqlite3", table_token=AUTH["Authorization"].split()[1], boxcheck_path=small_disk / "box.json")
    client = app.test_client()
    assert client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH).status_code == 201
    accepted = 0
    for _ in range(5):
        action = client.get("/api/legal").get_json()["actions"][0]
        assert client.post("/api/actions", json=action, headers=AUTH).status_code == 200
        accepted += 1
    filler = _fill(small_disk)
    refusals = []
    for _ in range(200):  # the WAL may still hold room for a few: go on until refused
        action = client.get("/api/legal").get_json()["actions"][0]
        r = client.post("/api/actions", json=action, headers=AUTH)
        if r.status_code == 200:
            accepted += 1
            continue
        refusals.append(r)
        if len(refusals) == 3:
            break
    assert refusals, "the full disk was never noticed"
    for r in refusals:
        assert r.status_code == 507, r.get_json()
        body = r.get_json()
        assert body["code"] == "storage_full"
        assert body["message"].startswith("The table's storage is full; nothing accepted was lost")
        assert r.headers["Retry-After"]
    state = client.get("/api/state")
    assert state.status_code == 200 and state.get_json()["seq"] == accepted
    box = client.post("/api/boxcheck", json={"key": "time_track.length", "value": 12}, headers=AUTH)
    assert box.status_code == 507 and box.get_json()["code"] == "storage_full"
    games = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert games.status_code == 507
    assert client.get("/play").status_code == 200
    # space again: the table goes on where it was, nothing lost
    filler.unlink()
    action = client.get("/api/legal").get_json()["actions"][0]
    r = client.post("/api/actions", json=action, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["seq"] == accepted + 1
    runtime_of(app).close()
    reopened = make_app(db_path=small_disk / "g.sqlite3", boxcheck_path=small_disk / "b")
    assert reopened.test_client().get("/api/state").get_json()["seq"] == accepted + 1
    runtime_of(reopened).close()


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.serve", "--host", "127.0.0.1", "--port", "0",
         "--db", str(db), "--token", "t", "--no-qr"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
    )


def test_serve_on_a_read_only_database_says_so_in_one_line(tmp_path: Path) -> None:
    where = tmp_path / "ro"
    _mount_tmpfs(where, "4m")
    try:
        app = make_app(db_path=where / "g.sqlite3", boxcheck_path=where / "b.json")
        app.test_client().post(
            "/api/games",
            json={"players": ["red", "blue"]},
            headers={"Authorization": f"Bearer {runtime_of(app).service.table_token}"},
        )
        runtime_of(app).close()
        remount = subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip(f"cannot remount read-only: {remount.stderr!r}")
        done = _serve(where / "g.sqlite3")
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"companion serve: cannot use the database {where / 'g.sqlite3'}")
    assert "read-only" in lines[0] and "Traceback" not in done.stderr


def test_serve_on_a_database_path_that_cannot_exist_says_so(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = _serve(blocker / "g.sqlite3")
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot use the database" in lines[0], done.stderr


def test_serve_on_a_database_this_user_cannot_write_exits_with_one_line(tmp_path: Path) -> None:
    """Mode 0444 and a user that is not allowed past it (root without CAP_DAC_OVERRIDE, as
    the service user would be): one line, exit 2, and no -wal/-shm made read-only."""
    app = make_app(db_path=tmp_path / "g.sqlite3", boxcheck_path=tmp_path / "b.json")
    runtime_of(app).close()
    for extra in tmp_path.glob("g.sqlite3-*"):
        extra.unlink()
    (tmp_path / "g.sqlite3").chmod(0o444)
    args = [sys.executable, "-m", "companion.serve", "--db", str(tmp_path / "g.sqlite3"),
            "--port", "0", "--no-qr", "--token", "t"]
    done = subprocess.run(
        ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *args],
        capture_output=True, text=True, cwd=REPO, timeout=60,
    )
    if "setpriv" in done.stderr and done.returncode == 127:  # pragma: no cover
        pytest.skip("setpriv is not here")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot use the database" in lines[0], done.stderr
    assert "read-only" in lines[0]
    assert not list(tmp_path.glob("g.sqlite3-*"))  # no -wal or -shm left behind


def test_tag_enrolment_on_a_full_disk_answers_507(small_disk: Path) -> None:
    token = AUTH["Authorization"].split()[1]
    app = make_app(db_path=small_disk / "g.sqlite3", table_token=token, boxcheck_path=small_disk / "box.json")
    client = app.test_client()
    filler = _fill(small_disk)
    try:
        answers = set()
        for i in range(40):  # until SQLite needs a page it cannot have
            r = client.post("/api/tags/enrol", json={"uid": f"04A1B2C3D4E5{i:02X}",
                                                     "piece": "red-1a"}, headers=AUTH)
            answers.add(r.status_code)
        assert 500 not in answers and answers <= {201, 507, 503}, answers
        assert 507 in answers
    finally:
        filler.unlink()
        runtime_of(app).close()
