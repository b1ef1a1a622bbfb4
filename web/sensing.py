"""What the sensors make of the table, for the pages (``/api/sensing``).

- The messages themselves come on the live feed, ``GET /api/events`` (`web.events`,
  `web.asgi`), as named events without id: ``event:`` one of ``proposal`` ("here is what I
  think happened"), ``prompt``, ``discrepancy``, ``waiting`` (a move seen half done, held
  for its second step), ``closed`` (a prompt, discrepancy or waiting line is gone) and
  ``health``; a page that connects first gets those still open and each device's latest
  health. (``/api/sensing/events``, a stream of its own that
  held a server thread per page, is gone.)
- ``GET /api/sensing/open``: the same open messages as JSON.
- ``POST /api/sensing/prompts/<id>`` ``{"choice": k}`` (table token): pick candidate k;
  ``"none"``: none of these, ``"nothing"``: nothing happened (the prompt closes).
- ``POST /api/sensing/proposals/undo`` ``{"start": seq, "actions": [...]}`` (table token):
  undo a proposal; the reconciler will not propose it again from there.
- ``POST /api/sensing/discrepancies/<id>`` ``{"action": {...}}`` or ``{"fix": true}``
  ("I will fix the board") (table token).
- ``GET /api/sensing/evidence?game=<id>``: the observations behind each sensor-made action.

Without a runtime (an app made from a config) there are no such messages and the answers
are 404.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, jsonify

from companion.reconcile.reconciler import Refused, UnknownOpen
from web.api import ApiError, _json_object, _require_table_token, api_error, service

__all__ = ["bp"]

bp = Blueprint("sensing", __name__, url_prefix="/api/sensing")
bp.register_error_handler(ApiError, api_error)


def _runtime() -> Any:
    return current_app.extensions.get("runtime")


def _require_runtime() -> Any:
    rt = _runtime()
    if rt is None:
        raise ApiError(404, "no_sensing", "this server runs without sensors")
    return rt


@bp.get("/open")
def get_open() -> Response:
    rt = _runtime()
    messages = rt.sensing.open_messages() if rt is not None else []
    return jsonify({"messages": [{"event": n, "data": d} for n, d in messages]})


@bp.get("/evidence")
def get_evidence() -> Response:
    rt = _require_runtime()
    game = service().current_game_id
    return jsonify({"game_id": game, "evidence": rt.evidence(game) if game else []})


@bp.post("/prompts/<int:prompt_id>")
def post_prompt(prompt_id: int) -> Response:
    _require_table_token()
    rt = _require_runtime()
    choice = _json_object().get("choice")
    if choice not in ("none", "nothing") and (
            not isinstance(choice, int) or isinstance(choice, bool)):
        raise ApiError(400, "bad_choice",
                       'choice must be the candidate\'s index, "none" or "nothing"')
    try:
        if isinstance(choice, str):
            out = rt.decline(prompt_id, nothing_happened=choice == "nothing")
        else:
            out = rt.answer(prompt_id, choice)
    except UnknownOpen as exc:
        raise ApiError(404, "not_open", str(exc)) from None
    except IndexError as exc:
        raise ApiError(400, "bad_choice", str(exc)) from None
    return jsonify({"outcomes": out})


@bp.post("/proposals/undo")
def post_undo_proposal() -> Response:
    """``{"start": seq, "actions": [...]}``: undo a proposal, never propose it again."""
    _require_table_token()
    rt = _require_runtime()
    body = _json_object()
    start, actions = body.get("start"), body.get("actions")
    if not isinstance(start, int) or not isinstance(actions, list) or not actions:
        raise ApiError(400, "bad_body", 'send {"start": seq, "actions": [...]}')
    try:
        seq = rt.undo_proposal(start, actions)
    except Refused as exc:
        raise ApiError(409, "refused", str(exc)) from None
    return jsonify({"seq": seq})


@bp.post("/discrepancies/<int:discrepancy_id>")
def post_discrepancy(discrepancy_id: int) -> Response:
    _require_table_token()
    rt = _require_runtime()
    body = _json_object()
    action = body.get("action")
    if action is None and body.get("fix") is not True:
        raise ApiError(400, "bad_body", 'send {"action": {...}} or {"fix": true}')
    if action is not None and not isinstance(action, dict):
        raise ApiError(400, "bad_body", "action must be a JSON object")
    try:
        out = rt.resolve(discrepancy_id, action)
    except UnknownOpen as exc:
        raise ApiError(404, "not_open", str(exc)) from None
    except Refused as exc:
        raise ApiError(409, "refused", str(exc)) from None
    return jsonify({"outcomes": out})
