"""Village (Descendance): the rules engine, pure and data-driven.

    from companion.village import new_game, apply, legal_actions, pending, load_board
    st = new_game(["red", "blue"], load_board())

Everything a client needs is re-exported here; see ``docs/engine.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from companion.games.chance import ChanceSpec
from companion.games.errors import ReplayError

from . import narrate
from .actions import Action
from .box_values import load as load_board
from .chance import chance_spec
from .config import GameConfig
from .data import BoardData
from .engine import (
    Pending,
    anytime_actions,
    apply,
    apply_unchecked,
    hand_reports,
    is_chance,
    is_legal,
    legal_actions,
    pending,
    resolve,
)
from .errors import AmbiguousAction, IllegalAction, MalformedAction, RulesError
from .house import HOUSE_RULES, HouseRules, house_rules
from .modules.module_data import shipped_values
from .modules.registry import (
    canonical,
    forms,
    from_public,
    is_masked,
    parse_action,
    public_action,
    public_option,
    rules_for,
)
from .picture import Picture, picture
from .record import make_header, replay, start
from .state import GameState
from .state import new_game as _new_game
from .summary import summary, view
from .vocabulary import Color


def new_game(
    players: list[str] | list[Color],
    board: BoardData | None = None,
    first_player: str | None = None,
    *,
    modules: Iterable[str] = (),
    module_values: dict[str, Any] | None = None,
    goal_claims: str = "manual",
) -> GameState:
    """A new game in seat order (colours as text or Color), with the rule modules named
    (``port``, ``life_goals``), their printed values (default: shipped) and, for life
    goals, ``goal_claims`` ``manual`` or ``auto``. Raises ValueError if bad."""
    mods = canonical(modules)
    values = module_values if module_values is not None else module_defaults(mods)
    return _new_game(
        [Color(c) for c in players],
        board or load_board(),
        Color(first_player) if first_player else None,
        config=GameConfig(mods, values, goal_claims),
        rules=rules_for(mods),
    )


ACTION_TYPES = forms().types
"""Every action type of Village and its modules, by its record ``type``."""


def module_defaults(modules: Iterable[str]) -> dict[str, Any]:
    """The shipped printed values of these modules (``port.*``, ``goals.*``)."""
    out: dict[str, Any] = {}
    for m in modules:
        out.update(shipped_values(m))
    return out


__all__ = [
    "ACTION_TYPES",
    "HOUSE_RULES",
    "Action",
    "AmbiguousAction",
    "BoardData",
    "ChanceSpec",
    "Color",
    "GameState",
    "HouseRules",
    "IllegalAction",
    "MalformedAction",
    "Pending",
    "Picture",
    "ReplayError",
    "RulesError",
    "anytime_actions",
    "apply",
    "apply_unchecked",
    "chance_spec",
    "from_public",
    "hand_reports",
    "house_rules",
    "is_chance",
    "is_legal",
    "is_masked",
    "legal_actions",
    "load_board",
    "make_header",
    "narrate",
    "new_game",
    "parse_action",
    "pending",
    "picture",
    "public_action",
    "public_option",
    "replay",
    "resolve",
    "start",
    "summary",
    "view",
]
