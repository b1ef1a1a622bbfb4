"""Rule modules: the base game and each expansion as tables, merged once per game.

A ``Module`` lists what it adds or replaces: phases (with their pending decision, options
and chance draw), action handlers and chance checks, per-space options, member zones and
how death treats them, score adjustments, setup and after-action hooks, actions a player
may take at any moment, chance outcomes a player reports alone (a tile drawn by hand that
only they see), market sales, invariants, views and public forms, its action types and
their record form, and its words (headlines, places, steps, pending texts, refusals of the
spaces it replaces). ``Rules`` is the merge for one game (base first), carried by the
state; the engine's entry points, the narration and the record form are lookups in it, so
the base code never asks which expansion is on and no module changes the engine's globals.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import BASE_FORMS
from .config import GameConfig
from .vocabulary import PhaseName

if TYPE_CHECKING:
    from companion.games.chance import ChanceSpec
    from companion.games.hand_reports import SealedShare

    from .actions import Action, RecordForms
    from .pending import Pending
    from .state import GameState
    from .table_parts import TableParts
    from .vocabulary import Color, MemberId, Section, Space

StateFn = Callable[["GameState"], None]
SetupFn = Callable[["GameState", "GameConfig"], None]
Options = Callable[["GameState"], list["Action"]]
Handler = Callable[["GameState", "Action"], None]
Check = Callable[["GameState", "Action"], None]
SpaceOptions = Callable[["GameState", "Color"], list["Action"]]
SpaceAny = Callable[["GameState", "Color"], bool]  # bool(SpaceOptions), without the list
PlayerOptions = Callable[["GameState", "Color"], list["Action"]]
BuryFn = Callable[["GameState", "MemberId"], None]
ScoreFn = Callable[["GameState", "Color", dict[str, int]], None]
ViewFn = Callable[["GameState", dict[str, Any], "str | None"], None]  # None: see all
PublicFn = Callable[["Action"], "dict[str, Any] | None"]
InvariantFn = Callable[["GameState"], list[str]]
Explain = Callable[["GameState", "Action"], str]  # why a module's action is refused now
Canonical = Callable[["GameState", "Action"], "Action"]  # interchangeable pieces → one option
Parser = Callable[[Any], Any]  # one action field's record form → its value
Headline = Callable[["GameState", Any, "GameState", str], str]  # before, action, after, viewer
PlaceFn = Callable[[Any], str]  # a zone's detail → where, in words
NowFn = Callable[["GameState", "Pending"], str]  # what a pending step asks, in words
StepsFn = Callable[["GameState", Any], list[str]]  # how a person picks an action, tap by tap
NoteFn = Callable[["GameState", Any], str]  # why an option is the only one offered ("" if not)
RefusalFn = Callable[["GameState", "Color"], str]  # why a space's action is out of reach
ShareFn = Callable[["GameState", str, dict[str, Any]], "SealedShare | None"]
DealFn = Callable[[str, dict[str, str]], "dict[str, Any] | None"]  # None: not its draw


@dataclass(frozen=True, slots=True)
class Phase:
    """A step the game can wait at. ``pending`` names who decides (its ``kind`` is the
    phase's name); ``options`` lists exactly the legal decisions; ``chance`` describes the
    draw when the step is a chance point."""

    pending: Callable[[GameState], Pending]
    options: Options
    chance: Callable[[GameState], ChanceSpec | None] | None = None


@dataclass(frozen=True, slots=True)
class Zone:
    """A place a member can be: seen on the table (may die), dead, the chronicle section a
    death there goes to, and whether the Family action may bring the member home."""

    visible: bool = False
    dead: bool = False
    section: Section | None = None
    recallable: bool = False


@dataclass(frozen=True, slots=True)
class Module:
    name: str
    phases: Mapping[PhaseName, Phase] = field(default_factory=dict)
    handlers: Mapping[type[Action], Handler] = field(default_factory=dict)
    chance_checks: Mapping[type[Action], Check] = field(default_factory=dict)
    space_options: Mapping[Space, SpaceOptions] = field(default_factory=dict)
    # whether a space's options are not empty, without listing them (default: listed)
    space_any: Mapping[Space, SpaceAny] = field(default_factory=dict)
    replaces_spaces: frozenset[Space] = frozenset()  # space options this module overrides
    zones: Mapping[str, Zone] = field(default_factory=dict)
    burials: Mapping[str, BuryFn] = field(default_factory=dict)  # by the zone of the death
    market_sales: tuple[PlayerOptions, ...] = ()
    anytime: tuple[PlayerOptions, ...] = ()
    hand_reports: tuple[PlayerOptions, ...] = ()  # a player's own share of a chance step
    setup: tuple[SetupFn, ...] = ()
    after_apply: tuple[StateFn, ...] = ()
    score: tuple[ScoreFn, ...] = ()
    invariants: tuple[InvariantFn, ...] = ()
    views: tuple[ViewFn, ...] = ()
    public_forms: tuple[PublicFn, ...] = ()
    explains: Mapping[type[Action], Explain] = field(default_factory=dict)
    canonical: Mapping[type[Action], Canonical] = field(default_factory=dict)
    action_types: tuple[type[Action], ...] = ()  # the record form's types this module adds
    field_parsers: Mapping[str, Parser] = field(default_factory=dict)  # and their fields
    headlines: Mapping[type[Action], Headline] = field(default_factory=dict)
    places: Mapping[str, PlaceFn] = field(default_factory=dict)  # by zone
    now: Mapping[str, NowFn] = field(default_factory=dict)  # by pending kind
    steps: Mapping[type[Action], StepsFn] = field(default_factory=dict)
    space_refusals: Mapping[Space, RefusalFn] = field(default_factory=dict)  # replaced spaces
    option_notes: Mapping[type[Action], NoteFn] = field(default_factory=dict)
    table_parts: TableParts | None = None  # its pieces on the table, for the moves' words
    sealed_shares: ShareFn | None = None  # hand reports kept sealed until a draw's are in
    sealed_deal: DealFn | None = None  # and the record dealing them


def steps(table: Mapping[str, Phase]) -> dict[PhaseName, Phase]:
    """A module's ``phases`` table written with plain step names."""
    return {PhaseName(name): phase for name, phase in table.items()}


class ModuleError(ValueError):
    """Two modules claim the same table entry, or a module is unknown."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The merged tables of one game's modules (base first)."""

    modules: tuple[str, ...]
    phases: dict[PhaseName, Phase]
    handlers: dict[type[Action], Handler]
    chance_checks: dict[type[Action], Check]
    space_options: dict[Space, SpaceOptions]
    space_any: dict[Space, SpaceAny]  # bool(space_options[s](st, c)), from the same module
    zones: dict[str, Zone]
    visible_zones: frozenset[str]
    dead_zones: frozenset[str]
    recallable_zones: frozenset[str]
    section_of_zone: dict[str, Section]
    burials: dict[str, BuryFn]
    market_sales: tuple[PlayerOptions, ...]
    anytime: tuple[PlayerOptions, ...]
    hand_reports: tuple[PlayerOptions, ...]
    setup: tuple[SetupFn, ...]
    after_apply: tuple[StateFn, ...]
    score: tuple[ScoreFn, ...]
    invariants: tuple[InvariantFn, ...]
    views: tuple[ViewFn, ...]
    public_forms: tuple[PublicFn, ...]
    explains: dict[type[Action], Explain]
    canonical: dict[type[Action], Canonical]
    forms: RecordForms  # every action type of the game's catalogue (parsing knows them all)
    headlines: dict[type[Action], Headline]
    places: dict[str, PlaceFn]
    now: dict[str, NowFn]
    steps: dict[type[Action], StepsFn]
    space_refusals: dict[Space, RefusalFn]
    option_notes: dict[type[Action], NoteFn]
    table_parts: tuple[TableParts, ...]
    sealed_shares: tuple[ShareFn, ...]
    sealed_deals: tuple[DealFn, ...]

    def is_chance(self, phase: PhaseName) -> bool:
        return self.phases[phase].chance is not None


def _merge(into: dict[Any, Any], items: Mapping[Any, Any], what: str, name: str) -> None:
    clash = set(into) & set(items)
    if clash:
        raise ModuleError(f"module {name!r} redefines {what} {sorted(map(str, clash))}")
    into.update(items)


def record_forms(modules: Sequence[Module]) -> RecordForms:
    """The record form of every action type these modules define (the base game's first).
    Raises ModuleError when two define one type or field differently."""
    forms = BASE_FORMS
    for m in modules:
        try:
            forms = forms.with_types(m.action_types, m.field_parsers)
        except ValueError as exc:
            raise ModuleError(f"module {m.name!r}: {exc}") from None
    return forms


def _listed(options: SpaceOptions) -> SpaceAny:
    """A space's "any option?" answered by listing its options."""
    def any_option(st: GameState, c: Color) -> bool:
        return bool(options(st, c))
    return any_option


def merge(modules: Sequence[Module], catalogue: Sequence[Module] | None = None) -> Rules:
    """The rules of a game with these modules, in order; ``catalogue``: every module of the
    game, switched on or not (default: these), whose action types the record form parses
    (an action of a module that is off is then refused by the engine with the reason, not
    taken for a typo). Raises ModuleError when two modules claim the same phase, action,
    zone or space (a module may replace a space's options only by naming it in
    ``replaces_spaces``, and its refusal text with it)."""
    phases: dict[PhaseName, Phase] = {}
    handlers: dict[type[Action], Handler] = {}
    checks: dict[type[Action], Check] = {}
    spaces: dict[Space, SpaceOptions] = {}
    space_any: dict[Space, SpaceAny] = {}
    zones: dict[str, Zone] = {}
    burials: dict[str, BuryFn] = {}
    explains: dict[type[Action], Explain] = {}
    canonical: dict[type[Action], Canonical] = {}
    headlines: dict[type[Action], Headline] = {}
    places: dict[str, PlaceFn] = {}
    now: dict[str, NowFn] = {}
    steps: dict[type[Action], StepsFn] = {}
    refusals: dict[Space, RefusalFn] = {}
    notes: dict[type[Action], NoteFn] = {}
    for m in modules:
        _merge(notes, m.option_notes, "option notes", m.name)
        _merge(headlines, m.headlines, "headlines", m.name)
        _merge(places, m.places, "places", m.name)
        _merge(now, m.now, "pending texts", m.name)
        _merge(steps, m.steps, "option steps", m.name)
        own = {s: f for s, f in m.space_refusals.items() if s not in m.replaces_spaces}
        _merge(refusals, own, "space refusals", m.name)
        refusals.update({s: f for s, f in m.space_refusals.items() if s in m.replaces_spaces})
        _merge(canonical, m.canonical, "canonical forms", m.name)
        _merge(explains, m.explains, "refusal texts", m.name)
        _merge(phases, m.phases, "phases", m.name)
        _merge(handlers, m.handlers, "actions", m.name)
        _merge(checks, m.chance_checks, "chance actions", m.name)
        _merge(zones, m.zones, "zones", m.name)
        _merge(burials, m.burials, "burials", m.name)
        replaced = {s: f for s, f in m.space_options.items() if s in m.replaces_spaces}
        _merge(
            spaces,
            {s: f for s, f in m.space_options.items() if s not in replaced},
            "spaces",
            m.name,
        )
        spaces.update(replaced)
        space_any.update({s: m.space_any.get(s) or _listed(f) for s, f in m.space_options.items()})

    def cat(attr: str) -> tuple[Any, ...]:
        return tuple(f for m in modules for f in getattr(m, attr))

    return Rules(
        modules=tuple(m.name for m in modules),
        phases=phases,
        handlers=handlers,
        chance_checks=checks,
        space_options=spaces,
        space_any=space_any,
        zones=zones,
        visible_zones=frozenset(z for z, i in zones.items() if i.visible),
        dead_zones=frozenset(z for z, i in zones.items() if i.dead),
        recallable_zones=frozenset(z for z, i in zones.items() if i.recallable),
        section_of_zone={z: i.section for z, i in zones.items() if i.section is not None},
        burials=burials,
        market_sales=cat("market_sales"),
        anytime=cat("anytime"),
        hand_reports=cat("hand_reports"),
        setup=cat("setup"),
        after_apply=cat("after_apply"),
        score=cat("score"),
        invariants=cat("invariants"),
        views=cat("views"),
        public_forms=cat("public_forms"),
        explains=explains,
        canonical=canonical,
        forms=record_forms(catalogue if catalogue is not None else modules),
        headlines=headlines,
        places=places,
        now=now,
        steps=steps,
        space_refusals=refusals,
        option_notes=notes,
        table_parts=tuple(m.table_parts for m in modules if m.table_parts is not None),
        sealed_shares=tuple(m.sealed_shares for m in modules if m.sealed_shares is not None),
        sealed_deals=tuple(m.sealed_deal for m in modules if m.sealed_deal is not None),
    )
