"""The live feed in process: notices, keep-alives, lagging subscribers."""

from __future__ import annotations

import json

import pytest
from flask.testing import FlaskClient
from servicekit import AUTH

from companion.table import TableService
from companion.table import feed as feed_module
from web.events import stream


def test_stream_sends_keep_alive_comments_when_idle(service: TableService, game: int) -> None:
    sub = service.subscribe()
    gen = stream(sub, keepalive=0.01)
    assert next(gen).startswith("retry: 2000\n")
    assert next(gen) == ": keep-alive\n\n"
    service.submit({"type": "virtual_draw"}, "tablet")
    text = next(gen)
    assert text.startswith("id: 1\ndata: ")
    assert json.loads(text.split("data: ", 1)[1])["draw"]["kind"] == "reveal_customers"
    gen.close()
    assert service.subscriber_count == 0


def test_events_route_streams_with_event_stream_type(client: FlaskClient, game: int) -> None:
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
    r = client.get("/api/events", query_string={"after": 0}, buffered=False)
    assert r.status_code == 200
    assert r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache"
    chunks = iter(r.response)
    assert next(chunks).startswith(b"retry:")
    first = next(chunks).decode()
    assert first.startswith("id: 1\n")
    r.close()


def test_bad_resume_parameters_are_400(client: FlaskClient, game: int) -> None:
    assert client.get("/api/events", query_string={"after": "x"}).status_code == 400
    assert client.get("/api/events", headers={"Last-Event-ID": "abc"}).status_code == 400
    assert client.get("/api/events", query_string={"game": "1.5"}).status_code == 400


def test_notice_per_change_in_order(service: TableService, game: int) -> None:
    sub = service.subscribe(after=0)
    for _ in range(5):
        service.submit(service.legal()[0], "tablet")
    service.undo()
    got = [json.loads(n.data) for n in iter(lambda: sub.get(timeout=0.01), None)]
    assert [(g["seq"], g["kind"]) for g in got] == [(i, "action") for i in range(1, 6)] + [
        (6, "revert")
    ]
    assert got[-1]["reverts"] == 5
    assert got[-1]["state"]["seq"] == 6
    sub.close()


def test_lagging_subscriber_is_cut_off(
    service: TableService, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(feed_module, "MAX_BACKLOG", 2)
    slow = service.subscribe()
    for _ in range(4):
        service.submit(service.legal()[0], "tablet")
    assert slow.get(timeout=0.01) is not None
    assert slow.get(timeout=0.01) is not None
    with pytest.raises(EOFError):
        slow.get(timeout=0.01)
    assert service.subscriber_count == 0
