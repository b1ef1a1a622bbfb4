"""What the service gives out of its store: the games, their events, a game's record (with
the sensors' evidence on request) and its virtual draws for checking."""

from __future__ import annotations

from typing import Any

from companion import games
from companion.store import Event, JSONObject, format_record
from companion.table.current import TableBase
from companion.table.disclosure import DRAW_KEY, OBSERVED_KEY, draw_entry, engine_action
from companion.table.errors import GameNotOver, NoGame
from companion.table.playlog import PlayLog, play_log


def with_evidence(payload: JSONObject) -> JSONObject:
    """The stored payload minus the draw audit: the action and its ``_observed`` evidence."""
    return {k: val for k, val in payload.items() if k != DRAW_KEY}


class RecordExports(TableBase):
    """The service's exports."""

    def events(self, game_id: int | None = None) -> list[Event]:
        """The stored events of ``game_id`` (default: the current game), in seq order.
        Raises `NoGame` (no game), `KeyError` (no such game)."""
        with self._lock:
            gid = self._require().id if game_id is None else game_id
            return self._store.events(gid)

    def export_record(self, game_id: int | None = None, evidence: bool = False) -> str:
        """The game record (JSON Lines) of ``game_id`` (default: the current game), without
        the draw audits, so the game's ``replay`` reads it; with ``evidence``, each
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
            return format_record(header, [with_evidence(a) for a in actions])
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
        game = games.for_header(self._store.header(gid))
        draws = [
            e for e in events if e.kind == "action" and isinstance(e.payload.get(DRAW_KEY), dict)
        ]
        over = bool(draws) and self._is_over(gid)
        return [draw_entry(game, e.seq, e.payload, over) for e in draws]

    def _is_over(self, game_id: int) -> bool:
        """Whether game ``game_id`` has ended (a stored game other than the current one is
        replayed to know; one that cannot be replayed counts as not over)."""
        with self._lock:
            if self._game is not None and self._game.id == game_id:
                return self._over()
        try:
            loaded = self._load(game_id)
            return loaded.game.is_over(loaded.state)
        except Exception:  # a broken record reveals nothing
            return False

    def play_log(self, game_id: int | None = None, key: str = "table") -> PlayLog:
        """The play log of a finished game (default: the current game), for BG Stats and
        BGG (`companion.table.playlog`); ``key`` names the table in its derived ids.
        Raises `NoGame`, `GameNotOver`."""
        gid, events = self._stored_events(game_id)
        with self._lock:
            current = self._game if self._game is not None and self._game.id == gid else None
        try:
            loaded = current or self._load(gid)
        except Exception as exc:  # a record that cannot be replayed has no result
            raise GameNotOver(f"game {gid} cannot be replayed to its end") from exc
        if not loaded.game.is_over(loaded.state) or not events:
            raise GameNotOver(f"game {gid} is not over: there is no play to log yet")
        return play_log(f"{key}/{gid}", self._store.header(gid),
                        loaded.game.view(loaded.state, "table"), events[0].time,
                        events[-1].time)

    def play_logs(self, key: str = "table") -> list[PlayLog]:
        """The play log of every finished game, oldest first (games not over, or that
        cannot be replayed, are left out)."""
        out = []
        for g in self._store.games():
            try:
                out.append(self.play_log(g.id, key))
            except (GameNotOver, NoGame):
                continue
        return out
