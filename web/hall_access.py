"""Who is reading the hall: its database connection per request thread, and whether the
request bears the organiser's token (``Authorization: Bearer``, ``?token=`` on a page link,
or a form's ``token``)."""

from __future__ import annotations

import hmac
import threading
from collections.abc import Callable
from typing import Any

from flask import current_app, jsonify, request

__all__ = ["HallDb", "db", "organiser", "require_organiser"]


class HallDb:
    """One autocommit psycopg connection per thread, opened on first use and reopened when
    it broke. Raises psycopg.Error when the database cannot be reached."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._local = threading.local()

    def conn(self) -> Any:
        import psycopg

        conn = getattr(self._local, "conn", None)
        if conn is None or conn.closed or conn.broken:
            conn = psycopg.connect(self.dsn, autocommit=True)
            self._local.conn = conn
        return conn


def db() -> Any:
    """The request thread's connection to the hall's database."""
    hall_db: HallDb = current_app.extensions["hall_db"]
    return hall_db.conn()


def organiser() -> bool:
    """Whether the request bears the organiser's token."""
    token: str | None = current_app.extensions["hall_token"]
    given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip() \
        or request.args.get("token", "") \
        or (request.form.get("token", "") if request.method == "POST" else "")
    return bool(token) and hmac.compare_digest(given.encode(), str(token).encode())


def require_organiser(view: Callable[..., Any]) -> Callable[..., Any]:
    """A view only the organiser may call (403 otherwise, with what is missing)."""
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not organiser():
            return jsonify(error="forbidden",
                           message="only the organiser's token may change the hall"), 403
        return view(*args, **kwargs)
    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


