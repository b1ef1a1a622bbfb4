"""What a table publishes to the hall: the public form of its stored events and state,
built with the same functions as the spectator feed (`companion.table.disclosure`).

An event's message is a function of the stored event alone, so a message sent twice is
the same message: the action in its public form (a goal deal without tiles, a treasure
without its tile), a draw's audit with a private draw's seed always withheld (the hall
never gets it, even after the game), a revert as the revert it is. Never a token.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion import games
from companion.games import Game
from companion.store import Event, JSONObject
from companion.table.disclosure import engine_action, public_action, public_draw

__all__ = ["PublicState", "public_event", "public_game", "public_state"]

_HEADER_KEYS = ("game", "players", "first_player", "expansions", "modules", "goal_claims",
                "house_rules")


def public_event(table: str, game: Game, event: Event) -> dict[str, Any]:
    """The hall message of one stored event (``kind`` ``action`` or ``revert``) of a game of
    ``game`` (the record header's, `companion.games.for_header`)."""
    payload = event.payload
    is_action = event.kind == "action"
    return {
        "table": table,
        "game_id": event.game_id,
        "seq": event.seq,
        "kind": event.kind,
        "type": payload.get("type") if is_action else "revert",
        "source": event.source,
        "time": event.time,
        "action": public_action(game, payload) if is_action else None,
        "reverts": None if is_action else payload.get("reverts"),
        "draw": public_draw(game, payload, over=False) if is_action else None,
    }


def public_game(table: str, game_id: int, header: JSONObject) -> dict[str, Any]:
    """The hall message announcing a game (seq 0): who plays, with which modules."""
    return {"table": table, "game_id": game_id, "seq": 0, "kind": "game",
            "header": {k: header[k] for k in _HEADER_KEYS if k in header}}


def public_state(table: str, game: Game, game_id: int, seq: int, state: Any) -> dict[str, Any]:
    """The retained state message: the game's table view of ``state`` with ``table``,
    ``game_id`` and ``seq``."""
    return {"table": table, "game_id": game_id, "seq": seq, "state": game.view(state, "table")}


class PublicState:
    """One game's state as the publisher follows it: actions applied as they come, the
    whole log replayed only for a revert or another game (a replay of a long game costs
    tens of milliseconds on a Pi; an action, a fraction of one)."""

    def __init__(self) -> None:
        self._key: tuple[int, int] | None = None
        self._state: Any = None

    def after(self, game_id: int, header: JSONObject, events: list[Event],
              whole: Callable[[int], list[Event]]) -> Any:
        """The state after ``events`` (the game's events past the last call's, in order);
        ``whole(seq)`` gives the game's events up to ``seq`` when a replay is needed.
        Raises what the game's ``replay`` raises for a log it cannot replay."""
        game = games.for_header(header)
        last = events[-1].seq if events else (self._key or (game_id, 0))[1]
        state = self._state
        if state is not None and self._key is not None and self._key[0] == game_id \
                and (not events or events[0].seq == self._key[1] + 1) \
                and all(e.kind == "action" for e in events):
            for e in events:
                state = game.apply(state, game.parse_action(engine_action(e.payload)))
        else:
            log = whole(last)
            reverted = {e.payload.get("reverts") for e in log if e.kind == "revert"}
            state = game.replay(header, [engine_action(e.payload) for e in log
                                      if e.kind == "action" and e.seq not in reverted])
        self._key, self._state = (game_id, last), state
        return state
