"""The live feed in process: notices, keep-alives, lagging subscribers."""

from __future__ import annotations

import json

import pytest
from appkit import Served, read_stream
from flask import Flask
from flask.testing import FlaskClient
from servicekit import AUTH

from companion.settings import FeedLimits
from companion.table import TableService
from companion.table import feed as feed_module


def test_stream_sends_heartbeats_when_idle(app: Flask, service: TableService,
                                           game: int) -> None:
    served = Served(app, limits=FeedLimits(heartbeat=0.05))
    try:
        status, _, text = read_stream(served.url, "/api/events", 2)
        assert status == 200
        assert text.startswith("retry: 2000\n") and ": heartbeat\n\n" in text
        service.submit({"type": "virtual_draw"}, "tablet")
        _, _, text = read_stream(served.url, "/api/events?after=0", 2)
        first = text.split("\n\n")[1]
        assert first.startswith("id: 1\ndata: ")
        assert json.loads(first.split("data: ", 1)[1])["draw"]["kind"] == "reveal_customers"
    finally:
        served.close()


def test_events_route_streams_with_event_stream_type(app: Flask, client: FlaskClient,
                                                      game: int) -> None:
    client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
    served = Served(app)
    try:
        status, head, text = read_stream(served.url, "/api/events?after=0", 2)
    finally:
        served.close()
    assert status == 200
    assert head["content-type"].startswith("text/event-stream")
    assert head["cache-control"] == "no-cache"
    assert text.startswith("retry:")
    assert text.split("\n\n")[1].startswith("id: 1\n")


def test_bad_resume_parameters_are_400(app: Flask, game: int) -> None:
    served = Served(app)
    try:
        for path, headers in (("/api/events?after=x", {}), ("/api/events", {"Last-Event-ID": "abc"}),
                              ("/api/events?game=1.5", {})):
            assert read_stream(served.url, path, 1, headers)[0] == 400, path
    finally:
        served.close()


def test_the_flask_app_alone_has_no_live_feed(client: FlaskClient) -> None:
    """One live-feed server: `web.asgi` (the Flask app answers 404)."""
    assert client.get("/api/events").status_code == 404


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
