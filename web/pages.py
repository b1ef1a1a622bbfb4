"""The pages players open at the table: scoreboard, new game, box check, play, green bag,
mass and each player's private view.

The pages are thin HTML shells; small JavaScript modules under ``static/`` fetch
``/api/state`` and ``/api/legal``, listen to ``/api/events`` and post actions. What the
server knows without a game (the board data in force and the box-check questions) is
prepared here, so templates only print values.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import segno
from flask import Blueprint, Response, abort, render_template, request

from companion import boxcheck, games
from companion.games.capabilities import card_types
from companion.village import HOUSE_RULES, load_board
from companion.village.box_values import items_with_overlay
from companion.village.data import DataItem
from companion.village.vocabulary import Color
from web.access import runtime
from web.boxform import form_rows
from web.game_choices import OTHER_GAMES

bp = Blueprint("pages", __name__)

QR_MAX_TEXT = 512  # characters a QR code page link may hold (a player or table link is ~80)
COLOURS: tuple[str, ...] = tuple(c.value for c in Color)
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
# The box-check values that change how a game is set up, shown on the new-game page.
SETUP_KEYS: tuple[str, ...] = (
    "setup.{n}.bag",
    "setup.{n}.spaces",
    "time_track.length",
    "council.advance_time",
    "graves.marks",
    "chronicle.sections",
)


ANSWER_COLOURS = frozenset(COLOURS) | frozenset(
    ("yellow", "blue", "green", "red", "orange", "mauve"))
"""Every game's player colours (Village's and Colonia's)."""


def _overlay() -> dict[str, Any] | None:
    """The owner's box-check answers, if the app was configured with some."""
    return runtime().boxes.overlay


def _owned() -> tuple[str, ...]:
    """The boxes the owner has besides Village (every box until they say)."""
    return runtime().boxes.owned()


def _value_text(value: Any) -> str:
    """A board value as short readable text (JSON without quotes around words)."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items())
    if isinstance(value, list) and len(value) <= 12 and all(not isinstance(v, dict) for v in value):
        return "[" + ", ".join("–" if v is None else _value_text(v) for v in value) + "]"
    if isinstance(value, list):
        return f"{len(value)} entries"
    return json.dumps(value, ensure_ascii=False).strip('"')


def box_check_rows(items: dict[str, DataItem]) -> list[dict[str, Any]]:
    """One row per board value: key, value as text, confidence, verified, source, question.

    Unverified values come first, least confident first.
    """
    order = {"unknown": 0, "low": 1, "medium": 2, "high": 3}
    rows: list[dict[str, Any]] = [
        {
            "key": i.key,
            "value": _value_text(i.value),
            "raw": json.dumps(i.value, ensure_ascii=False),
            "confidence": i.confidence,
            "verified": i.verified,
            "source": i.source,
            "question": i.question,
        }
        for i in items.values()
    ]
    rows.sort(key=lambda r: (r["verified"], order.get(r["confidence"], 0), r["key"]))
    return rows


SETUP_LABELS: dict[str, str] = {
    "setup.{n}.bag": "Cubes put in the green bag each round (setup card)",
    "setup.{n}.spaces": "Cubes drawn onto each action space (setup card)",
    "time_track.length": "Spaces on the time track, bridge to bridge",
    "council.advance_time": "Time to climb the council, by level",
    "graves.marks": "Anonymous graves in play",
    "chronicle.sections": "Chronicle spaces in play, by section",
}


def _usable(marks: list[Any], n: int) -> int:
    return sum(1 for m in marks if m is None or m <= n)


def setup_text(template: str, value: Any, n: int) -> str:
    """A setup value for an ``n``-player game, in words (no keys, lists or nulls)."""
    if template in ("setup.{n}.bag", "setup.{n}.spaces") and isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    if template == "council.advance_time" and isinstance(value, dict):
        return ", ".join(f"level {k}: {v} time" for k, v in value.items())
    if template == "graves.marks" and isinstance(value, list):
        return f"{_usable(value, n)} graves"
    if template == "chronicle.sections" and isinstance(value, dict):
        return ", ".join(f"{k} {_usable(v, n)}" for k, v in value.items() if isinstance(v, list))
    return _value_text(value)


def setup_rows(items: dict[str, DataItem]) -> dict[int, list[dict[str, Any]]]:
    """For each player count, the box-check values that shape the setup of a new game, as
    ``{"label", "value", "confidence", "verified"}`` rows in words."""
    out: dict[int, list[dict[str, Any]]] = {}
    for n in PLAYER_COUNTS:
        rows = []
        for template in SETUP_KEYS:
            item = items.get(template.format(n=n))
            if item is None:
                continue
            rows.append(
                {
                    "label": SETUP_LABELS[template],
                    "value": setup_text(template, item.value, n),
                    "confidence": item.confidence,
                    "verified": item.verified,
                }
            )
        out[n] = rows
    return out


def board_facts() -> dict[str, Any]:
    """Public box facts the scripts need: setup cards per player count, customer tiles."""
    board = load_board(_overlay())
    return {
        "setup_spaces": {
            str(n): {s.value: k for s, k in board.space_cubes[n].items()} for n in PLAYER_COUNTS
        },
        "customers": {
            c.id: {
                "goods": {g.value: k for g, k in c.goods},
                "grain": c.grain,
                "prestige": c.prestige,
            }
            for c in board.customers.values()
        },
        "city_rewards": dict(board.city_rewards),
        "customers_verified": items_with_overlay(_overlay())["customers.tiles"].verified,
    }


LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def public_base(configured: str | None, host_url: str, lan: Callable[[], str]) -> str:
    """The address phones and other tablets use for links and QR codes, without a trailing
    slash: ``configured`` (``companion serve --public-url``) if given, else the address this
    page was asked on, with a loopback host (localhost, 127.0.0.1) replaced by the host's
    LAN address ``lan()`` — a phone cannot open the server's own loopback."""
    if configured:
        return configured.rstrip("/")
    parts = urlsplit(host_url)
    host = parts.hostname or ""
    if host in LOOPBACK:
        netloc = lan() + (f":{parts.port}" if parts.port else "")
        return urlunsplit((parts.scheme, netloc, "", "", "")).rstrip("/")
    return host_url.rstrip("/")


def _lan() -> str:
    from companion.addresses import lan_address

    return lan_address("0.0.0.0")


def _page(template: str, title: str, script: str | None, **extra: Any) -> str:
    return render_template(
        template,
        title=title,
        script=script,
        facts=board_facts(),
        public_url=public_base(runtime().settings.public_url, request.host_url, _lan),
        **extra,
    )


@bp.get("/")
def scoreboard() -> str:
    """The public scoreboard for the table display."""
    return _page("scoreboard.html", "Scoreboard", "scoreboard.js")


@bp.get("/new")
def new_game() -> str:
    """Start a game: player count, colours in seat order, first player."""
    items = items_with_overlay(_overlay())
    counted = items_with_overlay(_overlay(), _owned())  # the box check's values, same count
    unverified = sum(1 for i in counted.values() if not i.verified)
    return _page(
        "new.html",
        "New game",
        "newgame.js",
        colours=COLOURS,
        counts=PLAYER_COUNTS,
        setup=setup_rows(items),
        house_rules=HOUSE_RULES,
        unverified=unverified,
        total=len(counted),
        owned=_owned(),
        other_games=OTHER_GAMES,
    )


@bp.get("/boxcheck")
def box_check() -> str:
    """Which boxes the owner has, then every printed value of those boxes, unverified
    first."""
    owned = _owned()
    rows = form_rows(items_with_overlay(_overlay(), owned))
    unverified = sum(1 for r in rows if not r["verified"])
    problems = runtime().boxes.problems
    return _page(
        "boxcheck.html",
        "Box check",
        "boxcheck.js",
        rows=rows,
        unverified=unverified,
        problems=problems,
        boxes=boxcheck.BOXES,
        owned=owned,
        boxes_answered=runtime().boxes.boxes_answer is not None,
        learned=_learned_rows(),
    )


def _learned_rows() -> list[dict[str, Any]]:
    """The cards the box learned at the table, each with its type's form filled in."""
    types: dict[str, Any] = {}
    for name in games.names():
        types.update(card_types(games.get(name)))
    rows = []
    for kind, cards in sorted(runtime().cards.learned().items()):
        t = types.get(kind)
        if t is None:
            continue
        for card, values in sorted(cards.items()):
            rows.append({"type": kind, "title": t.title, "card": card,
                         "fields": [{**f.to_json(), "value": values.get(f.name)}
                                    for f in t.fields]})
    return rows


@bp.get("/play")
def play() -> str:
    """The table's controller: the pending decision and its legal options."""
    return _page("play.html", "Play", "play.js")


@bp.get("/links")
def links() -> str:
    """Each player's private link as a QR code, re-openable at any time from the table."""
    return _page("links.html", "Players' links", "links.js")


@bp.get("/bag")
def green_bag() -> str:
    """Round start: the green bag's virtual draw (committed seed) or a hand draw."""
    return _page("bag.html", "Green bag", "bag.js")


@bp.get("/mass")
def mass() -> str:
    """Mass: black bag contents, buy-outs in turn order, then the draw."""
    return _page("mass.html", "Mass", "mass.js")


@bp.get("/me/<colour>")
def player_view(colour: str) -> str:
    """A player's private view (their link carries ``?token=``)."""
    if colour not in COLOURS:
        abort(404)
    return _page("me.html", colour.capitalize(), "me.js", colour=colour)


@bp.get("/colonia")
def colonia() -> str:
    """Colonia's table page: the week and day, what the game waits for, the board."""
    return _page("colonia.html", "Colonia", "colonia.js")


@bp.get("/crecy")
def crecy() -> str:
    """Le Testament du Duc de Crecy's play page: what the game waits for, the options in
    words with their costs, the draws (virtual or by hand), the table's forms."""
    return _page("crecy.html", "Crecy", "crecy.js", board_only=False)


@bp.get("/crecy/board")
def crecy_board() -> str:
    """Crecy's public scoreboard: the family trees by generation and the tracks."""
    return _page("crecy.html", "Crecy scoreboard", "crecy.js", board_only=True)


@bp.get("/crecy/me/<colour>")
def crecy_phone(colour: str) -> str:
    """A Crecy player's phone (their link carries ``?token=``): their hand, mentor and
    missions, and the steps only they may take."""
    if colour not in ANSWER_COLOURS:
        abort(404)
    return _page("crecy_me.html", colour.capitalize(), "crecy-me.js", colour=colour)


@bp.get("/answer/<colour>")
def answer(colour: str) -> str:
    """A player's phone for a secret simultaneous choice (any game's), with their token."""
    if colour not in ANSWER_COLOURS:
        abort(404)
    return _page("answer.html", f"{colour.capitalize()} answers", "answer.js", colour=colour)


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code in SVG (black on white, quiet zone of 4 modules, sized by a
    viewBox so the page scales it)."""
    buffer = io.BytesIO()
    segno.make(text, micro=False).save(
        buffer,
        kind="svg",
        scale=1,
        border=4,
        omitsize=True,
        xmldecl=False,
        dark="#000",
        light="#fff",
        title="QR code",
    )
    return buffer.getvalue()


@bp.get("/qr.svg")
def qr_code() -> Response:
    """``GET /qr.svg?text=<link>``: a QR code of the text (at most `QR_MAX_TEXT` characters)
    drawn here with segno, so a phone or a second tablet opens a link without typing it.
    Not cached anywhere (a link may carry a token)."""
    text = request.args.get("text", "")
    if not text:
        return Response("give the text to encode: /qr.svg?text=…\n", 400, mimetype="text/plain")
    if len(text) > QR_MAX_TEXT:
        return Response(
            f"the text is {len(text)} characters; a QR code here holds at most {QR_MAX_TEXT}\n",
            400,
            mimetype="text/plain",
        )
    response = Response(qr_svg(text), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
