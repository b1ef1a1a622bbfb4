"""Acknowledged events survive the writer being killed with SIGKILL.

A child process appends in a tight loop and prints each acknowledged event; the test reads
a random number of acknowledgements, kills the child mid-stream, reopens the database and
checks that every acknowledged event is there, intact, with no gap in the seqs.

This proves "committed before the method returns". Surviving a power cut further relies on
``synchronous=FULL`` (checked in test_store_events.py), which no test here can cut power on.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.store import EventStore

WRITER = Path(__file__).with_name("durable_writer.py")
REPO = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL (POSIX)"),
]


def record_ack(acknowledged: dict[int, object], line: str) -> None:
    """Note one ``SEQ EVENT_JSON`` line printed by the writer."""
    seq, event = line.split(" ", 1)
    acknowledged[int(seq)] = json.loads(event)["payload"]


@pytest.mark.parametrize("seed", range(5))
def test_acknowledged_events_survive_sigkill(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    wanted = rng.randint(50, 400)
    db_path = tmp_path / "durable.sqlite3"
    with EventStore(db_path) as store:
        game = store.create_game({"game": "village"})
        if seed % 2:  # a game with history before the crash, and a second game beside it
            store.append(game, {"type": "before"}, "tablet")
            store.create_game({"game": "village"})
    start_seq = 1 + seed % 2

    paths = [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    child = subprocess.Popen(
        [sys.executable, str(WRITER), str(db_path), str(game)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    acknowledged: dict[int, object] = {}
    try:
        assert child.stdout is not None
        deadline = time.monotonic() + 30
        while len(acknowledged) < wanted:
            line = child.stdout.readline()
            if not line:
                child.wait(timeout=10)
                assert child.stderr is not None
                pytest.fail(f"writer stopped early: {child.stderr.read()}")
            assert time.monotonic() < deadline, "writer too slow"
            record_ack(acknowledged, line)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        # Lines already in the pipe (or in our read buffer) were acknowledged too; only whole
        # lines count. Read through child.stdout, not communicate(): communicate() reads the
        # raw pipe and would skip what readline() has already buffered.
        rest = child.stdout.read()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for pipe in (child.stdout, child.stderr):
            if pipe is not None:
                pipe.close()
    assert child.returncode == -signal.SIGKILL
    for line in rest.splitlines(keepends=True):
        if line.endswith("\n"):
            record_ack(acknowledged, line)

    with EventStore(db_path) as store:
        assert store.settings()["journal_mode"] == "wal"
        events = store.events(game)
        stored = {e.seq: e.payload for e in events}
        assert [e.seq for e in events] == list(range(1, len(events) + 1)), "seqs have a gap"
        assert sorted(acknowledged) == list(range(start_seq, start_seq + len(acknowledged)))
        for seq, payload in acknowledged.items():
            assert stored.get(seq) == payload, f"acknowledged event {seq} lost or changed"
        # At most the one append in flight at the kill may be stored without its line.
        assert len(events) - (start_seq - 1) - len(acknowledged) in (0, 1)
        # The database is still writable after the crash.
        assert store.append(game, {"type": "after"}, "tablet").seq == len(events) + 1
