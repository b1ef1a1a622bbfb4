"""Game headers and replay: a record is a header then actions, and the state is their replay.

The header holds the seat order, the first player and the board data in force, so a
record replays identically on any installation whatever its box check says later.
"""

from __future__ import annotations

from typing import Any

from . import data as board_data
from . import house
from .actions import parse_action
from .engine import apply
from .errors import RulesError
from .state import GameState, new_game
from .vocabulary import Color

RECORD_VERSION = 1


class ReplayError(ValueError):
    """A record whose header is unusable or whose action number ``index`` is refused."""

    def __init__(self, message: str, index: int | None = None, cause: RulesError | None = None):
        super().__init__(message)
        self.index = index
        self.cause = cause


def make_header(
    players: list[str],
    first_player: str | None = None,
    board: board_data.BoardData | None = None,
    house_rules: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A record header for a new game; ``board`` defaults to the shipped values plus none;
    ``house_rules`` (name → true/false, missing names take their default) is stored whole.
    Raises ValueError for an unknown house rule or a value that is not true/false."""
    board = board or board_data.load()
    header: dict[str, Any] = {
        "game": "village",
        "version": RECORD_VERSION,
        "players": list(players),
        "first_player": first_player or players[0],
        "expansions": [],
        "data": board.values,
        "house_rules": house.house_rules(house_rules).to_json(),
    }
    header.update(extra)
    return header


def start(header: dict[str, Any]) -> GameState:
    """The state a header describes, before any action. Raises ReplayError."""
    if header.get("game") != "village":
        raise ReplayError(f"not a Village record: game = {header.get('game')!r}")
    if header.get("version") != RECORD_VERSION:
        raise ReplayError(f"unsupported record version {header.get('version')!r}")
    if header.get("expansions"):
        raise ReplayError(f"expansions not supported yet: {header['expansions']!r}")
    try:
        seats = [Color(c) for c in header["players"]]
        first = Color(header["first_player"]) if header.get("first_player") else None
        board = board_data.from_values(header["data"]) if "data" in header else board_data.load()
        rules = house.house_rules(header.get("house_rules"))  # absent: the documented reading
        return new_game(seats, board, first, rules)
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"bad header: {exc}") from exc


def replay(header: dict[str, Any], actions: list[dict[str, Any]]) -> GameState:
    """Apply every action of a record in order. Raises ReplayError naming the action."""
    st = start(header)
    for i, obj in enumerate(actions):
        try:
            st = apply(st, parse_action(obj))
        except RulesError as exc:
            raise ReplayError(f"action {i + 1} refused: {exc}", i, exc) from exc
    return st
