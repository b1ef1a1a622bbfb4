"""What the sensors make of the table, for the pages (``/api/sensing``).

- The messages themselves come on the live feed, ``GET /api/events`` (`web.asgi`), as
  named events without id: ``event:`` one of ``proposal`` ("here is what I
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

A runtime without sensors has no such messages: ``open`` is empty, and a prompt or
discrepancy named is 404 ``not_open``.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from companion.reconcile.reconciler import Refused, UnknownOpen
from web.access import require_table_token, runtime, service
from web.errors import ApiError
from web.inputs import json_object

__all__ = ["bp"]

bp = Blueprint("sensing", __name__, url_prefix="/api/sensing")


@bp.get("/open")
def get_open() -> Response:
    messages = runtime().sensing.open_messages()
    return jsonify({"messages": [{"event": n, "data": d} for n, d in messages]})


@bp.get("/evidence")
def get_evidence() -> Response:
    rt = runtime()
    game = service().current_game_id
    return jsonify({"game_id": game, "evidence": rt.evidence(game) if game else []})


@bp.post("/prompts/<int:prompt_id>")
def post_prompt(prompt_id: int) -> Response:
    require_table_token()
    rt = runtime()
    choice = json_object().get("choice")
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
    require_table_token()
    rt = runtime()
    body = json_object()
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
    require_table_token()
    rt = runtime()
    body = json_object()
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
