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

    asyncio.run(app(scope, receive, send))
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
