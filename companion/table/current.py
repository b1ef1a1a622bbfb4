"""The table's current game as cached in memory, and what every part of the service shares:
`TableBase` (the state the service's parts read and the steps each leaves to another)."""

from __future__ import annotations

import json
import threading
from typing import Any

from companion import bags
from companion.games import Game
from companion.store import EventStore, JSONObject
from companion.table.errors import NoGame
from companion.table.feed import Feed, Notice
from companion.table.sealed import SealedReports
from companion.table.sealed_choices import SealedAnswers


def reason(exc: BaseException) -> str:
    """An exception's message, cut to 300 characters."""
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 300 else text[:297] + "…"


def dumps(obj: Any) -> str:
    """Compact JSON, non-ASCII kept, as the live feed sends it."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class CurrentGame:
    """The current game as cached in memory: id, header, the game that plays it (by the
    header's ``game``), state, last seq, and the table log (the public narration of every
    event, by seq; None until first needed after a load, so a restart replays the game
    once, not twice)."""

    __slots__ = ("_log", "game", "header", "id", "seq", "state")

    def __init__(
        self,
        game_id: int,
        header: JSONObject,
        game: Game,
        state: Any,
        seq: int,
        log: dict[int, tuple[str, list[str]]] | None = None,
    ) -> None:
        """``log``: the table log if known (None: narrated from the store when needed)."""
        self.id = game_id
        self.header = header
        self.game = game
        self.state = state
        self.seq = seq
        self._log: dict[int, tuple[str, list[str]]] | None = log  # seq -> (kind, narration)


class TableBase:
    """What the service's parts share: the store, the lock, the feed, the current game, the
    commitment on offer, the sealed reports and answers. Each part (`companion.table.service`
    and the mixins beside it) reads these; the steps one part leaves to another are declared
    here."""

    _store: EventStore
    _lock: threading.RLock
    _feed: Feed
    table_token: str
    _game: CurrentGame | None
    _commitment: bags.Commitment | None
    _sealed: SealedReports
    _answers: SealedAnswers
    _broken: dict[int, str]

    def _require(self) -> CurrentGame:
        """The current game. Raises `NoGame` (saying why when the last one is broken)."""
        if self._game is None:
            if self._broken:
                gid, why = next(reversed(self._broken.items()))
                raise NoGame(
                    f"game {gid} cannot be loaded ({why}); open another game or start a new one"
                )
            raise NoGame("no game yet: start one (POST /api/games) or import a record")
        return self._game

    def _over(self) -> bool:
        """Whether the current game has ended."""
        game = self._game
        return game is not None and game.game.is_over(game.state)

    # -- left to other parts -------------------------------------------------------------

    def _load(self, game_id: int) -> CurrentGame:  # pragma: no cover - see TableService
        raise NotImplementedError

    def _view(self, viewer: str) -> dict[str, Any]:  # pragma: no cover - see TableService
        raise NotImplementedError

    def _legal_view(self, view: dict[str, Any] | None = None) -> dict[str, Any]:  # pragma: no cover
        raise NotImplementedError

    def _commit(  # pragma: no cover - see TableService
        self, game: CurrentGame, event: Any, state: Any, told: list[str]
    ) -> None:
        raise NotImplementedError

    def _told(self, seq: int) -> list[str]:  # pragma: no cover - see NarrationLog
        raise NotImplementedError

    def _publish(self, notice: Notice) -> None:  # pragma: no cover - see FeedPayloads
        raise NotImplementedError
