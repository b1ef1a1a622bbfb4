"""Nobody without a token can lock the table out: a real ``companion serve`` under each attack
of `companion.bench.siege`, the table playing meanwhile.

The bounds here are loose on purpose (a busy CI machine): they tell "the table plays" from
"the table is locked out" (before the connection guard: seconds, or no answer at all). The
figures themselves come from ``python -m companion.bench.siege`` (docs/service.md).
"""

from __future__ import annotations

import contextlib
import socket
import time
from pathlib import Path

import pytest
from servicekit import ServerProcess

from companion.bench import siege

pytestmark = pytest.mark.slow


def _table_played(report: dict) -> None:
    under = report["under_attack"]
    assert report["server_alive"]
    assert under["failed"] == 0 and under["actions"] >= 10
    assert under["event_ms"]["p95"] < 1000, under
    assert under["player_page_max_ms"] < 2000, under


def test_nine_thousand_idle_connections_from_one_address() -> None:
    report = siege.run_scenario("idle", scale=1.0, actions=15)
    _table_played(report)
    assert report["attack"]["opened"] >= 8000
    assert report["attack"]["held_by_server"] <= 160  # the per-address cap, no more
    assert report["server_after"]["fds"] < 100  # every refused or idle one closed again


def test_slow_bodies_hold_no_thread_and_get_408() -> None:
    report = siege.run_scenario("slow", scale=1.0, actions=15)
    _table_played(report)
    assert report["attack"]["answers"] == ["HTTP/1.1 408 Request Timeout"]


def test_a_huge_header_is_refused_431_without_blocking_the_table() -> None:
    report = siege.run_scenario("header", scale=0.25, actions=15)  # 16 MB headers, 4 at once
    _table_played(report)
    assert report["attack"]["answers"] == ["HTTP/1.1 431 Request Header Fields Too Large"]
    assert report["server_after"]["rss_mb"] < 150


def test_spectators_filling_the_stream_cap_leave_the_table_its_stream() -> None:
    report = siege.run_scenario("streams", scale=1.0, actions=15)
    _table_played(report)  # the table's stream (with its token) opened past the public cap
    assert report["attack"]["opened"] == 2000 and report["attack"]["refused"] == 50


def test_catch_up_from_zero_is_rate_limited_per_address() -> None:
    report = siege.run_scenario("catch_up", scale=1.0, actions=15)
    _table_played(report)
    assert report["attack"]["refused"] > 0


def test_forwarded_for_is_ignored_unless_behind_a_proxy(tmp_path: Path) -> None:
    # The held connections say nothing; a long header timeout keeps them counted however
    # slowly a loaded machine runs this (at load 12 one CI run saw the 9th admitted: the
    # held ones had most likely been cut by the 10 s default before it arrived).
    server = ServerProcess(tmp_path / "g.sqlite3", "--connections-per-address", "8",
                           "--header-timeout", "300").start()
    held: list[socket.socket] = []
    try:
        time.sleep(0.5)  # the start-up probe's connection is released
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(8)]
        time.sleep(0.2)
        extra = socket.create_connection(("127.0.0.1", server.port))
        held.append(extra)
        extra.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 10.9.9.9\r\n\r\n")
        extra.settimeout(30)  # a loaded machine may take seconds to answer
        answer = extra.recv(64)
        cut = []
        for s in held[:-1]:
            s.settimeout(0)
            with contextlib.suppress(BlockingIOError):
                cut.append(s.recv(64))
        assert answer.startswith(b"HTTP/1.1 503"), (answer, cut)  # counted as 127.0.0.1, the 9th
    finally:
        for s in held:
            s.close()
        server.kill()


def test_headers_that_never_end_are_cut_after_the_header_timeout(tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "g.sqlite3", "--header-timeout", "1").start()
    try:
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /api/games HTTP/1.1\r\nHost: t\r\n")  # and then nothing
        s.settimeout(5)
        t0 = time.monotonic()
        answer = s.recv(64)
        assert answer.startswith(b"HTTP/1.1 408"), answer
        assert time.monotonic() - t0 < 4
        s.close()
    finally:
        server.kill()
