"""`TableService`: the one way a game's state changes.

Every change goes the same way, under one lock: the engine checks the action against the
current state (`companion.village.apply`), the store appends it (committed and fsynced),
only then is the cached state replaced and the change announced on the live feed. A caller
that got a seq back therefore knows the action survives a crash.

Virtual draws: at a chance point the service holds a `Commitment` (a random seed) whose
SHA-256 digest is published with the state before anyone can ask for the draw. Posting
``{"type": "virtual_draw"}`` draws with that seed (`companion.bags.draw_action`) and appends
the outcome with source ``"virtual_bag"``; the revealed seed and the digest are stored in the
same event, under the payload key `DRAW_KEY` (``"_draw"``), which the service strips before
the engine sees the action and from exported records.
"""

from __future__ import annotations

import bisect
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, Final

import companion.village as v
from companion import bags
from companion.store import Event, EventStore, JSONObject, format_record, parse_record
from companion.table import tokens
from companion.table.disclosure import (
    DRAW_KEY,
    OBSERVED_KEY,
    draw_entry,
    engine_action,
    public_action,
    public_draw,
    public_options,
)
from companion.table.errors import (
    NoDrawPending,
    NoGame,
    NotYourReport,
    StaleCommitment,
    StaleSeq,
)
from companion.table.feed import Feed, Notice, Subscription
from companion.table.sealed import SealedReports
from companion.village import narrate as narration
from companion.village import options
from companion.village.data import BoardDataError

__all__ = ["DRAW_KEY", "VIRTUAL_DRAW", "TableService"]

log = logging.getLogger(__name__)

VIRTUAL_DRAW: Final = "virtual_draw"
"""The ``type`` of the action that asks the server to draw."""


def _with_evidence(payload: JSONObject) -> JSONObject:
    """The stored payload minus the draw audit: the action and its ``_observed`` evidence."""
    return {k: val for k, val in payload.items() if k != DRAW_KEY}


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "…"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class _Game:
    """The current game as cached in memory: id, header, state, last seq, and the table log
    (the public narration of every event, by seq; None until first needed after a load,
    so a restart replays the game once, not twice)."""

    __slots__ = ("_log", "header", "id", "seq", "state")

    def __init__(
        self,
        game_id: int,
        header: JSONObject,
        state: v.GameState,
        seq: int,
        log: dict[int, tuple[str, list[str]]] | None = None,
    ) -> None:
        """``log``: the table log if known (None: narrated from the store when needed)."""
        self.id = game_id
        self.header = header
        self.state = state
        self.seq = seq
        self._log: dict[int, tuple[str, list[str]]] | None = log  # seq -> (kind, narration)


def _game_log(game: _Game, store: EventStore) -> dict[int, tuple[str, list[str]]]:
    """The game's table log, narrated from its stored events the first time it is needed."""
    if game._log is None:
        try:
            game._log = narrate_events(game.header, store.events(game.id))
        except v.ReplayError as exc:  # the game itself replays; only the story is lost
            log.warning("game %d: no table log: %s", game.id, exc)
            game._log = {}
    return game._log


def undone_text(before: v.GameState, action: v.Action, after: v.GameState) -> list[str]:
    """The narration of an undo: what it took back, and whose turn it is again."""
    what = narration.headline(before, action, after).rstrip(".")
    return [f"Undone: {what}.", narration.now_text(before)]


def game_text(game: _Game) -> list[str]:
    """The narration of a game becoming the current one."""
    names = [narration.colour_name(c) for c in game.header.get("players", [])]
    return [
        f"On the table: game {game.id}, {narration.join_words(names)}.",
        narration.now_text(game.state),
    ]


def narrate_events(header: JSONObject, events: list[Event]) -> dict[int, tuple[str, list[str]]]:
    """The public narration of each stored event of a game (reverted actions and reverts
    included), replaying them in order. Raises companion.village.ReplayError if the engine
    refuses one (the game could not be loaded either)."""
    st = v.start(header)
    done: list[tuple[int, v.GameState, v.Action]] = []
    out: dict[int, tuple[str, list[str]]] = {}
    for e in events:
        if e.kind == "action":
            try:
                action = v.parse_action(engine_action(e.payload))
                after = v.apply_unchecked(st, action)  # the store holds accepted actions only
            except (v.RulesError, KeyError, ValueError, AssertionError) as exc:
                raise v.ReplayError(f"event {e.seq} cannot be narrated: {exc}") from exc
            out[e.seq] = ("action", narration.narrate(st, action, after))
            done.append((e.seq, st, action))
            st = after
        elif e.kind == "revert" and done:
            _, before, action = done.pop()
            out[e.seq] = ("revert", undone_text(before, action, st))
            st = before
    return out


class TableService:
    """The table: the current game, its state in memory, tokens and the live feed.

    ``store`` is shared (the service never closes it). ``table_token`` is generated if not
    given. On start the latest game of the store becomes the current game (its effective
    actions replayed); a game the engine cannot replay is skipped with a warning.
    """

    def __init__(self, store: EventStore, table_token: str | None = None) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._feed = Feed()
        self.table_token: str = table_token or tokens.new_table_token()
        self._game: _Game | None = None
        self._commitment: bags.Commitment | None = None
        self._listeners: list[Callable[[Notice], None]] = []
        self._history_key: tuple[int, bool] | None = None
        self._history_seqs: list[int] = []
        self._history_notices: list[Notice] = []
        self._last_full: Notice | None = None
        self._sealed = SealedReports()
        self._published = 0
        self._broken: dict[int, str] = {}
        games = store.games()
        if games:
            try:
                self._game = self._load(games[-1].id)
            except Exception as exc:  # a broken record must not stop the table: say why
                self._broken[games[-1].id] = _reason(exc)
                log.warning("game %d cannot be loaded: %s", games[-1].id, _reason(exc))
            self._offer()

    # -- reading -------------------------------------------------------------------------

    @property
    def store(self) -> EventStore:
        """The event store behind the service."""
        return self._store

    @property
    def current_game_id(self) -> int | None:
        """The current game's id, None before any game exists."""
        with self._lock:
            return self._game.id if self._game else None

    def state(self) -> v.GameState:
        """The current game's state. Raises `NoGame`."""
        with self._lock:
            return self._require().state

    def seq(self) -> int:
        """The current game's last seq (0 before its first event). Raises `NoGame`."""
        with self._lock:
            return self._require().seq

    def header(self) -> JSONObject:
        """The current game's record header. Raises `NoGame`."""
        with self._lock:
            return dict(self._require().header)

    def public_view(self) -> dict[str, Any]:
        """The table's view (`companion.village.view` for ``"table"``) plus ``game_id``,
        ``seq`` and ``draw`` (the virtual draw on offer, or None). Raises `NoGame`."""
        with self._lock:
            return self._view("table")

    def private_view(self, color: str) -> dict[str, Any]:
        """The private view of ``color`` (its face-down customers, full score), with the same
        extra keys as `public_view`. Raises `NoGame`; ValueError if ``color`` does not play.
        """
        with self._lock:
            game = self._require()
            if color not in game.header.get("players", []):
                raise ValueError(f"{color!r} does not play in game {game.id}")
            return self._view(color)

    def legal(self) -> list[JSONObject]:
        """The pending decision's legal actions in record form, private pieces named (for
        in-process callers: the demo, the benchmarks; the pages get `legal_view`, in public
        form); at a chance point one offer
        ``{"type": "virtual_draw", "draw": kind, "commitment": digest}`` instead; [] once the
        game is over. Raises `NoGame`."""
        with self._lock:
            st = self._require().state
            offer = self._draw_offer()
            if offer is not None:
                return [offer]
            return [a.to_json() for a in v.legal_actions(st)]

    def choices(self) -> list[dict[str, Any]]:
        """For each entry of `legal` (same order), how a person picks it and what it costs
        (`companion.village.options.choice`); [] at a chance point. Raises `NoGame`."""
        with self._lock:
            st = self._require().state
            if self._draw_offer() is not None:
                return []
            return [options.choice(st, a) for a in v.legal_actions(st)]

    def legal_view(self) -> dict[str, Any]:
        """What ``GET /api/legal`` answers, and the ``legal`` of each live event:
        ``game_id``, ``seq``, ``pending`` (public), ``actions`` (`legal` in public form, see
        `companion.table.disclosure.public_options`) and ``choices``
        (`choices`). Public: the same for every viewer. Raises `NoGame`."""
        with self._lock:
            return self._legal_view()

    def events(self, game_id: int | None = None) -> list[Event]:
        """The stored events of ``game_id`` (default: the current game), in seq order.
        Raises `NoGame` (no game), `KeyError` (no such game)."""
        with self._lock:
            gid = self._require().id if game_id is None else game_id
            return self._store.events(gid)

    def export_record(self, game_id: int | None = None, evidence: bool = False) -> str:
        """The game record (JSON Lines) of ``game_id`` (default: the current game), without
        the draw audits, so `companion.village.replay` reads it; with ``evidence``, each
        sensor-made action keeps its ``_observed`` annotation (replay ignores annotations).
        Raises `NoGame`."""
        with self._lock:
            gid = self._require().id if game_id is None else game_id
            try:
                header = self._store.header(gid)
                actions = self._store.effective_actions(gid)
            except LookupError as exc:
                raise NoGame(f"no game {gid}") from exc
        if evidence:
            return format_record(header, [_with_evidence(a) for a in actions])
        return format_record(header, [engine_action(a) for a in actions])

    def _stored_events(self, game_id: int | None) -> tuple[int, list[Event]]:
        """The id and stored events of ``game_id`` (default: the current game). Raises
        `NoGame` (no current game, or no such game)."""
        with self._lock:
            gid = self._require().id if game_id is None else game_id
            try:
                return gid, self._store.events(gid)
            except LookupError as exc:
                raise NoGame(f"no game {gid}") from exc

    def evidence(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """The observations behind each sensor-made action of the game, undone ones
        included: ``[{"seq", "source", "observations"}, …]`` oldest first. Raises `NoGame`."""
        _gid, events = self._stored_events(game_id)
        return [
            {"seq": e.seq, "source": e.source, "observations": e.payload[OBSERVED_KEY]}
            for e in events
            if isinstance(e.payload, dict) and OBSERVED_KEY in e.payload
        ]

    def games(self) -> list[dict[str, Any]]:
        """Every stored game: ``id, created, label, players, events, current, broken`` (why
        the game could not be loaded, None if it could or was not tried)."""
        with self._lock:
            current = self._game.id if self._game else None
            return [
                {
                    "id": g.id,
                    "created": g.created,
                    "label": g.label,
                    "players": g.header.get("players"),
                    "events": g.event_count,
                    "current": g.id == current,
                    "broken": self._broken.get(g.id),
                }
                for g in self._store.games()
            ]

    def draws(self, game_id: int | None = None) -> list[dict[str, Any]]:
        """The virtual draws of a game (default: current), for checking: ``seq, kind, seed,
        digest, action`` each. Raises `NoGame`."""
        gid, events = self._stored_events(game_id)
        draws = [
            e for e in events if e.kind == "action" and isinstance(e.payload.get(DRAW_KEY), dict)
        ]
        over = bool(draws) and self._is_over(gid)
        return [draw_entry(e.seq, e.payload, over) for e in draws]

    def _is_over(self, game_id: int) -> bool:
        """Whether game ``game_id`` has ended (a stored game other than the current one is
        replayed to know; one that cannot be replayed counts as not over)."""
        with self._lock:
            if self._game is not None and self._game.id == game_id:
                return self._game.state.phase == "over"
        try:
            return self._load(game_id).state.phase == "over"
        except Exception:  # a broken record reveals nothing
            return False

    def log(self, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The table log of the current game, oldest first: ``{"seq", "kind", "narration",
        "undone"}`` per event after ``after`` (the last ``limit`` only, if given); ``kind`` is
        ``action`` or ``revert``, ``undone`` tells an action later taken back. Raises `NoGame`.
        """
        with self._lock:
            game = self._require()
            items = sorted(_game_log(game, self._store).items())
        effective: list[int] = []
        undone: set[int] = set()
        for s, (kind, _) in items:
            if kind == "action":
                effective.append(s)
            elif effective:
                undone.add(effective.pop())
        entries = [
            {"seq": s, "kind": kind, "narration": list(told), "undone": s in undone}
            for s, (kind, told) in items
            if s > after
        ]
        return entries[-limit:] if limit else entries

    def next_undo(self) -> str | None:
        """What an undo would take back now, in words (None if nothing)."""
        entries = [e for e in self.log() if e["kind"] == "action" and not e["undone"]]
        return str(entries[-1]["narration"][0]) if entries else None

    # -- tokens --------------------------------------------------------------------------

    def is_table_token(self, token: str | None) -> bool:
        """Whether ``token`` is the table token."""
        return tokens.same_token(token, self.table_token)

    def player_token(self, color: str, game_id: int | None = None) -> str:
        """The private-view token of ``color`` in a game (default: current). Raises `NoGame`."""
        gid = self._require().id if game_id is None else game_id
        return tokens.player_token(self.table_token, gid, color)

    def is_player_token(self, color: str, token: str | None) -> bool:
        """Whether ``token`` is ``color``'s token in the current game (False if no game, or
        if ``color`` does not play in it)."""
        with self._lock:
            if self._game is None or color not in self._game.header.get("players", []):
                return False
            return tokens.same_token(token, self.player_token(color, self._game.id))

    def is_any_player_token(self, token: str | None) -> bool:
        """Whether ``token`` is the token of some player of the current game."""
        if not token:
            return False
        with self._lock:
            if self._game is None:
                return False
            players = self._game.header.get("players", [])
        return any(self.is_player_token(c, token) for c in players if isinstance(c, str))

    def player_tokens(self) -> dict[str, str]:
        """Every player's token in the current game, by colour. Raises `NoGame`."""
        with self._lock:
            game = self._require()
            return {c: self.player_token(c, game.id) for c in game.header.get("players", [])}

    # -- changing ------------------------------------------------------------------------

    def new_game(
        self,
        players: list[str],
        first_player: str | None = None,
        board: v.BoardData | None = None,
        label: str | None = None,
        house_rules: dict[str, Any] | None = None,
        modules: list[str] | None = None,
        goal_claims: str = "manual",
        module_values: dict[str, Any] | None = None,
    ) -> int:
        """Start a new game and make it the current one; return its id.

        ``board``: the board values in force (default: the shipped ones); they are written
        into the header so the record replays the same anywhere. ``house_rules``: the
        game's house rules (`companion.village.house`), stored in the header whole.
        ``modules``: rule modules switched on (``port``, ``life_goals``), their shipped
        values (``module_values``, default: shipped) written into the header;
        ``goal_claims``: ``manual`` or ``auto``.

        Raises:
            ValueError: bad players or first player (unknown colour, wrong count, repeats),
            an unknown house rule or one that is not true/false, an unknown module.
            companion.village.data.BoardDataError: the engine cannot start with ``board``
            (nothing is stored).
        """
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("players must be a list of colour names")
        if first_player is not None and first_player not in players:
            raise ValueError(f"first player {first_player!r} is not among {players!r}")
        header = v.make_header(
            players,
            first_player,
            board,
            house_rules=house_rules,
            modules=modules or (),
            module_values=module_values,
            goal_claims=goal_claims,
        )
        try:
            state = v.start(header)
            v.view(state, "table")  # everything the table asks first must work: or refuse
            v.legal_actions(state)
        except v.ReplayError as exc:
            raise ValueError(str(exc)) from exc
        except Exception as exc:  # values the engine cannot play with: nothing is stored
            raise BoardDataError(
                f"no game can start with these board values: {_reason(exc)}"
            ) from exc
        with self._lock:
            game_id = self._store.create_game(header, label)
            self._game = _Game(game_id, header, state, 0, {})
            self._after_change()
            self._announce_game()
            return game_id

    def select_game(self, game_id: int) -> None:
        """Make a stored game the current one (replaying it).

        Raises:
            NoGame: no such game. ValueError: the engine cannot replay it.
        """
        with self._lock:
            if all(g.id != game_id for g in self._store.games()):
                raise NoGame(f"no game {game_id}")
            try:
                game = self._load(game_id)
            except Exception as exc:  # the record or its board values are broken
                self._broken[game_id] = _reason(exc)
                raise ValueError(f"game {game_id} cannot be loaded: {_reason(exc)}") from exc
            self._broken.pop(game_id, None)
            self._game = game
            self._after_change()
            self._announce_game()

    def import_record(self, text: str, label: str | None = None) -> int:
        """Store a game record as a new game and make it current; return its id.

        Raises:
            companion.store.RecordError: not a record. companion.village.ReplayError: the
            engine refuses its header or one of its actions (nothing is stored then).
        """
        header, actions = parse_record(text)
        try:
            v.replay(header, [engine_action(a) for a in actions])
        except v.ReplayError:
            raise
        except Exception as exc:  # board values the engine cannot play with
            raise v.ReplayError(f"the record cannot be played: {_reason(exc)}") from exc
        with self._lock:
            game_id = self._store.import_record(text, label)
            self.select_game(game_id)
            return game_id

    def submit(
        self,
        action: JSONObject,
        source: str = "tablet",
        expected_seq: int | None = None,
        evidence: list[JSONObject] | None = None,
    ) -> int:
        """Check, store and announce one action; return its seq once it is durable.

        ``action`` is a record action, ``{"type": "virtual_draw"}`` (optionally with the
        ``commitment`` digest it expects), or a partial action that one legal action
        completes (`companion.village.resolve`). ``expected_seq``: refuse unless it is the
        game's last seq. ``evidence``: the observations that led a sensor to this action,
        stored in the same event (`OBSERVED_KEY`).

        Raises:
            NoGame; StaleSeq; NoDrawPending, StaleCommitment (virtual draws);
            companion.village.MalformedAction, IllegalAction, AmbiguousAction (``options``);
            ValueError: unknown ``source``. The state is untouched by any of them.
        """
        if not isinstance(action, dict):
            raise v.MalformedAction(f"an action is a JSON object, got {type(action).__name__}")
        with self._lock:
            game = self._require()
            if expected_seq is not None and expected_seq != game.seq:
                raise StaleSeq(f"expected seq {expected_seq}, the game is at seq {game.seq}")
            if action.get("type") == VIRTUAL_DRAW:
                deal = self._sealed.open_clash_free()
                if deal is not None:  # the reports in first, then the rest virtually,
                    offered = self._commitment  # with the seed committed to before them
                    self._store_checked(game, deal, "tablet", None)
                    if self._commitment is not None:
                        self._commitment = offered
                return self._virtual_draw(game, action)
            return self._store_checked(game, v.from_public(game.state, action), source, evidence)

    def _store_checked(
        self, game: _Game, action: JSONObject, source: str, evidence: list[JSONObject] | None
    ) -> int:
        """Check, store and announce ``action`` (under the lock); its seq."""
        record, new_state = self._check(game.state, action)
        stored = {**record, OBSERVED_KEY: evidence} if evidence else record
        event = self._store.append(game.id, stored, source)
        told = narration.narrate(game.state, v.parse_action(record), new_state)
        self._commit(game, event, new_state, told)
        return event.seq

    def report(self, color: str, action: object, source: str = "tablet") -> dict[str, Any]:
        """Take ``color``'s own share of a chance step drawn by hand, as that player reports
        it from their private page (a life goal tile, a treasure: what only they have seen):
        ``{"seq", "sealed"}``. The action must be one of the player's
        `companion.village.hand_reports`. A treasure is stored at once (``sealed`` false). A
        goal tile is sealed (`companion.table.sealed`) until every player of the tier has
        reported: the answer is the same whatever the tile, and the deal is stored when the
        last report opens them all (``seq`` is then the deal's).

        Raises:
            NoGame; NotYourReport: not the player's share of the draw waited for now;
            companion.village.MalformedAction, IllegalAction (a treasure value no tile of
            which is left). The state is untouched by any of them.
        """
        if not isinstance(action, dict):
            raise v.MalformedAction(f"an action is a JSON object, got {type(action).__name__}")
        with self._lock:
            game = self._require()
            if color not in game.header.get("players", []):
                raise NotYourReport(f"{color!r} does not play in game {game.id}")
            parsed = v.parse_action(action)
            if parsed not in v.hand_reports(game.state, v.Color(color)):
                raise NotYourReport(
                    f"this is not {color}'s own share of a draw the game waits for now"
                )
            record = parsed.to_json()
            if record.get("type") != "deal_goals":
                return {"seq": self.submit(record, source), "sealed": False}
            ((_, goal),) = record["hands"].items()
            self._sealed.seal(str(record["tier"]), color, str(goal))
            to_deal = list(v.pending(game.state).detail.get("to_deal", []))
            if self._sealed.complete(to_deal):
                opening = self._sealed.open()
                if opening.deal is not None:
                    return {"seq": self.submit(opening.deal, source), "sealed": False}
            self._announce_reports()
            return {"seq": game.seq, "sealed": True}

    def _announce_reports(self) -> None:
        """Tell every page who has reported a sealed goal tile (a named message)."""
        data = {"kind": "reports", **self._sealed.public()}
        self._publish(Notice(0, 0, _dumps(data), event="reports"))

    def undo(self, source: str = "tablet", expected_seq: int | None = None) -> int:
        """Revert the latest action still in effect (appends a revert); return its seq.

        Raises:
            NoGame; StaleSeq; companion.store.NothingToUndo; ValueError: unknown source.
        """
        with self._lock:
            game = self._require()
            if expected_seq is not None and expected_seq != game.seq:
                raise StaleSeq(f"expected seq {expected_seq}, the game is at seq {game.seq}")
            undone = self._store.effective_actions(game.id)
            event = self._store.append_revert(game.id, source)
            actions = [engine_action(a) for a in self._store.effective_actions(game.id)]
            before = v.replay(game.header, actions)
            told = undone_text(before, v.parse_action(engine_action(undone[-1])), game.state)
            self._commit(game, event, before, told)
            return event.seq

    # -- the live feed -------------------------------------------------------------------

    def subscribe(self, after: int | None = None, game_id: int | None = None) -> Subscription:
        """Subscribe to the feed (a queue read by one thread: `Subscription.get`).

        ``after``: the last seq the client has seen; the events after it are queued first
        (None: only what happens from now on). ``game_id``: the game the client shows; if
        it is not the current one, a ``new_game`` notice comes first instead of a backlog.
        """
        with self._lock:
            backlog, _ = self.catch_up(after, game_id)
            return self._feed.add(backlog)

    def catch_up(
        self, after: int | None = None, game_id: int | None = None
    ) -> tuple[list[Notice], int]:
        """What a client that saw ``after`` of game ``game_id`` lacks (as `subscribe`), and
        the number of notices published so far (`published`): a listener that numbers the
        notices it gets skips those up to that mark, so nothing is lost or doubled."""
        with self._lock:
            backlog: list[Notice] = []
            game = self._game
            if game is not None:
                if game_id is not None and game_id != game.id:
                    backlog = [self._game_notice(game)]
                elif after is not None and after < game.seq:
                    seqs, notices = self._history(game)
                    backlog = notices[bisect.bisect_right(seqs, after) : -1]
                    last = self._last_full
                    if last is None or (last.game_id, last.seq) != (game.id, game.seq):
                        view = self._view("table")
                        events = self._store.events(game.id, after=game.seq - 1)
                        last = self._notice(events[-1], view, self._legal_view(view))
                        self._last_full = last
                    backlog.append(last)
            return backlog, self._published

    def _history(self, game: _Game) -> tuple[list[int], list[Notice]]:
        """Every stored event of ``game`` as a feed notice without state (the catch-up's
        history), seqs ascending: read and encoded once, then grown by each new event, so
        a catch-up from seq 0 costs a slice, not a replay (rebuilt when the game's end
        changes what a draw shows)."""
        key = (game.id, self._over())
        if self._history_key != key:
            events = self._store.events(game.id)
            self._history_seqs = [e.seq for e in events]
            self._history_notices = [self._notice(e, None) for e in events]
            self._history_key = key
        return self._history_seqs, self._history_notices

    @property
    def published(self) -> int:
        """How many notices the feed has announced since the service started (a listener
        reads it, under the lock, to number each notice)."""
        return self._published

    def add_listener(self, listener: Callable[[Notice], None]) -> None:
        """Call ``listener(notice)`` after each change (under the lock; keep it short)."""
        with self._lock:
            self._listeners.append(listener)

    @property
    def subscriber_count(self) -> int:
        """How many subscriptions are open."""
        return len(self._feed)

    # -- internals -----------------------------------------------------------------------

    def _require(self) -> _Game:
        if self._game is None:
            if self._broken:
                gid, why = next(reversed(self._broken.items()))
                raise NoGame(
                    f"game {gid} cannot be loaded ({why}); open another game or start a new one"
                )
            raise NoGame("no game yet: start one (POST /api/games) or import a record")
        return self._game

    @property
    def broken(self) -> dict[int, str]:
        """The games that could not be loaded, with the reason."""
        with self._lock:
            return dict(self._broken)

    def _load(self, game_id: int) -> _Game:
        header = self._store.header(game_id)
        actions = [engine_action(a) for a in self._store.effective_actions(game_id)]
        state = v.replay(header, actions)
        return _Game(game_id, header, state, self._store.last_seq(game_id))

    def _view(self, viewer: str) -> dict[str, Any]:
        game = self._require()
        out = v.view(game.state, viewer)
        out["game_id"] = game.id
        out["seq"] = game.seq
        out["draw"] = self._draw_offer()
        if viewer in game.header.get("players", []):
            # what this player may do at any moment (claim a life goal, cash a treasure)
            out["anytime"] = [a.to_json() for a in v.anytime_actions(game.state, v.Color(viewer))]
            # what this player may report alone of a draw made by hand (goal tile, treasure)
            out["reports"] = [a.to_json() for a in v.hand_reports(game.state, v.Color(viewer))]
            out["my_report"] = self._sealed.private(viewer)
        out["hand_reports"] = self._sealed.public()
        return out

    def _legal_view(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        game = self._require()
        st = game.state
        offer = self._draw_offer()
        if offer is not None:
            actions: list[JSONObject] = [offer]
            choices: list[dict[str, Any]] = []
        else:
            moves = v.legal_actions(st)
            actions, choices = public_options(
                [a.to_json() for a in moves], [options.choice(st, a) for a in moves]
            )
        pending = (view if view is not None else v.view(st, "table"))["pending"]
        return {"game_id": game.id, "seq": game.seq, "pending": pending,
                "actions": actions, "choices": choices}

    def _draw_offer(self) -> JSONObject | None:
        spec = v.chance_spec(self._require().state)
        if spec is None or self._commitment is None:
            return None
        return {"type": VIRTUAL_DRAW, "draw": spec.kind, "commitment": self._commitment.digest}

    def _offer(self) -> None:
        """Hold a fresh commitment iff the current game waits for a draw."""
        self._commitment = None
        if self._game is not None and v.is_chance(self._game.state):
            self._commitment = bags.Commitment.new()

    @staticmethod
    def _check(st: v.GameState, action: JSONObject) -> tuple[JSONObject, v.GameState]:
        """The record form of ``action`` (completed if partial) and the state after it."""
        if DRAW_KEY in action:
            raise v.MalformedAction(f"{DRAW_KEY!r} is written by the server only")
        try:
            parsed = v.parse_action(action)
        except v.MalformedAction as malformed:
            if not isinstance(action.get("type"), str):
                raise
            try:
                parsed = v.resolve(st, action)  # a partial action one legal action completes
            except v.AmbiguousAction:
                raise
            except v.RulesError:
                raise malformed from None
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise v.MalformedAction(f"malformed action: {exc}") from exc
        try:
            new_state = v.apply(st, parsed)
        except v.RulesError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise v.MalformedAction(f"malformed action: {exc}") from exc
        return parsed.to_json(), new_state

    def _virtual_draw(self, game: _Game, request: JSONObject) -> int:
        spec = v.chance_spec(game.state)
        commitment = self._commitment
        if spec is None or commitment is None:
            kind = v.pending(game.state).kind
            raise NoDrawPending(f"no draw to make: the game waits for {kind}")
        asked = request.get("draw")
        if asked is not None and asked != spec.kind:
            raise StaleCommitment(f"the draw on offer is {spec.kind}, not {asked!r}")
        wanted = request.get("commitment")
        if wanted is not None and wanted != commitment.digest:
            raise StaleCommitment(f"the commitment in force is {commitment.digest}, not {wanted!r}")
        outcome = bags.draw_action(spec, commitment.seed)
        new_state = v.apply(game.state, outcome)
        audit = {"kind": spec.kind, "seed": commitment.seed, "digest": commitment.digest}
        event = self._store.append(game.id, {**outcome, DRAW_KEY: audit}, "virtual_bag")
        told = narration.narrate(game.state, v.parse_action(outcome), new_state)
        self._commit(game, event, new_state, told)
        return event.seq

    def _commit(self, game: _Game, event: Event, state: v.GameState, told: list[str]) -> None:
        """Adopt the state after a stored event, log its narration, announce the event."""
        game.state = state
        game.seq = event.seq
        _game_log(game, self._store)[event.seq] = (event.kind, told)
        self._after_change()
        view = self._view("table")
        notice = self._notice(event, view, self._legal_view(view))
        self._last_full = notice
        if self._history_key == (game.id, self._over()):
            self._history_seqs.append(event.seq)
            self._history_notices.append(self._notice(event, None))
        else:
            self._history_key = None  # the end came or went: rebuilt when next needed
        self._publish(notice)

    def _after_change(self) -> None:
        self._offer()
        if self._sealed.tier is not None:
            game = self._game
            still = game is not None and v.pending(game.state).kind == f"deal_{self._sealed.tier}"
            if not still:  # an undo, a new game: the sealed reports no longer apply
                self._sealed.clear()

    def _announce_game(self) -> None:
        assert self._game is not None
        self._publish(self._game_notice(self._game))

    def _publish(self, notice: Notice) -> None:
        self._published += 1
        self._feed.publish(notice)
        for listener in self._listeners:
            try:
                listener(notice)
            except Exception:
                log.exception("feed listener failed")

    def _over(self) -> bool:
        return self._game is not None and self._game.state.phase == "over"

    def _told(self, seq: int) -> list[str]:
        """The narration of the current game's event ``seq`` ([] if unknown)."""
        if self._game is None:
            return []
        return _game_log(self._game, self._store).get(seq, ("", []))[1]

    def _game_notice(self, game: _Game) -> Notice:
        view = self._view("table")
        data = {
            "game_id": game.id,
            "seq": game.seq,
            "kind": "game",
            "type": "new_game",
            "source": None,
            "time": None,
            "action": None,
            "draw": None,
            "narration": game_text(game),
            "state": view,
            "legal": self._legal_view(view),
        }
        return Notice(game.id, game.seq, _dumps(data))

    def _notice(
        self, event: Event, state: dict[str, Any] | None, legal: dict[str, Any] | None = None
    ) -> Notice:
        payload = event.payload
        is_action = event.kind == "action"
        data = {
            "game_id": event.game_id,
            "seq": event.seq,
            "kind": event.kind,
            "type": payload.get("type") if is_action else "revert",
            "source": event.source,
            "time": event.time,
            "action": public_action(payload) if is_action else None,
            "reverts": payload.get("reverts"),
            "draw": public_draw(payload, over=self._over()) if is_action else None,
            "narration": self._told(event.seq),
            "state": state,
            "legal": legal,
        }
        return Notice(event.game_id, event.seq, _dumps(data))
