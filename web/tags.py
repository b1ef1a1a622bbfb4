"""Tags and readers on the web: the enrolment page, the reader-health panel and their API.

    GET  /tags                  the page: readers' health, guided enrolment, every piece's tag
    GET  /api/tags              every piece, tagged or not (UIDs and retired UIDs: table token)
    POST /api/tags/enrol        {uid, piece} → the piece now has this tag (table token)
    POST /api/tags/undo         {uid, piece, replaced} → take an enrolment back (table token)
    POST /api/tags/retire       {uid} → a lost tag retired (table token)
    GET  /api/tags/export       the registry as JSON, a file to keep (table token)
    POST /api/tags/import       replace the registry with an export (table token)
    GET  /api/tags/taps         ?after=N&wait=S: taps from the readers (long poll, S ≤ 10;
                                table token)
    GET  /api/sensors           each running adapter's health and its readers

`init_app` opens the registry on the games database (``app.extensions["tags"]``) and gives
the app an empty `RunningSensors` (``app.extensions["sensors"]``) unless they were put
there already: an app built around a `companion.runtime.Runtime` shows the runtime's own
registry and adapters (``Runtime.registry``, ``Runtime.running``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from companion.sensors.registry import (
    COLOURS,
    PIECES,
    Enrolment,
    TagError,
    TagRegistry,
    TagTaken,
    normalise_uid,
    piece_label,
)
from companion.sensors.running import RunningSensors
from web.api import ApiError, api_error, service

__all__ = ["bp", "init_app", "registry", "sensors"]

bp = Blueprint("tags", __name__)
bp.register_error_handler(ApiError, api_error)

MAX_WAIT_S = 10.0


def init_app(app: Flask, db_path: str | Path) -> None:
    """Open the tag registry in ``db_path`` and register the blueprint.

    Raises sqlite3.DatabaseError if the file is not an SQLite database."""
    if "tags" not in app.extensions:
        app.extensions["tags"] = TagRegistry(db_path)
    app.extensions.setdefault("sensors", RunningSensors())
    app.register_blueprint(bp)


def registry() -> TagRegistry:
    reg: TagRegistry = current_app.extensions["tags"]
    return reg


def sensors() -> RunningSensors:
    running: RunningSensors = current_app.extensions["sensors"]
    return running


def _require_table_token() -> None:
    from web.api import bearer_token

    if not service().is_table_token(bearer_token()):
        raise ApiError(401, "unauthorized", "this needs the table token: Authorization: Bearer …")


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", "expected a JSON object")
    return body


def _tag_error(exc: TagError) -> ApiError:
    if isinstance(exc, TagTaken):
        return ApiError(409, "tag_taken", str(exc))
    return ApiError(400, "bad_tag", str(exc))


def _has_table_token() -> bool:
    from web.api import bearer_token

    return service().is_table_token(bearer_token())


def _pieces(with_uids: bool) -> dict[str, Any]:
    """Every piece and whether it has a tag; the tags' UIDs only ``with_uids`` (the table:
    a UID is what a copied tag would need)."""
    reg = registry()
    enrolled = reg.enrolled()
    return {
        "enrolled": len(enrolled),
        "total": len(PIECES),
        "colours": list(COLOURS),
        "pieces": [
            {"piece": p, "colour": p.partition("-")[0], "label": piece_label(p),
             "uid": enrolled.get(p) if with_uids else None, "tagged": p in enrolled}
            for p in PIECES
        ],
        "retired": reg.retired() if with_uids else [],
    }


@bp.get("/tags")
def tags_page() -> str:
    """Readers' health, guided enrolment and the table of pieces."""
    from web.pages import board_facts

    return render_template("tags.html", title="Tags", script="tags.js", facts=board_facts(),
                           colours=COLOURS)


@bp.get("/api/tags")
def list_tags() -> Response:
    """Every piece, whether it is tagged, and (table token) its tag's UID."""
    return jsonify(_pieces(_has_table_token()))


@bp.post("/api/tags/enrol")
def enrol() -> tuple[Response, int]:
    """``{uid, piece}``: 201 with ``{uid, piece, label, replaced, already, enrolled}``;
    409 ``tag_taken`` when the tag is another piece's; 400 ``bad_tag``."""
    _require_table_token()
    body = _body()
    try:
        e = registry().enrol(str(body.get("uid", "")), str(body.get("piece", "")))
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({**e.to_json(), "enrolled": len(registry().enrolled())}), 201


@bp.post("/api/tags/undo")
def undo() -> Response:
    """``{uid, piece, replaced}`` as `enrol` answered: the enrolment is taken back."""
    _require_table_token()
    body = _body()
    replaced = body.get("replaced")
    try:
        e = Enrolment(normalise_uid(str(body.get("uid", ""))), str(body.get("piece", "")),
                      replaced=normalise_uid(replaced) if replaced else None)
        registry().undo(e)
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({"undone": e.to_json(), "enrolled": len(registry().enrolled())})


@bp.post("/api/tags/retire")
def retire() -> Response:
    _require_table_token()
    try:
        piece = registry().retire(str(_body().get("uid", "")))
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({"piece": piece, "enrolled": len(registry().enrolled())})


@bp.get("/api/tags/export")
def export() -> Response:
    """The registry as a file (every UID): table token needed."""
    _require_table_token()
    response = jsonify(registry().export())
    response.headers["Content-Disposition"] = 'attachment; filename="village-tags.json"'
    return response


@bp.post("/api/tags/import")
def import_() -> Response:
    _require_table_token()
    try:
        n = registry().import_(_body())
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({"enrolled": n})


@bp.get("/api/tags/taps")
def taps() -> Response:
    """Taps numbered above ``after`` (default: none yet, only ``last``), waiting up to
    ``wait`` seconds for one. Table token needed (a tap names a tag's UID)."""
    _require_table_token()
    try:
        after = int(request.args.get("after", "-1"))
        wait = min(max(float(request.args.get("wait", "0")), 0.0), MAX_WAIT_S)
    except ValueError:
        raise ApiError(400, "bad_parameter", "after is an integer, wait a number") from None
    running = sensors()
    if after < 0 or after > running.last_tap:  # first call, or the server restarted
        return jsonify({"last": running.last_tap, "taps": []})
    found = running.taps_after(after, wait)
    return jsonify({"last": found[-1]["seq"] if found else max(after, 0), "taps": found})


@bp.get("/api/sensors")
def sensor_health() -> Response:
    """``{"adapters": [{name, health, readers: [...]}]}`` (empty without adapters); the
    readers' tag UIDs only with the table token."""
    report = sensors().report()
    if not _has_table_token():
        for adapter in report:
            adapter["readers"] = without_uids(adapter["readers"])
    return jsonify({"adapters": report})


def without_uids(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reader rows as anyone may see them: whether a tag is there, not its UID."""
    return [{**r, "uid": None} if r.get("uid") else r for r in rows]
