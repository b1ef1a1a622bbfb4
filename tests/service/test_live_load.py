"""The live feed of a real server process under load: 500 streams with churn while a client
plays, vanished clients released, caps per address answered 503, the table never blocked.

Loose bounds only: the figures belong to ``python -m companion.bench.service --clients 500``.
"""

from __future__ import annotations

import http.client
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from servicekit import AUTH, ServerProcess

from companion.bench.crowd import Crowd, raise_file_limit
from companion.bench.service import check_delivery
from companion.bench.sse import SSEClient


def _counts(pid: int) -> tuple[int, int]:
    """(threads, open file descriptors) of a process."""
    threads = next(
        int(line.split()[1])
        for line in Path(f"/proc/{pid}/status").read_text().splitlines()
        if line.startswith("Threads:")
    )
    return threads, len(list(Path(f"/proc/{pid}/fd").iterdir()))


def _wait_fds(pid: int, at_most: int, timeout: float) -> float | None:
    """Seconds until the process holds ≤ ``at_most`` descriptors, None if never in time."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        if _counts(pid)[1] <= at_most:
            return time.monotonic() - t0
        time.sleep(0.05)
    return None


def _call(port: int, method: str, path: str, body: Any = None, source: str | None = None) -> Any:
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=10, source_address=(source, 0) if source else None
    )
    headers = {**AUTH, "Content-Type": "application/json"} if method == "POST" else {}
    conn.request(method, path, None if body is None else json.dumps(body), headers)
    r = conn.getresponse()
    data = json.loads(r.read() or b"null")
    conn.close()
    return r.status, data


@pytest.fixture(autouse=True)
def _file_limit() -> None:
    if raise_file_limit(4096) < 1400:
        pytest.skip("the open-file limit is too low for 500 streams")


def test_500_streams_with_churn_get_every_event_in_order(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    assert server.proc is not None
    pid = server.proc.pid
    status, _ = _call(server.port, "POST", "/api/games", {"players": ["red", "yellow", "blue"]})
    assert status == 201
    _call(server.port, "GET", "/api/state")
    threads_before, fds_before = _counts(pid)
    rng = random.Random(11)
    latencies: list[float] = []
    seq = 0
    with Crowd("127.0.0.1", server.port) as crowd:
        for _ in range(500):
            crowd.join(after=0)
        assert len(crowd.live()) == 500
        for i in range(60):
            _, legal = _call(server.port, "GET", "/api/legal")
            t0 = time.perf_counter()
            status, answer = _call(server.port, "POST", "/api/actions", rng.choice(legal["actions"]))
            assert status == 200, answer
            seq = answer["seq"]
            assert crowd.wait_for(seq, timeout=15), f"not every stream got seq {seq}"
            latencies += [
                t - t0 for m in crowd.live() for s, t in m.received[-2:] if s == seq
            ]
            if i % 10 == 9:  # churn: 20 vanish without a goodbye, 20 new ones resume
                for m in rng.sample(crowd.live(), 20):
                    crowd.drop(m)
                for _ in range(20):
                    crowd.join(after=seq)
        time.sleep(0.3)
        report = check_delivery(crowd.members, seq)
        assert report["out_of_order_or_missing"] == 0, report
        assert report["complete"] == report["live_at_end"] == 500, report
        assert all(m.error is None for m in crowd.members), "a stream was cut"
        threads_load, fds_load = _counts(pid)
        assert fds_load >= fds_before + 490  # the 500 streams are open server-side
        # streams hold no thread: only the Flask pools (12 readers + 4 table-token workers)
        assert threads_load <= threads_before + 16
        latencies.sort()
        assert latencies[int(0.95 * len(latencies))] < 0.5  # loose; the goal (50 ms) is benched
    # every stream closed by the clients: the server lets go of all of them
    assert _wait_fds(pid, fds_before + 2, timeout=5) is not None, _counts(pid)
    assert _counts(pid)[0] <= threads_before + 16


def test_a_vanished_client_is_released_within_5_seconds(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    assert server.proc is not None
    _call(server.port, "POST", "/api/games", {"players": ["red", "blue"]})
    _call(server.port, "GET", "/api/state")
    with Crowd("127.0.0.1", server.port) as crowd:
        members = [crowd.join() for _ in range(40)]
        time.sleep(0.3)
        _, fds_with = _counts(server.proc.pid)
        for m in members:
            crowd.drop(m)  # SO_LINGER 0: a reset, no FIN
        released = _wait_fds(server.proc.pid, fds_with - 40, timeout=5)
        assert released is not None, "the server still holds vanished streams after 5 s"


def test_a_stream_flood_from_one_address_cannot_block_the_table(
    server_factory: Callable[..., ServerProcess],
) -> None:
    server = server_factory()
    status, _ = _call(server.port, "POST", "/api/games", {"players": ["red", "blue"]})
    assert status == 201
    flood: list[SSEClient] = []
    try:
        for _ in range(64):  # SSE_MAX_PER_ADDRESS
            flood.append(SSEClient("127.0.0.1", server.port, source="127.0.0.9"))
        with pytest.raises(ConnectionError, match="503"):
            SSEClient("127.0.0.1", server.port, source="127.0.0.9")
        conn = http.client.HTTPConnection("127.0.0.1", server.port, source_address=("127.0.0.9", 0))
        conn.request("GET", "/api/events")
        r = conn.getresponse()
        body = json.loads(r.read())
        conn.close()
        assert r.status == 503 and r.getheader("Retry-After") == "5"
        assert body["code"] == "too_many_streams" and "127.0.0.9" in body["message"]
        # another address still gets a stream, the table still plays, quickly, and the
        # flood's streams get its events
        with SSEClient("127.0.0.1", server.port, source="127.0.0.10", timeout=5) as other:
            _, legal = _call(server.port, "GET", "/api/legal", source="127.0.0.9")
            t0 = time.perf_counter()
            status, answer = _call(server.port, "POST", "/api/actions", legal["actions"][0])
            assert status == 200 and time.perf_counter() - t0 < 2.0
            assert other.next_event().json()["seq"] == answer["seq"]
            assert flood[-1].next_event().json()["seq"] == answer["seq"]
    finally:
        for c in flood:
            c.close()
