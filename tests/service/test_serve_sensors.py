"""``companion serve --demo --sensors sim``: a real server process plays on a simulated
table through the real reconciler; SIGTERM stops it cleanly."""

from __future__ import annotations

import json
import signal
import time
import urllib.request
from collections.abc import Callable

from servicekit import ServerProcess


def test_demo_through_simulated_sensors(server_factory: Callable[..., ServerProcess]) -> None:
    server = server_factory("--demo", "--sensors", "sim")
    deadline = time.monotonic() + 60
    sources: set[str] = set()
    while time.monotonic() < deadline and not sources & {"camera", "tag_reader"}:
        time.sleep(1.0)
        with urllib.request.urlopen(server.base + "/api/state", timeout=5) as r:
            state = json.loads(r.read())
        with urllib.request.urlopen(server.base + "/api/sensing/evidence", timeout=5) as r:
            evidence = json.loads(r.read())["evidence"]
        sources = {"camera"} if evidence else set()
    assert sources, "no action came from the simulated sensors within a minute"
    assert state["seq"] > 0
    assert evidence[0]["observations"]
    assert server.proc is not None
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(15) == 0
