"""What the service puts on the live feed: a notice per stored event (the public action,
its draw audit, narration, and the table's state and legal options after it), a notice
when a game becomes current, the sealed reports; and the catch-up a client that missed
some gets."""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from typing import Any

from companion.store import Event
from companion.table.current import CurrentGame, TableBase, dumps
from companion.table.disclosure import public_action, public_draw
from companion.table.feed import Notice, Subscription
from companion.table.narration_log import game_text

log = logging.getLogger("companion.table.service")


class FeedPayloads(TableBase):
    """The service's live feed."""

    _listeners: list[Callable[[Notice], None]]
    _history_key: tuple[int, bool] | None
    _history_seqs: list[int]
    _history_notices: list[Notice]
    _last_full: Notice | None
    _published: int

    def _start_feed(self) -> None:
        """No listener, history or notice yet."""
        self._listeners = []
        self._history_key = None
        self._history_seqs = []
        self._history_notices = []
        self._last_full = None
        self._published = 0

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

    def _history(self, game: CurrentGame) -> tuple[list[int], list[Notice]]:
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

    def _announce_event(self, game: CurrentGame, event: Event) -> None:
        """Announce a stored event with the table's state after it, and keep the catch-up's
        history in step."""
        view = self._view("table")
        notice = self._notice(event, view, self._legal_view(view))
        self._last_full = notice
        if self._history_key == (game.id, self._over()):
            self._history_seqs.append(event.seq)
            self._history_notices.append(self._notice(event, None))
        else:
            self._history_key = None  # the end came or went: rebuilt when next needed
        self._publish(notice)

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

    def _announce_reports(self) -> None:
        """Tell every page who has reported a sealed goal tile (a named message)."""
        data = {"kind": "reports", **self._sealed.public()}
        self._publish(Notice(0, 0, dumps(data), event="reports"))

    def _announce_answers(self) -> None:
        """Tell every page who has answered the pending secret choice and who is awaited
        (a named message ``sealed``; never an answer)."""
        game = self._require()
        data = {"kind": "sealed",
                **(self._answers.public(game.game.sealed_choice(game.state)) or {})}
        self._publish(Notice(0, 0, dumps(data), event="sealed"))

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

    def _game_notice(self, game: CurrentGame) -> Notice:
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
        return Notice(game.id, game.seq, dumps(data))

    def _notice(
        self, event: Event, state: dict[str, Any] | None, legal: dict[str, Any] | None = None
    ) -> Notice:
        payload = event.payload
        is_action = event.kind == "action"
        game = self._require().game
        data = {
            "game_id": event.game_id,
            "seq": event.seq,
            "kind": event.kind,
            "type": payload.get("type") if is_action else "revert",
            "source": event.source,
            "time": event.time,
            "action": public_action(game, payload) if is_action else None,
            "reverts": payload.get("reverts"),
            "draw": public_draw(game, payload, over=self._over()) if is_action else None,
            "narration": self._told(event.seq),
            "state": state,
            "legal": legal,
        }
        return Notice(event.game_id, event.seq, dumps(data))
