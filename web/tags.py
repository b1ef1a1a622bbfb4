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

The registry and the adapters shown are the runtime's own (``Runtime.registry``,
``Runtime.running``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, render_template, request

from companion.sensors.running import RunningSensors
from companion.sensors.tag_registry import (
    COLOURS,
    PIECES,
    Enrolment,
    TagError,
    TagRegistry,
    TagTaken,
    normalise_uid,
    piece_label,
)
from web.access import has_table_token, require_table_token, runtime
from web.errors import ApiError
from web.inputs import json_object

__all__ = ["bp", "registry", "sensors", "without_uids"]

bp = Blueprint("tags", __name__)

MAX_WAIT_S = 10.0


def registry() -> TagRegistry:
    """The runtime's tag registry."""
    return runtime().registry


def sensors() -> RunningSensors:
    """The runtime's running adapters (the health panel, the taps)."""
    return runtime().running


def _tag_error(exc: TagError) -> ApiError:
    if isinstance(exc, TagTaken):
        return ApiError(409, "tag_taken", str(exc))
    return ApiError(400, "bad_tag", str(exc))


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
    return jsonify(_pieces(has_table_token()))


@bp.post("/api/tags/enrol")
def enrol() -> tuple[Response, int]:
    """``{uid, piece}``: 201 with ``{uid, piece, label, replaced, already, enrolled}``;
    409 ``tag_taken`` when the tag is another piece's; 400 ``bad_tag``."""
    require_table_token()
    body = json_object()
    try:
        e = registry().enrol(str(body.get("uid", "")), str(body.get("piece", "")))
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({**e.to_json(), "enrolled": len(registry().enrolled())}), 201


@bp.post("/api/tags/undo")
def undo() -> Response:
    """``{uid, piece, replaced}`` as `enrol` answered: the enrolment is taken back."""
    require_table_token()
    body = json_object()
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
    require_table_token()
    try:
        piece = registry().retire(str(json_object().get("uid", "")))
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({"piece": piece, "enrolled": len(registry().enrolled())})


@bp.get("/api/tags/export")
def export() -> Response:
    """The registry as a file (every UID): table token needed."""
    require_table_token()
    response = jsonify(registry().export())
    response.headers["Content-Disposition"] = 'attachment; filename="village-tags.json"'
    return response


@bp.post("/api/tags/import")
def import_() -> Response:
    require_table_token()
    try:
        n = registry().import_(json_object())
    except TagError as exc:
        raise _tag_error(exc) from None
    return jsonify({"enrolled": n})


@bp.get("/api/tags/taps")
def taps() -> Response:
    """Taps numbered above ``after`` (default: none yet, only ``last``), waiting up to
    ``wait`` seconds for one. Table token needed (a tap names a tag's UID)."""
    require_table_token()
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
    if not has_table_token():
        for adapter in report:
            adapter["readers"] = without_uids(adapter["readers"])
    return jsonify({"adapters": report})


def without_uids(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Reader rows as anyone may see them: whether a tag is there, not its UID."""
    return [{**r, "uid": None} if r.get("uid") else r for r in rows]
