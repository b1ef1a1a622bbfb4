"""Game headers and replay: a record is a header then actions, and the state is their replay.

The header holds the seat order, the first player and the board data in force, so a
record replays identically on any installation whatever its box check says later.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.errors import ReplayError, RulesError

from . import box_values, house
from . import data as board_data
from .config import GameConfig
from .engine import apply
from .modules.module_data import PREFIXES, require_keys, shipped_values
from .modules.registry import canonical, header_options, parse_action, rules_for
from .state import GameState, new_game
from .vocabulary import Color

RECORD_VERSION = 1


def make_header(
    players: list[str],
    first_player: str | None = None,
    board: board_data.BoardData | None = None,
    house_rules: dict[str, Any] | None = None,
    modules: Iterable[str] = (),
    module_values: dict[str, Any] | None = None,
    goal_claims: str = "manual",
    **extra: Any,
) -> dict[str, Any]:
    """A record header for a new game; ``board`` defaults to the shipped values plus none;
    ``house_rules`` (name → true/false, missing names take their default) is stored whole.
    ``modules`` (``port``, ``life_goals``) go in ``expansions``, their printed values
    (default: shipped) beside the base game's in ``data``, and with life goals the choice
    ``goal_claims`` (``manual`` or ``auto``). Raises ValueError for an unknown house rule,
    module or claiming choice."""
    board = board or box_values.load()
    mods = canonical(modules)
    data = dict(board.values)
    if mods:
        values = module_values
        if values is None:
            values = {k: v for m in mods for k, v in shipped_values(m).items()}
        data.update(values)
    header: dict[str, Any] = {
        "game": "village",
        "version": RECORD_VERSION,
        "players": list(players),
        "first_player": first_player or players[0],
        "expansions": list(mods),
        "data": data,
        "house_rules": house.house_rules(house_rules).to_json(),
    }
    header.update(header_options(mods, {"goal_claims": goal_claims}))
    header.update(extra)
    return header


def split_data(
    values: dict[str, Any], modules: tuple[str, ...]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A header's ``data``: the base game's values and the modules'. Each module switched on
    needs all its keys; keys of a module that is off are refused. Raises ValueError."""
    base = {k: v for k, v in values.items() if not k.startswith(tuple(PREFIXES.values()))}
    extra = {k: v for k, v in values.items() if k not in base}
    for module, prefix in PREFIXES.items():
        keys = [k for k in extra if k.startswith(prefix)]
        if module in modules:
            require_keys(module, extra)
        elif keys:
            raise ValueError(f"data holds {module} values {sorted(keys)[:3]} but {module} is off")
    return base, extra


def start(header: dict[str, Any]) -> GameState:
    """The state a header describes, before any action. Raises ReplayError."""
    if header.get("game") != "village":
        raise ReplayError(f"not a Village record: game = {header.get('game')!r}")
    if header.get("version") != RECORD_VERSION:
        raise ReplayError(f"unsupported record version {header.get('version')!r}")
    try:
        mods = canonical(header.get("expansions") or [])
        seats = [Color(c) for c in header["players"]]
        first = Color(header["first_player"]) if header.get("first_player") else None
        if "data" in header:
            base, extra = split_data(header["data"], mods)
            board = board_data.from_values(base)
        else:
            board = box_values.load()
            extra = {k: v for m in mods for k, v in shipped_values(m).items()}
        house_rules = house.house_rules(header.get("house_rules"))  # absent: documented
        claims = header_options(mods, header).get("goal_claims", "manual")
        config = GameConfig(mods, extra, claims)
        return new_game(seats, board, first, house_rules, config, rules=rules_for(mods))
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"bad header: {exc}") from exc


def replay(header: dict[str, Any], actions: list[dict[str, Any]]) -> GameState:
    """Apply every action of a record in order; fields whose name starts with ``_`` are
    annotations (e.g. a sensor's ``_observed`` evidence) and are not part of the action.
    Raises ReplayError naming the action."""
    st = start(header)
    for i, obj in enumerate(actions):
        if any(k.startswith("_") for k in obj):
            obj = {k: val for k, val in obj.items() if not k.startswith("_")}
        try:
            st = apply(st, parse_action(obj))
        except RulesError as exc:
            raise ReplayError(f"action {i + 1} refused: {exc}", i, exc) from exc
    return st
