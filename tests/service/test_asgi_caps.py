"""`web.asgi` on its own (no sockets): the per-address cap on requests in progress, the
table token's own pool, and the stream caps, driven through the ASGI interface."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from appkit import make_app
from servicekit import TOKEN

from web import runtime_of
from web.asgi import make_asgi


def _request(app: Any, path: str, client: str, token: str | None = None) -> dict[str, Any]:
    """Run one GET through the ASGI app; return its status, headers and body."""
    return asyncio.run(_arequest(app, path, client, token))


async def _arequest(app: Any, path: str, client: str,
                    token: str | None = None) -> dict[str, Any]:
    """One GET through the ASGI app on the running loop: status, headers and body."""
    headers = [(b"host", b"test")]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    path, _, query = path.partition("?")
    scope = {
        "type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
        "query_string": query.encode(), "headers": headers, "client": (client, 5000),
        "server": ("127.0.0.1", 8000), "scheme": "http", "http_version": "1.1",
        "root_path": "", "asgi": {"version": "3.0"},
    }
    out: dict[str, Any] = {"body": b""}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            out["status"] = message["status"]
            out["headers"] = {k.decode(): v.decode() for k, v in message.get("headers", [])}
        else:
            out["body"] += message.get("body", b"")

    await app(scope, receive, send)
    return out


def test_requests_in_progress_per_address_are_capped_but_not_the_table(tmp_path: Path) -> None:
    flask_app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN)
    asgi = make_asgi(flask_app)
    try:
        assert _request(asgi, "/api/games", "10.0.0.1")["status"] == 200
        asgi.in_progress["10.0.0.1"] = asgi.max_per_address  # as if 8 were still running
        busy = _request(asgi, "/api/games", "10.0.0.1")
        assert busy["status"] == 503 and busy["headers"]["retry-after"] == "5"
        assert b"busy" in busy["body"] and b"10.0.0.1" in busy["body"]
        assert _request(asgi, "/api/games", "10.0.0.2")["status"] == 200  # another address
        assert _request(asgi, "/api/games", "10.0.0.1", token=TOKEN)["status"] == 200  # the table
        assert asgi.in_progress == {"10.0.0.1": asgi.max_per_address}  # nothing leaked
    finally:
        runtime_of(flask_app).close()


def test_stream_caps_answer_503_with_retry_after(tmp_path: Path) -> None:
    flask_app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN)
    asgi = make_asgi(flask_app)
    try:
        asgi.hub.per_address["10.0.0.3"] = asgi.hub.max_per_address
        refused = _request(asgi, "/api/events", "10.0.0.3")
        assert refused["status"] == 503 and refused["headers"]["retry-after"] == "5"
        assert b"too_many_streams" in refused["body"]
        bad = _request(asgi, "/api/events?after=x", "10.0.0.4")
        assert bad["status"] == 400 and b"after must be an integer" in bad["body"]
    finally:
        runtime_of(flask_app).close()


def _page_file_while(asgi: Any, client: str, moving: float) -> tuple[int, float]:
    """GET a page file from ``client`` while its one slot is taken: for ``moving`` seconds
    the address's requests end one by one every 0.3 s (one ends, the next begins: its queue
    moves), then the slot frees; with ``moving`` 0 nothing ever ends. Its status and the
    seconds it took."""
    import time

    async def notify() -> None:
        if asgi._freed is not None:
            async with asgi._freed:
                asgi._freed.notify_all()

    async def run() -> tuple[int, float]:
        async def queue_moves() -> None:
            loop = asyncio.get_running_loop()
            end = loop.time() + moving
            while loop.time() < end:
                await asyncio.sleep(0.3)
                asgi.ended[client] = asgi.ended.get(client, 0) + 1
                await notify()
            if moving:
                asgi.in_progress.pop(client, None)
                await notify()

        mover = asyncio.ensure_future(queue_moves())
        start = time.monotonic()
        out = await _arequest(asgi, "/static/style.css", client)
        mover.cancel()
        return out["status"], time.monotonic() - start

    return asyncio.run(run())


def test_a_page_file_waits_while_its_address_queue_moves_and_not_when_stuck(tmp_path: Path) -> None:
    """Issue 18 item 8, seen again on a loaded machine: a page's scripts from a busy address
    were refused after 5 s although that address's requests were ending, and the page
    reloaded itself again and again. A file now waits while the queue moves; when none of
    the address's requests ends for ``retry_after`` seconds it is refused as before."""
    from companion.settings import FeedLimits

    flask_app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN)
    asgi = make_asgi(flask_app, FeedLimits(http_per_address=1, retry_after=1))
    try:
        asgi.in_progress["10.0.0.5"] = 1  # stuck: nothing from it ever ends
        status, took = _page_file_while(asgi, "10.0.0.5", moving=0.0)
        assert status == 503 and 0.9 <= took < 5, (status, took)
        asgi._freed = None  # made again on the next loop (one loop only when served)
        asgi.in_progress["10.0.0.6"] = 1  # slow but moving: served after 3 s (> 1 s)
        status, took = _page_file_while(asgi, "10.0.0.6", moving=3.0)
        assert status == 200 and took >= 2.9, (status, took)
    finally:
        runtime_of(flask_app).close()
