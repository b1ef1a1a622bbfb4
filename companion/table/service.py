"""`TableService`: the one way a game's state changes.

Every change goes the same way, under one lock: the game (found by the record header's
``game``, `companion.games`) checks the action against the current state, the store
appends it (committed and fsynced), only then is the cached state replaced and the change
announced on the live feed. A caller that got a seq back therefore knows the action
survives a crash.

The service's parts sit beside it: `access` (tokens), `draws` (virtual draws and their
commitments), `narration_log` (the table log), `feed_payloads` (the live feed), `exports`
(records, evidence, draws for checking); `current` holds what they share.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from typing import Any

from companion import games
from companion.games.errors import (
    AmbiguousAction,
    IllegalAction,
    MalformedAction,
    ReplayError,
    RulesError,
    SetupError,
)
from companion.store import EventStore, JSONObject, parse_record
from companion.store.event_store import Event
from companion.table import tokens
from companion.table.access import TokenChecks
from companion.table.current import CurrentGame, reason
from companion.table.disclosure import (
    DRAW_KEY,
    OBSERVED_KEY,
    engine_action,
    public_options,
)
from companion.table.draws import VIRTUAL_DRAW, DrawCommitments
from companion.table.errors import NoGame, NotAsked, NotYourReport, StaleSeq
from companion.table.exports import RecordExports
from companion.table.feed import Feed
from companion.table.feed_payloads import FeedPayloads
from companion.table.narration_log import NarrationLog, game_log, undone_text
from companion.table.sealed import SealedReports
from companion.table.sealed_choices import SealedAnswers

__all__ = ["DRAW_KEY", "VIRTUAL_DRAW", "TableService", "engine_action"]

log = logging.getLogger(__name__)


class TableService(FeedPayloads, NarrationLog, DrawCommitments, RecordExports, TokenChecks):
    """The table: the current game, its state in memory, tokens and the live feed.

    ``store`` is shared (the service never closes it). ``table_token`` is generated if not
    given. On start the latest game of the store becomes the current game (its effective
    actions replayed); a game that cannot be replayed is skipped with a warning.
    """

    def __init__(self, store: EventStore, table_token: str | None = None) -> None:
        self._store = store
        self._lock = threading.RLock()
        self._feed = Feed()
        self.table_token = table_token or tokens.new_table_token()
        self._game = None
        self._commitment = None
        self._start_feed()
        self._sealed = SealedReports()
        self._answers = SealedAnswers()
        self._broken = {}
        stored = store.games()
        if stored:
            try:
                self._game = self._load(stored[-1].id)
            except Exception as exc:  # a broken record must not stop the table: say why
                self._broken[stored[-1].id] = reason(exc)
                log.warning("game %d cannot be loaded: %s", stored[-1].id, reason(exc))
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

    def game(self) -> games.Game:
        """The game the current record plays (by its header's ``game``). Raises `NoGame`."""
        with self._lock:
            return self._require().game

    def state(self) -> Any:
        """The current game's state (the game's own value). Raises `NoGame`."""
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
        """The table's view (the game's ``view`` for ``"table"``) plus ``game_id``,
        ``seq`` and ``draw`` (the virtual draw on offer, or None). Raises `NoGame`."""
        with self._lock:
            return self._view("table")

    def private_view(self, color: str) -> dict[str, Any]:
        """The private view of ``color`` (its face-down customers, full score), with the same
        extra keys as `public_view`. Raises `NoGame`; ValueError if ``color`` does not play.
        """
        with self._lock:
            current = self._require()
            if color not in current.header.get("players", []):
                raise ValueError(f"{color!r} does not play in game {current.id}")
            return self._view(color)

    def legal(self) -> list[JSONObject]:
        """The pending decision's legal actions in record form, private pieces named (for
        in-process callers: the demo, the benchmarks; the pages get `legal_view`, in public
        form); at a chance point one offer
        ``{"type": "virtual_draw", "draw": kind, "commitment": digest}`` instead; [] once the
        game is over. Raises `NoGame`."""
        with self._lock:
            current = self._require()
            offer = self._draw_offer()
            if offer is not None:
                return [offer]
            return [a.to_json() for a in current.game.legal_actions(current.state)]

    def choices(self) -> list[dict[str, Any]]:
        """For each entry of `legal` (same order), how a person picks it and what it costs
        (the game's ``choice``); [] at a chance point. Raises `NoGame`."""
        with self._lock:
            current = self._require()
            if self._draw_offer() is not None:
                return []
            game, st = current.game, current.state
            return [game.choice(st, a) for a in game.legal_actions(st)]

    def legal_view(self) -> dict[str, Any]:
        """What ``GET /api/legal`` answers, and the ``legal`` of each live event:
        ``game_id``, ``seq``, ``pending`` (public), ``actions`` (`legal` in public form, see
        `companion.table.disclosure.public_options`) and ``choices``
        (`choices`). Public: the same for every viewer. Raises `NoGame`."""
        with self._lock:
            return self._legal_view()

    @property
    def broken(self) -> dict[int, str]:
        """The games that could not be loaded, with the reason."""
        with self._lock:
            return dict(self._broken)

    # -- changing ------------------------------------------------------------------------

    def new_game(
        self,
        players: list[str],
        first_player: str | None = None,
        board: Any = None,
        label: str | None = None,
        house_rules: dict[str, Any] | None = None,
        modules: list[str] | None = None,
        goal_claims: str = "manual",
        module_values: dict[str, Any] | None = None,
        *,
        game: str = games.DEFAULT,
        **options: Any,
    ) -> int:
        """Start a new game of ``game`` (a name `companion.games` knows; default: Village)
        and make it the current one; return its id.

        For Village: ``board``: the board values in force (default: the shipped ones);
        they are written into the header so the record replays the same anywhere.
        ``house_rules``: the game's house rules (`companion.village.house`), stored in the
        header whole. ``modules``: rule modules switched on (``port``, ``life_goals``),
        their values (``module_values``, default: shipped) written into the header;
        ``goal_claims``: ``manual`` or ``auto``. Another game takes its own ``options``.

        Raises:
            ValueError: bad players or first player (unknown colour, wrong count, repeats),
            an unknown house rule or one that is not true/false, an unknown module, an
            unknown game. companion.games.errors.SetupError (Village: its BoardDataError):
            the game cannot start with these values (nothing is stored).
        """
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("players must be a list of colour names")
        if first_player is not None and first_player not in players:
            raise ValueError(f"first player {first_player!r} is not among {players!r}")
        try:
            rules = games.get(game)
        except ReplayError as exc:
            raise ValueError(str(exc)) from exc
        if game == games.DEFAULT:  # the default game's own options, by name
            options = {
                "board": board,
                "house_rules": house_rules,
                "modules": modules or (),
                "module_values": module_values,
                "goal_claims": goal_claims,
                **options,
            }
        elif house_rules is not None:  # another game's house rules are its own option too
            options = {**options, "house_rules": house_rules}
        header = rules.make_header(players, first_player, **options)
        try:
            state = rules.start(header)
            rules.view(state, "table")  # everything the table asks first must work: or refuse
            rules.legal_actions(state)
        except ReplayError as exc:
            raise ValueError(str(exc)) from exc
        except Exception as exc:  # values the game cannot play with: nothing is stored
            raise SetupError(
                f"no game can start with these board values: {reason(exc)}"
            ) from exc
        with self._lock:
            game_id = self._store.create_game(header, label)
            self._game = CurrentGame(game_id, header, rules, state, 0, {})
            self._after_change()
            self._announce_game()
            return game_id

    def select_game(self, game_id: int) -> None:
        """Make a stored game the current one (replaying it).

        Raises:
            NoGame: no such game. ValueError: the game cannot replay it.
        """
        with self._lock:
            if all(g.id != game_id for g in self._store.games()):
                raise NoGame(f"no game {game_id}")
            try:
                current = self._load(game_id)
            except Exception as exc:  # the record or its board values are broken
                self._broken[game_id] = reason(exc)
                raise ValueError(f"game {game_id} cannot be loaded: {reason(exc)}") from exc
            self._broken.pop(game_id, None)
            self._game = current
            self._after_change()
            self._announce_game()

    def import_record(self, text: str, label: str | None = None) -> int:
        """Store a game record as a new game and make it current; return its id.

        Raises:
            companion.store.RecordError: not a record. companion.games.errors.ReplayError:
            no game this table knows, or the game refuses its header or one of its
            actions (nothing is stored then).
        """
        header, actions = parse_record(text)
        try:
            games.for_header(header).replay(header, [engine_action(a) for a in actions])
        except ReplayError:
            raise
        except Exception as exc:  # board values the game cannot play with
            raise ReplayError(f"the record cannot be played: {reason(exc)}") from exc
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
        completes (the game's ``resolve``). ``expected_seq``: refuse unless it is the
        game's last seq. ``evidence``: the observations that led a sensor to this action,
        stored in the same event (`OBSERVED_KEY`).

        Raises:
            NoGame; StaleSeq; NoDrawPending, StaleCommitment (virtual draws);
            companion.games.errors.MalformedAction, IllegalAction, AmbiguousAction
            (``options``); ValueError: unknown ``source``. The state is untouched by any.
        """
        if not isinstance(action, dict):
            raise MalformedAction(f"an action is a JSON object, got {type(action).__name__}")
        with self._lock:
            current = self._require()
            if expected_seq is not None and expected_seq != current.seq:
                raise StaleSeq(f"expected seq {expected_seq}, the game is at seq {current.seq}")
            if action.get("type") == VIRTUAL_DRAW:
                opening = self._sealed.open_clash_free()
                if opening.draw is not None and opening.shares is not None:
                    # the reports in first, then the rest virtually,
                    deal = current.game.sealed_deal(current.state, opening.draw, opening.shares)
                    offered = self._commitment  # with the seed committed to before them
                    # a draw dealt whole or not at all (Colonia's materials) refuses a
                    # part: the reports are dropped and everything is drawn virtually
                    with contextlib.suppress(IllegalAction):
                        self._store_checked(current, deal, "tablet", None)
                    if self._commitment is not None:
                        self._commitment = offered
                return self._virtual_draw(current, action)
            record = current.game.from_public(current.state, action)
            return self._store_checked(current, record, source, evidence)

    def _store_checked(
        self, current: CurrentGame, action: JSONObject, source: str,
        evidence: list[JSONObject] | None,
    ) -> int:
        """Check, store and announce ``action`` (under the lock); its seq."""
        game = current.game
        record, new_state = self._check(current, action)
        stored = {**record, OBSERVED_KEY: evidence} if evidence else record
        event = self._store.append(current.id, stored, source)
        told = game.narrate(current.state, game.parse_action(record), new_state)
        self._commit(current, event, new_state, told)
        return event.seq

    def report(self, color: str, action: object, source: str = "tablet") -> dict[str, Any]:
        """Take ``color``'s own share of a chance step drawn by hand, as that player reports
        it from their private page (a life goal tile, a treasure: what only they have seen):
        ``{"seq", "sealed"}``. The action must be one of the player's ``hand_reports``. A
        treasure is stored at once (``sealed`` false). A goal tile is sealed
        (`companion.table.sealed`) until every player of the tier has reported: the answer
        is the same whatever the tile, and the deal is stored when the last report opens
        them all (``seq`` is then the deal's); a deal the game refuses as a whole (Colonia:
        more materials than the bag holds) asks every player of the draw to report again.

        Raises:
            NoGame; NotYourReport: not the player's share of the draw waited for now;
            companion.games.errors.MalformedAction, IllegalAction (a treasure value no tile
            of which is left). The state is untouched by any of them.
        """
        if not isinstance(action, dict):
            raise MalformedAction(f"an action is a JSON object, got {type(action).__name__}")
        with self._lock:
            current = self._require()
            game = current.game
            if color not in current.header.get("players", []):
                raise NotYourReport(f"{color!r} does not play in game {current.id}")
            parsed = game.parse_action(action)
            if parsed not in game.hand_reports(current.state, color):
                raise NotYourReport(
                    f"this is not {color}'s own share of a draw the game waits for now"
                )
            record = parsed.to_json()
            share = game.sealed_share(current.state, color, record)
            if share is None:
                return {"seq": self.submit(record, source), "sealed": False}
            self._sealed.seal(share, color)
            if self._sealed.complete(share.to_report):
                opening = self._sealed.open()
                if opening.draw is not None and opening.shares is not None:
                    deal = game.sealed_deal(current.state, opening.draw, opening.shares)
                    try:
                        return {"seq": self.submit(deal, source), "sealed": False}
                    except IllegalAction:  # the reports do not fit together (a misread):
                        self._sealed.refused(share, tuple(sorted(opening.shares)))
            self._announce_reports()
            return {"seq": current.seq, "sealed": True}

    def answer(self, color: str, answer: Any, source: str = "tablet") -> dict[str, Any]:
        """Take ``color``'s sealed answer to the game's pending secret choice
        (`companion.games.sealed`): kept sealed, and changeable, until every asked player
        has answered; the last answer applies the choice's reveal action, all answers in
        one event. Answers ``{"seq", "sealed", "waiting"}`` (``sealed`` false once
        revealed; ``seq`` then the reveal's). Who may answer for a seat (that player's
        token, or the table's) is the caller's check.

        Raises:
            NoGame; NotAsked: no secret choice pending, or ``color`` is not asked;
            companion.games.errors.IllegalAction: not one of ``color``'s options. The
            state and the other sealed answers are untouched by any of them.
        """
        with self._lock:
            current = self._require()
            choice = current.game.sealed_choice(current.state)
            if choice is None:
                raise NotAsked("no secret choice is waited for now")
            if color not in choice.players:
                raise NotAsked(f"{color!r} is not asked: {choice.question}")
            choice.check_answer(color, answer)
            self._answers.put(choice, color, answer)
            if self._answers.complete(choice):
                reveal = choice.action(self._answers.answers)
                seq = self._store_checked(current, reveal, source, None)
                return {"seq": seq, "sealed": False, "waiting": []}
            self._announce_answers()
            public = self._answers.public(choice) or {}
            return {"seq": current.seq, "sealed": True, "waiting": public.get("waiting", [])}

    def undo(self, source: str = "tablet", expected_seq: int | None = None) -> int:
        """Revert the latest action still in effect (appends a revert); return its seq.

        Raises:
            NoGame; StaleSeq; companion.store.NothingToUndo; ValueError: unknown source.
        """
        with self._lock:
            current = self._require()
            game = current.game
            if expected_seq is not None and expected_seq != current.seq:
                raise StaleSeq(f"expected seq {expected_seq}, the game is at seq {current.seq}")
            undone = self._store.effective_actions(current.id)
            event = self._store.append_revert(current.id, source)
            actions = [engine_action(a) for a in self._store.effective_actions(current.id)]
            before = game.replay(current.header, actions)
            action = game.parse_action(engine_action(undone[-1]))
            told = undone_text(game, before, action, current.state)
            self._commit(current, event, before, told)
            return event.seq

    # -- internals -----------------------------------------------------------------------

    def _load(self, game_id: int) -> CurrentGame:
        header = self._store.header(game_id)
        actions = [engine_action(a) for a in self._store.effective_actions(game_id)]
        game = games.for_header(header)
        state = game.replay(header, actions)
        return CurrentGame(game_id, header, game, state, self._store.last_seq(game_id))

    def _view(self, viewer: str) -> dict[str, Any]:
        current = self._require()
        game, st = current.game, current.state
        out = game.view(st, viewer)
        choice = game.sealed_choice(st)
        out["game_id"] = current.id
        out["seq"] = current.seq
        out["draw"] = self._draw_offer()
        if viewer in current.header.get("players", []):
            # what this player may do at any moment (claim a life goal, cash a treasure)
            out["anytime"] = [a.to_json() for a in game.anytime_actions(st, viewer)]
            # what this player may report alone of a draw made by hand (goal tile, treasure)
            out["reports"] = [a.to_json() for a in game.hand_reports(st, viewer)]
            out["my_report"] = self._sealed.private(viewer)
            out["my_sealed"] = self._answers.private(choice, viewer)
        out["hand_reports"] = self._sealed.public()
        out["sealed"] = self._answers.public(choice)
        return out

    def _legal_view(self, view: dict[str, Any] | None = None) -> dict[str, Any]:
        current = self._require()
        game, st = current.game, current.state
        offer = self._draw_offer()
        if offer is not None:
            actions: list[JSONObject] = [offer]
            choices: list[dict[str, Any]] = []
        else:
            moves = game.legal_actions(st)
            actions, choices = public_options(
                game, [a.to_json() for a in moves], [game.choice(st, a) for a in moves]
            )
        pending = (view if view is not None else game.view(st, "table"))["pending"]
        return {"game_id": current.id, "seq": current.seq, "pending": pending,
                "actions": actions, "choices": choices}

    @staticmethod
    def _check(current: CurrentGame, action: JSONObject) -> tuple[JSONObject, Any]:
        """The record form of ``action`` (completed if partial) and the state after it."""
        game, st = current.game, current.state
        if DRAW_KEY in action:
            raise MalformedAction(f"{DRAW_KEY!r} is written by the server only")
        try:
            parsed = game.parse_action(action)
        except MalformedAction as malformed:
            if not isinstance(action.get("type"), str):
                raise
            try:
                parsed = game.resolve(st, action)  # a partial action one legal one completes
            except AmbiguousAction:
                raise
            except RulesError:
                raise malformed from None
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise MalformedAction(f"malformed action: {exc}") from exc
        try:
            new_state = game.apply(st, parsed)
        except RulesError:
            raise
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise MalformedAction(f"malformed action: {exc}") from exc
        return parsed.to_json(), new_state

    def _commit(self, current: CurrentGame, event: Event, state: Any, told: list[str]) -> None:
        """Adopt the state after a stored event, log its narration, announce the event."""
        current.state = state
        current.seq = event.seq
        game_log(current, self._store)[event.seq] = (event.kind, told)
        self._after_change()
        self._announce_event(current, event)

    def _after_change(self) -> None:
        self._answers.clear()  # the game changed: a sealed answer no longer applies
        self._offer()
        if self._sealed.tier is not None:
            current = self._game
            still = current is not None and (
                current.game.pending(current.state).kind == self._sealed.step
            )
            if not still:  # an undo, a new game: the sealed reports no longer apply
                self._sealed.clear()
