"""The Flask web app: `create_app(runtime)` builds it around a `companion.runtime.Runtime`.

No module-level app: ``create_app(runtime)`` makes one around the runtime (its settings,
table service, box-check answers, tag registry, sensors and camera; the runtime is the one
composition root) and registers the blueprints: ``web.api`` (JSON under ``/api``),
``web.sensing``, ``web.tags``, ``web.zones``, ``web.camera``, ``web.pages`` (the HTML
pages) and ``web.playlogs`` (finished games for the play-log apps, the history page),
the error answers once (`web.errors`) and the top bar of the current game (`web.topbar`).
The live feed (``/api/events``) is served by `web.asgi` on its event loop, in front of
this app.
"""

from __future__ import annotations

from flask import Flask

from companion.runtime import Runtime
from companion.table import TableService

__all__ = ["create_app", "runtime_of", "table_service"]


def create_app(runtime: Runtime) -> Flask:
    """The app around ``runtime`` (started or not: the runtime's threads are its own)."""
    from web import api, camera, errors, pages, playlogs, sensing, tags, topbar, zones

    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = runtime.settings.feed.max_body
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["runtime"] = runtime
    for blueprint in (api.bp, sensing.bp, tags.bp, zones.bp, pages.bp, camera.bp,
                      playlogs.bp):
        app.register_blueprint(blueprint)
    errors.register(app, runtime.store.path)
    topbar.register(app)
    return app


def runtime_of(app: Flask) -> Runtime:
    """The `Runtime` an app made by `create_app` is built around."""
    rt: Runtime = app.extensions["runtime"]
    return rt


def table_service(app: Flask) -> TableService:
    """The `TableService` of an app made by `create_app`."""
    return runtime_of(app).service
