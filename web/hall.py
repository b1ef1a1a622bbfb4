"""The hall's pages and JSON, served by ``companion hall`` (`create_hall_app`; the live feed
is `web.hall_live` in front of it, as `web.asgi` is for a table).

Read-only for everyone: the grid of every table's live scoreboard (``/``), the history of
finished games (``/history``), each game's public record (``/games/<table>/<id>.jsonl``)
and, once over, its play logs (``.bgsplay`` for BG Stats, ``.bgg.xml``);
the organiser's token (``Authorization: Bearer``, ``?token=`` on a page link, or a form's
``token``) is needed for every write (tournaments: `web.hall_tournament`). Each request
thread keeps one connection to PostgreSQL (`HallDb`), reopened when it broke.
"""

from __future__ import annotations

import json

from flask import Blueprint, Flask, Response, abort, jsonify, render_template

from companion.hall import reads
from companion.table.playlog import bgg_xml, bgsplay
from web.hall_access import HallDb, db

__all__ = ["bp", "create_hall_app"]

bp = Blueprint("hall", __name__)


def create_hall_app(dsn: str, token: str | None = None) -> Flask:
    """The hall's Flask app on the PostgreSQL database ``dsn``; ``token``: the organiser's
    (None: nobody may write)."""
    from web import hall_tournament

    app = Flask(__name__)
    app.json.sort_keys = False  # type: ignore[attr-defined]
    app.extensions["hall_db"] = HallDb(dsn)
    app.extensions["hall_token"] = token
    app.register_blueprint(bp)
    app.register_blueprint(hall_tournament.bp)
    return app


# -- pages -------------------------------------------------------------------------------

@bp.get("/")
def grid() -> str:
    return render_template("hall_grid.html", title="Hall", script="hall.js")


@bp.get("/history")
def history() -> str:
    return render_template("hall_history.html", title="History", script=None,
                           games=reads.finished_games(db()))


# -- JSON --------------------------------------------------------------------------------

@bp.get("/api/tables")
def tables() -> Response:
    return jsonify(tables=reads.cards(db()))


@bp.get("/api/tables/<name>")
def table(name: str) -> Response:
    found = reads.table_card(db(), name)
    if found is None:
        abort(404, description=f"the hall has no table {name!r}")
    return jsonify(found)


@bp.get("/api/history")
def history_json() -> Response:
    games = reads.finished_games(db())
    for g in games:
        g.pop("state", None)
    return jsonify(games=games)


@bp.get("/games/<name>/<int:game_id>.jsonl")
def record(name: str, game_id: int) -> Response:
    lines = reads.game_record(db(), name, game_id)
    if lines is None:
        abort(404, description=f"the hall has no game {game_id} of table {name!r}")
    return Response(lines, mimetype="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="{name}-game-{game_id}.jsonl"'})


@bp.get("/games/<name>/<int:game_id>.bgsplay")
def bgsplay_file(name: str, game_id: int) -> Response:
    log = reads.play_log_of(db(), name, game_id)
    if log is None:
        abort(404, description=f"the hall has no finished game {game_id} of table {name!r}")
    return Response(json.dumps(bgsplay(log), indent=1), mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="{name}-game-{game_id}.bgsplay"'})


@bp.get("/games/<name>/<int:game_id>.bgg.xml")
def bgg_file(name: str, game_id: int) -> Response:
    log = reads.play_log_of(db(), name, game_id)
    if log is None:
        abort(404, description=f"the hall has no finished game {game_id} of table {name!r}")
    return Response(bgg_xml(log), mimetype="application/xml", headers={
        "Content-Disposition": f'attachment; filename="{name}-game-{game_id}.bgg.xml"'})
