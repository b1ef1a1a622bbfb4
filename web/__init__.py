"""The Flask web app: `create_app` builds it around one `TableService`.

No module-level app: ``create_app(config)`` makes one, binds a `TableService` (in
``app.extensions["table"]``) and registers the blueprints: ``web.api`` (JSON under
``/api``), ``web.events`` (server-sent events) and ``web.pages`` (the HTML pages) when that
module exists and exposes ``bp``.
"""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from companion.store import EventStore, StorageFull, StorageUnavailable, storage_error
from companion.table import TableService
from companion.village.data import BoardDataError

__all__ = ["DEFAULTS", "create_app", "table_service"]

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "DB_PATH": None,  # None: a fresh database in a temporary directory
    "TABLE_TOKEN": None,  # None: generated (see TableService.table_token)
    "DEMO": False,  # True: a simulated game advances by itself (companion.table.demo)
    "BOXCHECK_PATH": None,  # the owner's box-check answers (None: companion.boxcheck default)
    "DEMO_INTERVAL": 1.8,  # seconds between two demo actions (a pace people can follow)
    "PUBLIC_URL": None,  # the address phones use for links (None: the host's LAN address)
    "SSE_KEEPALIVE": 15.0,  # seconds between keep-alive comments on /api/events
    "MAX_CONTENT_LENGTH": 4 * 1024 * 1024,
    "JSON_SORT_KEYS": False,
}


def create_app(config: dict[str, Any] | Any | None = None) -> Flask:
    """Build the app: `DEFAULTS` overlaid with ``config``, or around a started
    `companion.runtime.Runtime` (its config, store and service; sensing under
    ``/api/sensing``).

    Raises:
        companion.store.StoreError, sqlite3.DatabaseError: the database cannot be opened.
    A box-check answers file that cannot be used (wholly or in part) is no error: the
    shipped values stand in and ``BOX_OVERLAY_PROBLEMS`` says why.
    """
    from companion.runtime import Runtime

    runtime = config if isinstance(config, Runtime) else None
    if runtime is not None:
        config = {**runtime.config, "DEMO": False}  # the runtime runs its own demo
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.json.sort_keys = False  # type: ignore[attr-defined]

    db_path = app.config["DB_PATH"]
    if db_path is None:
        db_path = Path(tempfile.mkdtemp(prefix="village-companion-")) / "games.sqlite3"
        app.config["DB_PATH"] = db_path
    from companion import boxcheck

    app.config["BOXCHECK_PATH"] = boxcheck.overlay_path(app.config["BOXCHECK_PATH"])
    overlay, problems = boxcheck.load_overlay_lenient(app.config["BOXCHECK_PATH"])
    for problem in problems:
        log.warning("box check: %s", problem)
    app.config["BOX_OVERLAY"] = overlay
    try:
        boxes = boxcheck.load_boxes(boxcheck.boxes_path(app.config["BOXCHECK_PATH"]))
    except BoardDataError as exc:  # an unreadable answer: every box, as if never answered
        problems = [*problems, str(exc)]
        boxes = None
    app.config["BOXES_OWNED"] = None if boxes is None else list(boxes)
    app.config["BOX_OVERLAY_PROBLEMS"] = problems
    if runtime is not None:
        service = runtime.service
        app.extensions["runtime"] = runtime
        app.extensions["sensors"] = runtime.running  # the runtime's adapters, on /tags
        app.extensions["tags"] = runtime.registry
        camera = runtime.camera()
        if camera is not None:  # the calibration page shows its frames
            app.extensions["camera"] = camera
    else:
        service = TableService(EventStore(db_path), app.config["TABLE_TOKEN"])
    app.config["TABLE_TOKEN"] = service.table_token
    app.extensions["table"] = service

    from web import api, events, sensing

    app.register_blueprint(api.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(sensing.bp)
    from web import tags  # the tag registry, enrolment page and reader health (docs/tags.md)

    tags.init_app(app, db_path)
    from web import zones  # which reader is which zone: /readers and /api/zones

    app.register_blueprint(zones.bp)
    from web import pages  # the tablet's and the phones' pages

    app.register_blueprint(pages.bp)
    from web import camera  # the camera calibration page (OpenCV loads only when used)

    app.register_blueprint(camera.bp)

    _register_error_handlers(app)

    if app.config["DEMO"]:
        from companion.table.demo import DemoTable

        demo = DemoTable(service, interval=float(app.config["DEMO_INTERVAL"]))
        app.extensions["table_demo"] = demo
        demo.start()
    return app


def table_service(app: Flask) -> TableService:
    """The `TableService` an app made by `create_app` holds."""
    service: TableService = app.extensions["table"]
    return service


def _register_error_handlers(app: Flask) -> None:
    """JSON errors under ``/api`` (404, 405, 413…); never an HTML page or a bare 500."""

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response | HTTPException:
        if not request.path.startswith("/api"):
            return exc
        response = jsonify(
            {
                "error": type(exc).__name__,
                "code": (exc.name or "error").lower().replace(" ", "_"),
                "message": exc.description,
                "rule": None,
            }
        )
        response.status_code = exc.code or 500
        return response

    @app.errorhandler(StorageUnavailable)
    def _storage(exc: StorageUnavailable) -> tuple[Response | str, int]:
        """Disk full: 507; read-only or failing: 503. Nothing accepted is lost either way."""
        log.error("storage: %s", exc)
        status = 507 if isinstance(exc, StorageFull) else 503
        if not request.path.startswith("/api"):
            return exc.summary, status
        body = {"error": type(exc).__name__, "code": exc.code, "message": exc.summary,
                "rule": None}
        response = jsonify(body)
        response.headers["Retry-After"] = "30"
        return response, status

    @app.errorhandler(sqlite3.Error)
    def _sqlite(exc: sqlite3.Error) -> tuple[Response | str, int]:
        """A SQLite failure outside the event store (the tag registry): the disk's fault
        answers as the store's would (507, 503); anything else is unexpected."""
        error = storage_error(Path(app.config["DB_PATH"]), exc)
        if isinstance(error, StorageUnavailable):
            return _storage(error)
        return _unexpected(exc)

    @app.errorhandler(RecursionError)
    def _too_deep(exc: RecursionError) -> tuple[Response | str, int]:
        """A body nested deeper than any answer needs (it fails while parsing, before any
        change): 400."""
        if not request.path.startswith("/api"):
            return "the request nests too deeply", 400
        body = {"error": "ApiError", "code": "too_deep",
                "message": "the request's JSON nests too deeply", "rule": None}
        return jsonify(body), 400

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception) -> tuple[Response | str, int]:
        log.exception("unexpected error on %s %s", request.method, request.path)
        if not request.path.startswith("/api"):
            return "internal error (see the server log)", 500
        body = {"error": "InternalError", "code": "internal", "message": str(exc), "rule": None}
        return jsonify(body), 500
