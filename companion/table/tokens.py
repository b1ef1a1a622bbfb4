"""Tokens: one table token (every change needs it) and a player token per colour per game.

Player tokens are derived from the table token (HMAC-SHA256 of ``"<game id>:<colour>"``),
so they stay the same across restarts as long as the table token does, and need no storage.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_table_token() -> str:
    """A fresh random table token (URL-safe text, 32 characters)."""
    return secrets.token_urlsafe(24)


def player_token(table_token: str, game_id: int, color: str) -> str:
    """The token of ``color`` in game ``game_id`` (URL-safe text, 22 characters)."""
    mac = hmac.new(
        table_token.encode("utf-8"), f"{game_id}:{color}".encode(), hashlib.sha256
    ).digest()
    return base64.urlsafe_b64encode(mac[:16]).decode("ascii").rstrip("=")


def same_token(given: str | None, expected: str) -> bool:
    """Whether ``given`` equals ``expected`` (constant-time; None never matches)."""
    if not given:
        return False
    return hmac.compare_digest(given.encode("utf-8", "surrogatepass"), expected.encode("utf-8"))
