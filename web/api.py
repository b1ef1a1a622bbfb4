"""The JSON API under ``/api`` (documented in ``docs/api.md``).

Reading needs no token; every change needs ``Authorization: Bearer <table token>``; a
player's private view needs that player's token. Errors are JSON
``{"error", "code", "message", "rule"}`` with a 4xx status; the state is untouched by any.
"""

from __future__ import annotations

from typing import Any, NoReturn

from flask import Blueprint, Response, jsonify, request

import companion.village as v
from companion import boxcheck, games
from companion.games.capabilities import KeepsSeenCards, PhoneSteps, card_types
from companion.games.cards import ANSWER, CardValueError
from companion.games.errors import ReplayError, SetupError
from companion.store import NothingToUndo, RecordError, StorageUnavailable
from companion.table import (
    DRAW_KEY,
    NoGame,
    TableService,
)
from companion.village.data import BoardDataError
from web.access import bearer_token, require_table_token, runtime, service
from web.errors import ApiError
from web.inputs import int_arg, json_object, no_body, only

__all__ = ["bp", "latest_chance"]

bp = Blueprint("api", __name__, url_prefix="/api")

PUBLIC_VIEWERS = frozenset({"table", "observer"})


def _fail(status: int, code: str, message: str) -> NoReturn:
    raise ApiError(status, code, message)


NEW_GAME_FIELDS = frozenset(
    {"players", "first_player", "label", "house_rules", "modules", "goal_claims", "game",
     "options"}
)
"""What ``POST /api/games`` takes."""
OTHER_GAME_FIELDS = frozenset({"players", "first_player", "label", "game", "options"})
"""What ``POST /api/games`` takes for a game other than the default one."""
BOXCHECK_FIELDS = frozenset({"key", "value", "confirm", "boxes"})
"""What ``POST /api/boxcheck`` takes."""
VIRTUAL_DRAW_FIELDS = frozenset({"type", "draw", "commitment"})
"""What a ``{"type": "virtual_draw"}`` action takes (the seed and outcome are the server's)."""
REPORT_FIELDS = frozenset({"player", "action"})
"""What ``POST /api/report`` takes."""
ANSWER_FIELDS = frozenset({"player", "answer"})
"""What ``POST /api/answer`` takes."""


# -- reading -----------------------------------------------------------------------------


@bp.get("/state")
def get_state() -> Response:
    """The current game: the public view, or with ``viewer=<colour>`` and that player's token
    (``token=`` or Bearer) the private view."""
    viewer = request.args.get("viewer", "table")
    if viewer in PUBLIC_VIEWERS:
        return jsonify(service().public_view())
    svc = service()
    if svc.current_game_id is None:
        raise NoGame("no game yet")
    players = svc.header().get("players", [])
    if viewer not in players:
        _fail(400, "bad_viewer", f"viewer must be 'table' or one of {players}, not {viewer!r}")
    token = request.args.get("token") or bearer_token()
    if not svc.is_player_token(viewer, token):
        _fail(401, "unauthorized", f"the private view of {viewer} needs {viewer}'s token")
    return jsonify(svc.private_view(viewer))


@bp.get("/legal")
def get_legal() -> Response:
    """The pending decision and its legal actions (or the virtual draw on offer), with
    ``choices``: for each action, the steps a person picks it by and its cost in words."""
    return jsonify(service().legal_view())


@bp.get("/games")
def get_games() -> Response:
    """Every stored game, oldest first."""
    return jsonify({"current": service().current_game_id, "games": service().games()})


@bp.get("/export")
def get_export() -> Response:
    """The game record (JSON Lines) of ``game=<id>`` or of the current game; with
    ``evidence=1`` each sensor-made action keeps the observations that led to it
    (``_observed``). It tells who served which customer (face down at the table), so it
    needs the table token."""
    require_table_token()
    game_id = int_arg("game")
    with_evidence = request.args.get("evidence") in ("1", "true", "yes")
    text = service().export_record(game_id, evidence=with_evidence)
    name = f"village-game-{game_id or service().current_game_id}.jsonl"
    return Response(
        text,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


CHANCE_TYPES = ("reveal_customers", "fill_bag", "mass_draw")


def latest_chance(svc: TableService, game_id: int | None) -> dict[str, Any]:
    """For each kind of chance action, the latest one in effect (not undone) of a game:
    ``{"fill_bag": {"seq": 12, "source": "tablet", "virtual": false}, …}`` (kinds not yet
    drawn are absent). ``virtual`` tells a server draw (listed with its seed) from a hand
    draw, so a page can say which the round's placement came from."""
    try:
        events = svc.events(game_id)
    except LookupError as exc:
        raise NoGame(f"no game {game_id}") from exc
    reverted = {int(e.payload.get("reverts", -1)) for e in events if e.kind == "revert"}
    latest: dict[str, Any] = {}
    for e in events:
        kind = e.payload.get("type")
        if e.kind == "action" and e.seq not in reverted and kind in CHANCE_TYPES:
            latest[str(kind)] = {
                "seq": e.seq,
                "source": e.source,
                "virtual": isinstance(e.payload.get(DRAW_KEY), dict),
            }
    return latest


@bp.get("/draws")
def get_draws() -> Response:
    """The virtual draws of ``game=<id>`` or of the current game, seeds revealed, and the
    latest chance action in effect of each kind (virtual or by hand)."""
    game_id = int_arg("game")
    svc = service()
    return jsonify({"draws": svc.draws(game_id), "latest": latest_chance(svc, game_id)})


@bp.get("/log")
def get_log() -> Response:
    """The table log: the public narration of each event of the current game,
    ``{"game_id", "entries": [{"seq", "kind", "narration": [sentences], "undone"}], "undo"}``
    (``undo``: what an undo would take back, in words); ``after=<seq>`` and ``limit=<n>``
    (the latest n) narrow it."""
    svc = service()
    limit = int_arg("limit")
    entries = svc.log(after=int_arg("after") or 0, limit=limit if limit and limit > 0 else None)
    return jsonify({"game_id": svc.current_game_id, "entries": entries, "undo": svc.next_undo()})


# -- changing ----------------------------------------------------------------------------


@bp.post("/actions")
def post_action() -> Response:
    """Apply one record action (or ``{"type": "virtual_draw"}``); answers its seq."""
    require_table_token()
    action = json_object()
    if DRAW_KEY in action:
        _fail(400, "malformed", f"{DRAW_KEY!r} is written by the server only, never sent")
    if action.get("type") == "virtual_draw":
        only(action, VIRTUAL_DRAW_FIELDS, "a virtual draw")
    expected = int_arg("expected_seq")
    svc = service()
    before = _state_if_keeping()
    seq = svc.submit(action, "tablet", expected_seq=expected)
    return jsonify({"game_id": svc.current_game_id, "seq": seq, **_keep_card(action, before)})


@bp.post("/anytime")
def post_anytime() -> Response:
    """A player's own action allowed at any moment (claim a life goal, cash a treasure),
    with that player's token (``?token=`` or Bearer) instead of the table's; answers its
    seq. Any other action needs the table token (``POST /api/actions``)."""
    action = json_object()
    svc = service()
    viewer = action.get("player")
    token = request.args.get("token") or bearer_token()
    if not isinstance(viewer, str) or not svc.is_player_token(viewer, token):
        _fail(401, "unauthorized", "an action of your own needs your player token")
    if not svc.game().is_anytime(action):
        _fail(400, "not_anytime", "only an action allowed at any moment can be sent this way")
    before = _state_if_keeping()
    seq = svc.submit(action, "tablet")
    return jsonify({"game_id": svc.current_game_id, "seq": seq, **_keep_card(action, before)})


def _state_if_keeping() -> Any:
    """The state before an action, for a game that says which cards the box keeps after
    each (`_keep_card`); None for the others or without a game."""
    svc = service()
    if svc.current_game_id is None or not isinstance(svc.game(), KeepsSeenCards):
        return None
    return svc.state()


def _keep_card(action: dict[str, Any], before: Any = None) -> dict[str, Any]:
    """An answer to a card's form (applied, so valid) is kept in the box's learned cards
    (`companion.games.cardstore`) for the next games: ``{"card_saved": bool}``. A game
    with ``kept_cards`` says which learned cards the table has seen after the action (a
    secret card's form, a mentor's or a hand card's, is kept once the card is seen):
    those are kept, and ``card_saved`` says whether the answer's card was among them."""
    game = service().game()
    types = card_types(game)
    if before is not None and isinstance(game, KeepsSeenCards):
        saved: set[tuple[str, str]] = set()
        try:
            for kind, card, values in game.kept_cards(before, service().state()):
                runtime().cards.save(types[kind], card, values)
                saved.add((kind, card))
        except StorageUnavailable:
            return {"card_saved": False} if action.get("type") == ANSWER else {}
        if action.get("type") != ANSWER:
            return {}
        return {"card_saved": (action.get("card_type"), action.get("card")) in saved}
    if action.get("type") != ANSWER:
        return {}
    form = types.get(str(action.get("card_type")))
    if form is None:
        return {"card_saved": False}
    try:
        runtime().cards.save(form, action["card"], action["values"])
    except StorageUnavailable:
        return {"card_saved": False}
    return {"card_saved": True}


@bp.post("/report")
def post_report() -> Response:
    """A player's own share of a draw made by hand, reported from their private page with
    their token (``?token=`` or Bearer): ``{"player": colour, "action": record action}``,
    the action one of the view's ``reports`` (their life goal tile, the value of a treasure
    they took); answers ``{"game_id", "seq", "sealed"}``: a goal tile stays sealed until
    every player of the tier has reported (`companion.table.sealed`). 403
    ``not_your_report`` when it is not that player's share of the draw waited for now."""
    body = json_object()
    only(body, REPORT_FIELDS, "a report")
    svc = service()
    viewer = body.get("player")
    token = request.args.get("token") or bearer_token()
    if not isinstance(viewer, str) or not svc.is_player_token(viewer, token):
        _fail(401, "unauthorized", "a report of your own needs your player token")
    answer = svc.report(viewer, body.get("action"), "tablet")
    return jsonify({"game_id": svc.current_game_id, **answer})


def _own_player() -> tuple[str, PhoneSteps]:
    """The player named by ``player`` (query or body) whose token came with the request,
    and the current game. 401 without it; 400 for a game that takes nothing from phones."""
    body = json_object() if request.method == "POST" else {}
    viewer = body.get("player", request.args.get("player"))
    svc = service()
    token = request.args.get("token") or bearer_token()
    if not isinstance(viewer, str) or not svc.is_player_token(viewer, token):
        _fail(401, "unauthorized", "a player's own options need that player's token")
    game = svc.game()
    if not isinstance(game, PhoneSteps):
        _fail(400, "no_phone_actions", "this game takes no actions from a player's phone")
    return viewer, game


@bp.get("/own")
def get_own() -> Response:
    """``?player=<colour>`` with that player's token: the options only their phone offers
    now (cards of their hand named), ``{"seq", "actions", "choices", "unknown"}``
    (``unknown``: the cards of their hand whose printed values the box must learn first),
    and what the game shows that player only (Crecy: ``cards``, ``mentor``, its count
    now)."""
    viewer, game = _own_player()
    svc = service()
    seq, st = svc.seq(), svc.state()
    actions = game.own_options(st, viewer)
    choices = [game.own_choice(st, a) for a in actions]
    private = game.own_private(st, viewer)
    return jsonify({"seq": seq, "actions": actions, "choices": choices,
                    "unknown": game.own_unknown(st, viewer), **private})


@bp.post("/own")
def post_own() -> Response:
    """A player's own step sent from their phone with their token: ``{"player", "action"}``,
    the action one the game says is theirs now (`companion.crecy.phone`: a draw only they
    saw, an option naming their hand, their hand card's form). 403 ``not_yours``
    otherwise; the engine's refusals as for ``/api/actions``."""
    body = json_object()
    only(body, REPORT_FIELDS, "an action of your own")
    viewer, game = _own_player()
    action = body.get("action")
    svc = service()
    seq, st = svc.seq(), svc.state()
    if not isinstance(action, dict) or not game.owns(st, viewer, action):
        _fail(403, "not_yours", f"this is not {viewer}'s own step now: the table sends it")
    new_seq = svc.submit(action, "tablet", expected_seq=seq)
    kept = _keep_card(action, st if isinstance(game, KeepsSeenCards) else None)
    return jsonify({"game_id": svc.current_game_id, "seq": new_seq, **kept})


@bp.post("/answer")
def post_answer() -> Response:
    """A player's sealed answer to the pending secret choice (a family card, a vote):
    ``{"player": colour, "answer": value}`` with that player's token, or the table's (the
    table answering for a seat), as ``?token=`` or Bearer. Answers ``{"game_id", "seq",
    "sealed", "waiting"}``; nothing of the answer shows anywhere until the last one is in
    (`companion.table.sealed_choices`). 401 without the player's or the table's token; 403
    ``not_asked``; 422 for an answer not among the player's options."""
    body = json_object()
    only(body, ANSWER_FIELDS, "an answer")
    svc = service()
    seat = body.get("player")
    token = request.args.get("token") or bearer_token()
    if "answer" not in body:
        _fail(400, "malformed", "an answer needs the field 'answer'")
    if not isinstance(seat, str) or not (
        svc.is_player_token(seat, token) or svc.is_table_token(token)
    ):
        _fail(401, "unauthorized", "an answer needs the player's own token or the table's")
    given = svc.answer(seat, body["answer"], "tablet")
    return jsonify({"game_id": svc.current_game_id, **given})


@bp.post("/undo")
def post_undo() -> Response:
    """Revert the latest action in effect; answers the revert's seq."""
    require_table_token()
    no_body("undo")
    svc = service()
    try:
        seq = svc.undo("tablet", expected_seq=int_arg("expected_seq"))
    except NothingToUndo as exc:
        _fail(422, "nothing_to_undo", str(exc))
    return jsonify({"game_id": svc.current_game_id, "seq": seq})


@bp.post("/games")
def post_game() -> tuple[Response, int]:
    """Start a new game: ``{"players": [...], "first_player": ..., "label": ...,
    "house_rules": {name: true/false}, "modules": ["port", "life_goals"], "goal_claims":
    "manual" | "auto"}`` (house rules left out take their default; no modules: the base game)."""
    require_table_token()
    body = json_object()
    only(body, NEW_GAME_FIELDS, "a new game")
    players = body.get("players")
    first = body.get("first_player")
    label = body.get("label")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        _fail(400, "bad_players", "players must be a list of colours, in seat order")
    if first is not None and not isinstance(first, str):
        _fail(400, "bad_players", "first_player must be a colour")
    if label is not None and not isinstance(label, str):
        _fail(400, "bad_label", "label must be text")
    name = body.get("game", games.DEFAULT)
    if name == games.DEFAULT and "options" in body:
        _fail(400, "unknown_fields", "Village takes its options by name (house_rules, modules, "
              "goal_claims), not in 'options'")
    if name != games.DEFAULT:  # another game: its own rules, none of Village's options
        only(body, OTHER_GAME_FIELDS, "a new game of another game")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            _fail(400, "bad_game", "options must be a JSON object (the game's own)")
        try:
            game = games.get(name)
        except ReplayError as exc:
            _fail(400, "bad_game", str(exc))
        if card_types(game) and "cards" not in options:
            options["cards"] = runtime().cards.learned(f"{name}.")  # what this box learned
        try:
            game_id = service().new_game(players, first, label=label, game=str(name),
                                         **options)
        except SetupError as exc:
            _fail(422, "bad_board", str(exc))
        except ValueError as exc:
            _fail(400, "bad_game", str(exc))
        return jsonify({"game_id": game_id, "players": service().player_tokens()}), 201
    house = body.get("house_rules")
    try:
        v.house_rules(house)
    except ValueError as exc:
        _fail(400, "bad_house_rules", str(exc))
    modules = body.get("modules", [])
    claims = body.get("goal_claims", "manual")
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        _fail(400, "bad_modules", "modules must be a list of module names")
    try:
        v.make_header(["red", "blue"], modules=modules, goal_claims=claims)
    except ValueError as exc:
        _fail(400, "bad_modules", str(exc))
    overlay = runtime().boxes.overlay
    try:
        values = boxcheck.for_new_game(overlay, _boxes_answer(), modules)
    except BoardDataError as exc:
        _fail(422, "box_not_owned", str(exc))
    try:
        board = v.load_board(overlay or None)
    except BoardDataError as exc:
        _fail(422, "bad_board", f"the box-check answers cannot be used: {exc}")
    try:
        game_id = service().new_game(
            players,
            first,
            board=board,
            label=label,
            house_rules=house,
            modules=modules,
            module_values=values,
            goal_claims=claims,
        )
    except SetupError as exc:
        _fail(422, "bad_board", str(exc))
    except ValueError as exc:
        _fail(400, "bad_players", str(exc))
    return jsonify({"game_id": game_id, "players": service().player_tokens()}), 201


@bp.post("/games/<int:game_id>/select")
def post_select(game_id: int) -> Response:
    """Make a stored game the current one."""
    require_table_token()
    no_body("selecting a game")
    try:
        service().select_game(game_id)
    except ValueError as exc:
        _fail(422, "replay_refused", str(exc))
    return jsonify({"game_id": game_id, "seq": service().seq()})


@bp.post("/import")
def post_import() -> tuple[Response, int]:
    """Store a game record (the body, JSON Lines) as a new game and make it current."""
    require_table_token()
    try:
        text = request.get_data().decode("utf-8")
        game_id = service().import_record(text, label=request.args.get("label"))
    except UnicodeDecodeError as exc:
        _fail(400, "bad_record", f"the record is not UTF-8 text: {exc}")
    except RecordError as exc:
        _fail(400, "bad_record", str(exc))
    except ReplayError as exc:
        _fail(422, "replay_refused", str(exc))
    except RecursionError:
        _fail(400, "bad_record", "the record nests too deeply")
    return jsonify({"game_id": game_id, "seq": service().seq()}), 201


@bp.get("/tokens")
def get_tokens() -> Response:
    """The players' tokens for their private views (table token needed)."""
    require_table_token()
    svc = service()
    tokens = svc.player_tokens()
    return jsonify(
        {
            "game_id": svc.current_game_id,
            "players": {
                color: {"token": token, "query": f"viewer={color}&token={token}"}
                for color, token in tokens.items()
            },
        }
    )


def _boxes_answer() -> tuple[str, ...] | None:
    """The boxes the owner said they own (None: not answered)."""
    return runtime().boxes.boxes_answer


def _boxcheck_doc(problems: list[str]) -> dict[str, Any]:
    answer = _boxes_answer()
    overlay = runtime().boxes.overlay
    return {
        "values": boxcheck.status(overlay, boxcheck.owned(answer)),
        "boxes": {"owned": list(boxcheck.owned(answer)), "answered": answer is not None,
                  "names": boxcheck.BOXES},
        "problems": problems,
    }


CARD_FIELDS = frozenset({"card_type", "card", "values", "forget"})
"""What ``POST /api/cards`` takes."""


def _card_types() -> dict[str, Any]:
    """Every card type of the games this table knows (`companion.games.cards`)."""
    out: dict[str, Any] = {}
    for name in games.names():
        out.update(card_types(games.get(name)))
    return out


@bp.get("/cards")
def get_cards() -> Response:
    """The cards the box has learned (``learned``: ``{card_type: {card: values}}``), the
    forms of their types, and any entry of the file that could not be read."""
    store = runtime().cards
    learned = store.learned()
    svc = service()
    game: Any = svc.game() if svc.current_game_id is not None else None
    if isinstance(game, KeepsSeenCards):
        # what the current game learned and the table has seen, not kept yet (a card
        # kept the moment after the action that shows it; the box's own values win)
        for kind, cards in game.public_learned(svc.state()).items():
            for card, values in cards.items():
                learned.setdefault(kind, {}).setdefault(card, values)
    return jsonify({"learned": learned, "problems": list(store.problems),
                    "types": {k: t.to_json() for k, t in sorted(_card_types().items())}})


@bp.post("/cards")
def post_cards() -> Response:
    """Correct a learned card, ``{"card_type", "card", "values"}``, or forget it,
    ``{"card_type", "card", "forget": true}`` (it is asked again by the next game that
    needs it). A game already started keeps the values in its record. Table token."""
    require_table_token()
    body = json_object()
    only(body, CARD_FIELDS, "a learned card")
    kind = _card_types().get(str(body.get("card_type")))
    card = body.get("card")
    if kind is None or not isinstance(card, str):
        _fail(400, "bad_card", f"card_type is one of {sorted(_card_types())}, card its name")
    try:
        if body.get("forget") is True:
            if not runtime().cards.forget(kind.name, card):
                _fail(404, "unknown_card", f"{card!r} is not among the learned {kind.title}s")
        else:
            runtime().cards.save(kind, card, body.get("values"))
    except CardValueError as exc:  # a failing disk: the app's 507/503 (web/errors.py)
        _fail(400, exc.code, str(exc))
    return get_cards()


@bp.get("/boxcheck")
def get_boxcheck() -> Response:
    """Every printed value of the boxes owned (confidence, source, question, verified or
    not) and the boxes owned (``answered`` false: never said, every box is asked)."""
    return jsonify(_boxcheck_doc(runtime().boxes.problems))


@bp.post("/boxcheck")
def post_boxcheck() -> Response:
    """The owner's answer for one value: ``{"key": k, "value": v}`` corrects it,
    ``{"key": k, "confirm": true}`` confirms it as shipped; ``{"boxes": ["port",
    "life_goals"]}`` says which boxes the owner has besides Village (only their values are
    asked, only their modules offered). Saved at once; used by every game started
    afterwards. Table token needed; a malformed answer is refused (400), a value that does
    not fit, or one on a box not owned (422), saying what is expected."""
    require_table_token()
    body = json_object()
    only(body, BOXCHECK_FIELDS, "a box-check answer")
    if "boxes" in body:
        if set(body) != {"boxes"}:
            _fail(400, "bad_answer", 'give "boxes" alone')
        try:
            boxes = boxcheck.check_boxes(body["boxes"])
        except BoardDataError as exc:
            _fail(400, "bad_boxes", str(exc))
        runtime().boxes.set_boxes(boxes)
        return jsonify(_boxcheck_doc([]))
    key = body.get("key")
    if not isinstance(key, str):
        _fail(400, "bad_key", "key must be the name of a board value, e.g. time_track.length")
    overlay = dict(runtime().boxes.overlay)
    boxes = boxcheck.owned(_boxes_answer())
    rows = {r["key"]: r for r in boxcheck.status(overlay, boxes)}
    if key not in rows:
        try:  # a value on a box not owned says so
            boxcheck.refuse_unowned(key, boxes)
        except BoardDataError as exc:
            _fail(422, "box_not_owned", str(exc))
        _fail(422, "unknown_value", f"no board value is called {key!r}")
    if "confirm" in body and body["confirm"] is not True:
        _fail(400, "bad_answer", '"confirm" can only be true')
    if body.get("confirm") is True and "value" in body:
        _fail(400, "bad_answer", 'give "value" (a correction) or "confirm": true, not both')
    if body.get("confirm") is True:
        value = rows[key]["value"]
    elif "value" in body:
        value = body["value"]
    else:
        _fail(400, "bad_answer", 'give "value" (a correction) or "confirm": true')
    try:
        overlay = boxcheck.set_answer(overlay, key, value, boxes)
    except BoardDataError as exc:
        _fail(422, "bad_value", str(exc))
    runtime().boxes.set_overlay(overlay)
    return jsonify(_boxcheck_doc([]))
