"""Who may do what at the table: the table token and each player's token in the current
game (derived from the table token, `companion.table.tokens`)."""

from __future__ import annotations

from companion.table import tokens
from companion.table.current import TableBase


class TokenChecks(TableBase):
    """The service's token checks."""

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
