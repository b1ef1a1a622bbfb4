"""A table's finished games in the play-log apps' formats, and its history page.

``GET /api/playlog?game=<id>&format=bgsplay|bgg.xml|bgg.form`` (default the current game and
``bgsplay``): the play of a finished game as a BG Stats play file, BGG's play XML, or the
fields of BGG's play form (JSON) — open to anyone: once a game is over nothing of it is
hidden any more (409 while it runs). ``GET /api/history``: per-player figures over every
finished game; ``/history``: the same as a page, with each game's files.
"""

from __future__ import annotations

import json

from flask import Blueprint, Response, jsonify, render_template, request

from companion.table.playlog import bgg_form, bgg_xml, bgsplay, statistics
from web.access import service
from web.errors import ApiError
from web.inputs import int_arg

__all__ = ["bp"]

bp = Blueprint("playlogs", __name__)

FORMATS = ("bgsplay", "bgg.xml", "bgg.form")


@bp.get("/api/playlog")
def playlog() -> Response:
    fmt = request.args.get("format", "bgsplay")
    if fmt not in FORMATS:
        raise ApiError(400, "bad_parameter", f"format: one of {', '.join(FORMATS)}")
    log = service().play_log(int_arg("game"))
    gid = log.key.rsplit("/", 1)[-1]
    if fmt == "bgsplay":
        return Response(json.dumps(bgsplay(log), indent=1), mimetype="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="village-game-{gid}.bgsplay"'})
    if fmt == "bgg.xml":
        return Response(bgg_xml(log), mimetype="application/xml", headers={
            "Content-Disposition": f'attachment; filename="village-game-{gid}.bgg.xml"'})
    return jsonify(bgg_form(log))


@bp.get("/api/history")
def history_json() -> Response:
    logs = service().play_logs()
    return jsonify(players=statistics(logs), games=[
        {"game_id": int(g.key.rsplit("/", 1)[-1]), "started": g.started.isoformat(),
         "minutes": g.minutes, "modules": list(g.modules),
         "seats": [s.__dict__ for s in g.seats]} for g in logs])


@bp.get("/history")
def history_page() -> str:
    logs = service().play_logs()
    return render_template("history.html", title="History", logs=logs,
                           players=statistics(logs), script=None, facts={},
                           public_url="")
