"""Server-sent events: ``GET /api/events``, the live feed of the current game.

Each stored event is ``id: <seq>`` and ``data: <JSON>`` (see ``docs/api.md``): the stored
event (``game_id, seq, kind, type, source, time, action, reverts, draw, narration``),
``state``, the public view after it, and ``legal``, what ``/api/legal`` answers then (both
None for the older events of a catch-up, all but the last). A client resumes with the
``Last-Event-ID`` header (browsers send it on reconnect) or ``?after=<seq>``; ``?game=<id>``
names the game it shows: if another game is current, a ``new_game`` event comes first.

With sensors (an app made from a `companion.runtime.Runtime`), the sensing messages come on
the same stream as named events without id (``event: proposal``, ``prompt``,
``discrepancy``, ``waiting``, ``closed``, ``health``); a client that connects first gets
those still open.
A comment line every ``SSE_KEEPALIVE`` seconds keeps the connection open.

Served like this, under a WSGI server (tests, the Flask test client), each open stream holds
one thread. ``companion serve`` answers ``/api/events`` on its event loop instead
(`web.asgi`), with the same format, and no thread per stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from flask import Blueprint, Response, current_app, request

from companion.table import Subscription
from web.api import ApiError, api_error, service

if TYPE_CHECKING:
    from companion.runtime import SensingFeed

__all__ = ["bp", "stream"]

bp = Blueprint("events", __name__, url_prefix="/api")
bp.register_error_handler(ApiError, api_error)


def _optional_int(text: str | None, name: str) -> int | None:
    if text is None or not text.strip():
        return None
    try:
        value = int(text.strip())
    except ValueError:
        message = f"{name} must be an integer, not {text[:40]!r}"
        raise ApiError(400, "bad_parameter", message) from None
    if not -(2**63) <= value < 2**63:
        raise ApiError(400, "bad_parameter", f"{name} is out of range")
    return value


@bp.get("/events")
def get_events() -> Response:
    """The live feed as ``text/event-stream``."""
    after = _optional_int(request.args.get("after"), "after")
    if after is None:
        after = _optional_int(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    game_id = _optional_int(request.args.get("game"), "game")
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    subscription = service().subscribe(after=after, game_id=game_id)
    runtime = current_app.extensions.get("runtime")
    sensing = runtime.sensing if runtime is not None else None
    if sensing is not None:
        for notice in sensing.listen(subscription.offer):
            subscription.offer(notice)
    return Response(
        stream(subscription, keepalive, sensing),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def stream(
    subscription: Subscription, keepalive: float, sensing: SensingFeed | None = None
) -> Iterator[str]:
    """The SSE text of ``subscription``'s notices, with keep-alive comments; closes the
    subscription (and stops listening to ``sensing``) when the client goes (the generator
    is closed) or is cut off."""
    try:
        yield "retry: 2000\n: connected\n\n"
        while True:
            try:
                notice = subscription.get(timeout=keepalive)
            except EOFError:
                return
            if notice is None:
                yield ": keep-alive\n\n"
            else:
                yield notice.sse()
    finally:
        if sensing is not None:
            sensing.unlisten(subscription.offer)
        subscription.close()
