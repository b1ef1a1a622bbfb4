"""Every error answer of the web layer, registered once on the app (`register`).

Under ``/api`` an error is JSON ``{"error", "code", "message", "rule"}`` with a 4xx status
(the state untouched), 507/503 with ``Retry-After`` when the disk fails, and never an HTML
page or a bare 500; a page answers a short text.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

import companion.village as v
from companion.store import StorageFull, StorageUnavailable, storage_error
from companion.table import (
    GameNotOver,
    NoDrawPending,
    NoGame,
    NotAsked,
    NotYourReport,
    StaleCommitment,
    StaleSeq,
)
from companion.table.errors import TableError

__all__ = ["ApiError", "register"]

log = logging.getLogger(__name__)

TABLE_ERROR_STATUS: dict[type[TableError], int] = {
    NoGame: 404, StaleSeq: 409, StaleCommitment: 409, NoDrawPending: 422, NotYourReport: 403,
    GameNotOver: 409, NotAsked: 403,
}
"""The HTTP status of each refusal of the table service (any other: 422)."""


class ApiError(Exception):
    """A refusal with its HTTP status, stable ``code`` and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code

    def to_json(self) -> dict[str, Any]:
        return {"error": "ApiError", "code": self.code, "message": str(self), "rule": None}


def _json(status: int, body: dict[str, Any]) -> tuple[Response, int]:
    return jsonify(body), status


def _api(exc: ApiError) -> tuple[Response, int]:
    """An `ApiError` (with ``WWW-Authenticate`` for a 401)."""
    response, status = _json(exc.status, exc.to_json())
    if status == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="village-companion"'
    return response, status


def _rules(exc: v.RulesError) -> tuple[Response, int]:
    """An illegal action: 400 if malformed, else 422 with the rule it breaks."""
    return _json(400 if isinstance(exc, v.MalformedAction) else 422, exc.to_json())


def _table(exc: TableError) -> tuple[Response, int]:
    return _json(TABLE_ERROR_STATUS.get(type(exc), 422), exc.to_json())


def _http(exc: HTTPException) -> Response | HTTPException:
    """404, 405, 413…: JSON under ``/api``, Werkzeug's own page elsewhere."""
    if not request.path.startswith("/api"):
        return exc
    response = jsonify({"error": type(exc).__name__,
                        "code": (exc.name or "error").lower().replace(" ", "_"),
                        "message": exc.description, "rule": None})
    response.status_code = exc.code or 500
    return response


def _storage(exc: StorageUnavailable) -> tuple[Response | str, int]:
    """Disk full: 507; read-only or failing: 503. Nothing accepted is lost either way."""
    log.error("storage: %s", exc)
    status = 507 if isinstance(exc, StorageFull) else 503
    if not request.path.startswith("/api"):
        return exc.summary, status
    response = jsonify({"error": type(exc).__name__, "code": exc.code, "message": exc.summary,
                        "rule": None})
    response.headers["Retry-After"] = "30"
    return response, status


def _too_deep(exc: RecursionError) -> tuple[Response | str, int]:
    """A body nested deeper than any answer needs (it fails while parsing, before any
    change): 400."""
    if not request.path.startswith("/api"):
        return "the request nests too deeply", 400
    return _json(400, {"error": "ApiError", "code": "too_deep",
                       "message": "the request's JSON nests too deeply", "rule": None})


def _unexpected(exc: Exception) -> tuple[Response | str, int]:
    log.exception("unexpected error on %s %s", request.method, request.path)
    if not request.path.startswith("/api"):
        return "internal error (see the server log)", 500
    return _json(500, {"error": "InternalError", "code": "internal", "message": str(exc),
                       "rule": None})


def register(app: Flask, db_path: Path) -> None:
    """Register every error answer on ``app`` (``db_path``: the database, to tell a disk's
    fault in the tag registry from any other SQLite error)."""

    def _sqlite(exc: sqlite3.Error) -> tuple[Response | str, int]:
        """A SQLite failure outside the event store (the tag registry): the disk's fault
        answers as the store's would (507, 503); anything else is unexpected."""
        error = storage_error(db_path, exc)
        if isinstance(error, StorageUnavailable):
            return _storage(error)
        return _unexpected(exc)

    app.register_error_handler(ApiError, _api)
    app.register_error_handler(v.RulesError, _rules)
    app.register_error_handler(TableError, _table)
    app.register_error_handler(HTTPException, _http)
    app.register_error_handler(StorageUnavailable, _storage)
    app.register_error_handler(sqlite3.Error, _sqlite)
    app.register_error_handler(RecursionError, _too_deep)
    app.register_error_handler(Exception, _unexpected)
