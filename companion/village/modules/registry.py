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


def is_masked(obj: dict[str, Any]) -> bool:
    """Whether ``obj`` is a public option (`public_option`) that hides a private piece (a
    treasure loaded onto a hold, named ``treasure:?``): the table picks it without the tile."""
    cargo = obj.get("cargo")
    return obj.get("type") == "load" and isinstance(cargo, list) and (
        port_actions.MASKED_TREASURE in cargo
    )


def public_option(obj: dict[str, Any]) -> dict[str, Any]:
    """A legal option as the table's pages may list it: a private piece the table cannot
    know is masked (which treasure tile goes onto a hold); the rest is chosen in view of
    everyone, so it stays as it is (a sale names its stall: the tile is face up there)."""
    if obj.get("type") != "load":
        return obj
    try:
        action = actions.parse_action(obj)
    except MalformedAction:
        return obj
    return port_actions.public_form(action) or obj


def from_public(st: Any, obj: dict[str, Any]) -> dict[str, Any]:
    """The record action a masked public form stands for (`is_masked`); ``obj`` itself when
    it is not one. Among several matches (treasures of different values) the holder's
    lowest-valued treasure is taken: tiles of one value are alike, and the companion cannot
    know which tile the hand put down (documented in docs/port-and-life-goals.md). Raises
    IllegalAction when no legal action has that public form."""
    if not is_masked(obj):
        return obj
    from ..errors import IllegalAction
    from ..legal import legal_actions

    matches = [a for a in legal_actions(st) if public_option(a.to_json()) == obj]
    if not matches:
        raise IllegalAction(f"illegal: {obj!r} — no legal action matches", code="no_match")
    data = st.port.data if st.port is not None else None

    def worth(action: actions.Action) -> int:
        cargo = getattr(action, "cargo", ())
        tiles = [p[len("treasure:") :] for p in cargo if p.startswith("treasure:")]
        from . import port

        if data is None or st.port is None:
            return 0
        return sum(port.treasure_value(st.port, data, t) for t in tiles)

    return min(matches, key=worth).to_json()


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
