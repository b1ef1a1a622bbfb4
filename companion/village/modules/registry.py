"""The modules a game can switch on, and the merged rules of each combination.

Importing this registers every module's action types with the record form and its chance
kinds with the virtual bags, whatever a given game switches on.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import actions, chance, narrate, options
from ..errors import MalformedAction
from ..rules import Module, ModuleError, Rules, merge
from . import base, goal_actions, narration, port_actions

ORDER = ("port", "life_goals")
"""Every module besides the base game, in the order their tables merge."""

actions.register(port_actions.PORT_ACTIONS, port_actions.FIELD_PARSERS)
actions.register((goal_actions.DealGoals, goal_actions.ClaimGoal), goal_actions.FIELD_PARSERS)
chance.OUTCOMES.update(
    {
        "deal_silver": goal_actions.deal_outcome,
        "deal_gold": goal_actions.deal_outcome,
        "draw_treasure": port_actions.treasure_outcome,
    }
)
narrate.MODULE_HEADLINES.update(narration.HEADLINES)
narrate.MODULE_PLACES.update(narration.PLACES)
narrate.MODULE_NOW.update(narration.NOW)
options.MODULE_STEPS.update(narration.STEPS)
PUBLIC_FORMS = (base.public_form, port_actions.public_form, goal_actions.public_form)


HEADER_OPTIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "life_goals": {"goal_claims": ("manual", "auto")},
}
"""Per module, the record-header fields it adds: name → the values accepted (the first is
the default)."""


def header_options(modules: tuple[str, ...], given: Mapping[str, Any]) -> dict[str, str]:
    """The header fields the modules switched on add, taken from ``given`` (missing: the
    default). Raises ValueError for a value not accepted."""
    out: dict[str, str] = {}
    for module in modules:
        for name, accepted in HEADER_OPTIONS.get(module, {}).items():
            value = given.get(name, accepted[0])
            if value not in accepted:
                raise ValueError(f"{name} is one of {accepted}, got {value!r}")
            out[name] = value
    return out


def _factories() -> dict[str, Callable[[], Module]]:
    from . import goals_module, port_module

    return {"base": base.module, "life_goals": goals_module.module, "port": port_module.module}


def canonical(names: Iterable[str]) -> tuple[str, ...]:
    """The modules named, in merge order, each once. Raises ModuleError for an unknown one."""
    wanted = set(names)
    unknown = sorted(wanted - set(ORDER))
    if unknown:
        raise ModuleError(f"unknown module(s) {unknown}; known: {list(ORDER)}")
    return tuple(m for m in ORDER if m in wanted)


@functools.cache
def rules_for(names: tuple[str, ...]) -> Rules:
    """The rules of a game with the base game and these modules (built once per set).
    Raises ModuleError for an unknown module."""
    factories = _factories()
    return merge([factories["base"](), *(factories[n]() for n in canonical(names))])


def public_action(obj: dict[str, Any]) -> dict[str, Any]:
    """An action's record form as every player may see it: a module's private outcome (a
    goal deal, a treasure drawn) loses what only its player may know."""
    try:
        action = actions.parse_action(obj)
    except MalformedAction:
        return obj
    for form in PUBLIC_FORMS:
        public = form(action)
        if public is not None:
            return public
    return obj
