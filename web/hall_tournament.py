"""The hall's tournaments and league: pages anyone may read, changes only with the
organiser's token (`web.hall_access.require_organiser`).

JSON: ``POST /api/tournaments`` ``{"name", "points"?, "tie_breaks"?}`` → ``{"id"}``;
``POST /api/tournaments/<id>/rounds`` ``{"tables": {table: {colour: person}}}`` →
``{"round"}``; ``GET /api/tournaments[/<id>]``, ``GET /api/league``. The same two changes
from the tournament pages' forms (shown when the page's link carries ``?token=``), where a
round is written one table a line: ``cafe-1: red=Alice, blue=Bob``. A refusal is 400 with
what is wrong, nothing stored.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request

from companion.hall import tournaments
from companion.hall.standings import TIE_BREAKS, league
from web.hall_access import db, organiser, require_organiser

__all__ = ["bp", "parse_round"]

bp = Blueprint("tournaments", __name__)


def parse_round(text: str) -> dict[str, dict[str, str]]:
    """``cafe-1: red=Alice, blue=Bob`` one table a line → ``{table: {colour: person}}``.
    Raises ValueError naming the line it cannot read."""
    out: dict[str, dict[str, str]] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        table, sep, rest = line.partition(":")
        seats = {}
        for part in rest.split(","):
            colour, eq, person = part.partition("=")
            if not eq:
                raise ValueError(f"line {n}: write seats as colour=name, separated by commas")
            seats[colour.strip().lower()] = person.strip()
        if not sep or not table.strip():
            raise ValueError(f"line {n}: begin with the table's name and ':'")
        out[table.strip()] = seats
    return out


def _refused(exc: ValueError) -> tuple[Response, int]:
    return jsonify(error="invalid", message=str(exc)), 400


def _plain(t: dict[str, Any]) -> dict[str, Any]:
    t = dict(t)
    t["standings"] = [asdict(s) for s in t["standings"]]
    t["games"] = [{**g, "results": [asdict(r) for r in g["results"]]} for g in t["games"]]
    return t


# -- pages -------------------------------------------------------------------------------

@bp.get("/tournaments")
def tournaments_page() -> str:
    return render_template("hall_tournaments.html", title="Tournaments",
                           tournaments=tournaments.listing(db()), organiser=organiser(),
                           token=request.args.get("token", ""), tie_breaks=TIE_BREAKS,
                           error=request.args.get("error"), script=None)


@bp.get("/tournaments/<int:tid>")
def tournament_page(tid: int) -> str:
    found = tournaments.detail(db(), tid)
    if found is None:
        abort(404, description=f"no tournament {tid}")
    return render_template("hall_tournament.html", title=found["name"], t=found,
                           organiser=organiser(), token=request.args.get("token", ""),
                           error=request.args.get("error"), script=None)


@bp.get("/league")
def league_page() -> str:
    return render_template("hall_league.html", title="League", script=None,
                           people=league(tournaments.league_results(db())),
                           tournaments=tournaments.listing(db()))


@bp.post("/tournaments")
@require_organiser
def create_from_form() -> Any:
    token = request.form.get("token", "")
    try:
        points = [int(p) for p in request.form.get("points", "3,2,1,0").split(",")]
        tid = tournaments.create(db(), request.form.get("name", ""), points)
    except ValueError as exc:
        return redirect("/tournaments?" + urlencode({"token": token, "error": str(exc)}), 303)
    return redirect(f"/tournaments/{tid}?" + urlencode({"token": token}), 303)


@bp.post("/tournaments/<int:tid>/rounds")
@require_organiser
def round_from_form(tid: int) -> Any:
    token = request.form.get("token", "")
    try:
        tournaments.add_round(db(), tid, parse_round(request.form.get("tables", "")))
    except ValueError as exc:
        return redirect(f"/tournaments/{tid}?" + urlencode({"token": token, "error": str(exc)}),
                        303)
    return redirect(f"/tournaments/{tid}?" + urlencode({"token": token}), 303)


# -- JSON --------------------------------------------------------------------------------

@bp.get("/api/tournaments")
def list_json() -> Response:
    return jsonify(tournaments=tournaments.listing(db()))


@bp.get("/api/tournaments/<int:tid>")
def detail_json(tid: int) -> Response:
    found = tournaments.detail(db(), tid)
    if found is None:
        abort(404, description=f"no tournament {tid}")
    return jsonify(_plain(found))


@bp.post("/api/tournaments")
@require_organiser
def create_json() -> Any:
    body = request.get_json(silent=True) or {}
    try:
        tid = tournaments.create(db(), body.get("name", ""), body.get("points"),
                                 body.get("tie_breaks"))
    except ValueError as exc:
        return _refused(exc)
    return jsonify(id=tid), 201


@bp.post("/api/tournaments/<int:tid>/rounds")
@require_organiser
def round_json(tid: int) -> Any:
    body = request.get_json(silent=True) or {}
    try:
        number = tournaments.add_round(db(), tid, body.get("tables"))
    except ValueError as exc:
        return _refused(exc)
    return jsonify(round=number), 201


@bp.get("/api/league")
def league_json() -> Response:
    return jsonify(people=league(tournaments.league_results(db())))
