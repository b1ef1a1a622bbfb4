"""The app as tests build it: `web.create_app` around a `Runtime` made from `Settings`
(not started: no reconciler or adapter threads unless the test starts them), and served as
``companion serve`` serves it (`Served`: uvicorn and `web.asgi`, the only live-feed server)."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from typing import Any

from flask import Flask

from companion.runtime import Runtime
from companion.settings import FeedLimits, Settings
from web import create_app


def make_app(**settings: Any) -> Flask:
    """An app around a new runtime with ``settings`` (`Settings` field names; paths may be
    text). Raises TypeError for a name `Settings` does not have."""
    from pathlib import Path

    for name in ("db_path", "boxcheck_path", "zones", "camera_calibration"):
        if settings.get(name) is not None:
            settings[name] = Path(settings[name])
    app = create_app(Runtime(Settings(**settings)))
    app.config["TESTING"] = True
    return app


def bound_socket() -> tuple[socket.socket, str]:
    """A TCP socket listening on 127.0.0.1 (a free port) and its URL: bound before the app
    is made, so the app's settings can name its own address."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(256)
    return sock, f"http://127.0.0.1:{sock.getsockname()[1]}"


DEVICES_ON_ONE_ADDRESS = FeedLimits(http_per_address=64, max_per_address=256)
"""A test's tablet, phones and scoreboard all come from 127.0.0.1, where a table's devices
each have their own address: the per-address caps are those of a table's worth of devices."""


class Served:
    """An app made by `web.create_app`, served as ``companion serve`` serves it (uvicorn,
    `web.asgi`: the live feed on the event loop) on ``sock``, in a thread; `url`. `close`
    stops it within a few seconds, open live streams included."""

    def __init__(self, app: Any, sock: socket.socket | None = None,
                 limits: FeedLimits | None = None) -> None:
        import uvicorn

        from web.asgi import make_asgi

        if sock is None:
            sock, _ = bound_socket()
        self.app = app
        self.sock = sock
        self.url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        config = uvicorn.Config(make_asgi(app, limits or DEVICES_ON_ONE_ADDRESS), log_level="warning", lifespan="on",
                                timeout_graceful_shutdown=5, access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]},
                                       daemon=True)
        self.thread.start()
        end = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > end or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)

    def close(self) -> None:
        from web import runtime_of

        runtime_of(self.app).running.stop_waiting()  # a long poll for a tap ends now
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def read_stream(url: str, path: str, blocks: int, headers: dict[str, str] | None = None,
                timeout: float = 10.0) -> tuple[int, dict[str, str], str]:
    """GET ``path`` from a `Served` app and read the first ``blocks`` blank-line-ended
    blocks of its answer (fewer if it ends): status, headers, text."""
    host, port = url.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        conn.request("GET", path, headers=headers or {})
        response = conn.getresponse()
        head = {k.lower(): v for k, v in response.getheaders()}
        if response.status != 200 or not head.get("content-type", "").startswith(
                "text/event-stream"):
            return response.status, head, response.read().decode()
        text = ""
        while text.count("\n\n") < blocks:
            line = response.readline()
            if not line:
                break
            text += line.decode()
        return response.status, head, text
    finally:
        conn.close()


def fixed_draw_seeds(monkeypatch: Any, seed: int) -> None:
    """Make every virtual draw's seed (`Commitment.new`) come from a fixed sequence started
    at ``seed``, so that a test driven through the real service plays the same game each
    run; the draws themselves run unchanged."""
    import random

    from companion.bags import Commitment, seed_digest

    seeds = random.Random(seed)

    def fixed_seed(cls: type[Commitment]) -> Commitment:
        text = f"{seeds.getrandbits(128):032x}"
        return cls(text, seed_digest(text))

    monkeypatch.setattr(Commitment, "new", classmethod(fixed_seed))
