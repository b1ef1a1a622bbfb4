"""The table log: the public narration of every stored event of the current game, told by
the game (`companion.games.Game.narrate`), kept by seq, rebuilt from the store after a
restart."""

from __future__ import annotations

import logging
from typing import Any

from companion import games
from companion.games import Game
from companion.games.errors import ReplayError, RulesError
from companion.games.words import join_words
from companion.store import Event, EventStore, JSONObject
from companion.table.current import CurrentGame, TableBase
from companion.table.disclosure import engine_action

log = logging.getLogger("companion.table.service")


def game_log(game: CurrentGame, store: EventStore) -> dict[int, tuple[str, list[str]]]:
    """The game's table log, narrated from its stored events the first time it is needed."""
    if game._log is None:
        try:
            game._log = narrate_events(game.header, store.events(game.id))
        except ReplayError as exc:  # the game itself replays; only the story is lost
            log.warning("game %d: no table log: %s", game.id, exc)
            game._log = {}
    return game._log


def undone_text(game: Game, before: Any, action: Any, after: Any) -> list[str]:
    """The narration of an undo: what it took back, and whose turn it is again."""
    what = game.headline(before, action, after).rstrip(".")
    return [f"Undone: {what}.", game.now_text(before)]


def game_text(current: CurrentGame) -> list[str]:
    """The narration of a game becoming the current one."""
    game = current.game
    names = [game.player_name(c) for c in current.header.get("players", [])]
    return [
        f"On the table: game {current.id}, {join_words(names)}.",
        game.now_text(current.state),
    ]


def narrate_events(header: JSONObject, events: list[Event]) -> dict[int, tuple[str, list[str]]]:
    """The public narration of each stored event of a game (reverted actions and reverts
    included), replaying them in order. Raises companion.games.errors.ReplayError if the
    game refuses one (the game could not be loaded either)."""
    game = games.for_header(header)
    st = game.start(header)
    done: list[tuple[int, Any, Any]] = []
    out: dict[int, tuple[str, list[str]]] = {}
    for e in events:
        if e.kind == "action":
            try:
                action = game.parse_action(engine_action(e.payload))
                after = game.apply_unchecked(st, action)  # the store holds accepted actions
            except (RulesError, KeyError, ValueError, AssertionError) as exc:
                raise ReplayError(f"event {e.seq} cannot be narrated: {exc}") from exc
            out[e.seq] = ("action", game.narrate(st, action, after))
            done.append((e.seq, st, action))
            st = after
        elif e.kind == "revert" and done:
            _, before, action = done.pop()
            out[e.seq] = ("revert", undone_text(game, before, action, st))
            st = before
    return out


class NarrationLog(TableBase):
    """The service's reading of the table log."""

    def log(self, after: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The table log of the current game, oldest first: ``{"seq", "kind", "narration",
        "undone"}`` per event after ``after`` (the last ``limit`` only, if given); ``kind`` is
        ``action`` or ``revert``, ``undone`` tells an action later taken back. Raises `NoGame`.
        """
        with self._lock:
            game = self._require()
            items = sorted(game_log(game, self._store).items())
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

    def _told(self, seq: int) -> list[str]:
        """The narration of the current game's event ``seq`` ([] if unknown)."""
        if self._game is None:
            return []
        return game_log(self._game, self._store).get(seq, ("", []))[1]
