"""The Village game's catalogue of rule modules, and the merged rules of each combination.

This is the one place that names every module (the engine's core imports none of them):
their tables merge into a game's `Rules`, their action types into the record form every
game of Village parses, their public forms into what the table may see of an action.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ..actions import Action, RecordForms
from ..errors import IllegalAction, MalformedAction
from ..legal import legal_actions
from ..rules import Module, ModuleError, Rules, merge, record_forms
from ..state import GameState
from . import base, goals_module, life_goals, port, port_actions, port_data, port_module
from .module_data import PREFIXES

ORDER = ("port", "life_goals")
"""Every module besides the base game, in the order their tables merge."""

FACTORIES: dict[str, Callable[[], Module]] = {
    "base": base.module,
    "port": port_module.module,
    "life_goals": goals_module.module,
}

BUILDERS: dict[str, Callable[[dict[str, Any]], object]] = {
    "port": port_data.build_data,
    "life_goals": life_goals.build_data,
}
"""Per module, what builds its data from its printed values (raising BoardDataError)."""


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
    return merge(
        [FACTORIES["base"](), *(FACTORIES[n]() for n in canonical(names))], _catalogue()
    )


@functools.cache
def _catalogue() -> tuple[Module, ...]:
    return (FACTORIES["base"](), *(FACTORIES[n]() for n in ORDER))


@functools.cache
def every_rule() -> Rules:
    """The rules with every module on: the catalogue's record forms and public forms."""
    return rules_for(ORDER)


@functools.cache
def forms() -> RecordForms:
    """The record form of every action of Village and its modules."""
    return record_forms(_catalogue())


def parse_action(obj: Any) -> Action:
    """Build an action of Village or any of its modules from its record form. Raises
    MalformedAction for an unknown ``type``, a missing, extra or mistyped field."""
    return forms().parse(obj)


def validate(module: str, values: dict[str, Any]) -> None:
    """Build the module's data from ``values`` (its keys, resolved) to find what the schemas
    cannot say (a lane to an unknown zone, two islands with the cocoa stack). Raises
    BoardDataError naming the key."""
    prefix = PREFIXES[module]
    BUILDERS[module]({k: v for k, v in values.items() if k.startswith(prefix)})


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
        action = parse_action(obj)
    except MalformedAction:
        return obj
    return port_actions.public_form(action) or obj


def from_public(st: GameState, obj: dict[str, Any]) -> dict[str, Any]:
    """The record action a masked public form stands for (`is_masked`); ``obj`` itself when
    it is not one. Among several matches (treasures of different values) the holder's
    lowest-valued treasure is taken: tiles of one value are alike, and the companion cannot
    know which tile the hand put down (documented in docs/port-and-life-goals.md). Raises
    IllegalAction when no legal action has that public form."""
    if not is_masked(obj):
        return obj
    matches = [a for a in legal_actions(st) if public_option(a.to_json()) == obj]
    if not matches:
        raise IllegalAction(f"illegal: {obj!r} — no legal action matches", code="no_match")
    ps = port.port_of(st)
    data = ps.data if ps is not None else None

    def worth(action: Action) -> int:
        cargo = getattr(action, "cargo", ())
        tiles = [p[len("treasure:") :] for p in cargo if p.startswith("treasure:")]
        if data is None or ps is None:
            return 0
        return sum(port.treasure_value(ps, data, t) for t in tiles)

    return min(matches, key=worth).to_json()


def public_action(obj: dict[str, Any]) -> dict[str, Any]:
    """An action's record form as every player may see it: a module's private outcome (a
    goal deal, a treasure drawn) loses what only its player may know."""
    try:
        action = parse_action(obj)
    except MalformedAction:
        return obj
    for form in every_rule().public_forms:
        public = form(action)
        if public is not None:
            return public
    return obj
