"""The base game (seed 000) as a rule module: its steps, actions, spaces and zones."""

from __future__ import annotations

from typing import Any

from .. import chance, handlers, legal, space_any
from ..actions import Action, Serve
from ..pending import BASE_STEPS as P
from ..rules import Module, Phase, Zone, steps
from ..vocabulary import Section, Space


def public_form(action: Action) -> dict[str, Any] | None:
    """Which customer a sale took is face down (seed 000 « Marché »): a ``serve`` loses its
    slot and payment on the public feed."""
    if isinstance(action, Serve):
        return {"type": "serve", "player": action.player.value, "hidden": ["slot", "pay"]}
    return None


def module() -> Module:
    """The base game's tables (every game has them)."""
    return Module(
        name="base",
        phases=steps({
            "reveal_customers": Phase(P["reveal_customers"], legal.no_options, chance.reveal_spec),
            "fill_bag": Phase(P["fill_bag"], legal.no_options, chance.fill_spec),
            "mass_draw": Phase(P["mass_draw"], legal.no_options, chance.draw_spec),
            "turn": Phase(P["turn"], legal.turn_options),
            "action": Phase(P["action"], legal.action_options),
            "privilege": Phase(P["privilege"], legal.privilege_step_options),
            "market": Phase(P["market"], legal.market_options),
            "death": Phase(P["death"], legal.death_options),
            "buyout": Phase(P["buyout"], legal.buyout_step_options),
            "church_move": Phase(P["church_move"], legal.move_options),
            "over": Phase(P["over"], legal.no_options),
        }),
        handlers=handlers.HANDLERS,
        chance_checks=chance.CHANCE_CHECKS,
        space_options={
            Space.HARVEST: legal.harvest_options,
            Space.FAMILY: legal.family_options,
            Space.CRAFTS: legal.craft_options,
            Space.MARKET: legal.no_space_options,
            Space.TRAVEL: legal.travel_options,
            Space.COUNCIL: legal.council_options,
            Space.CHURCH: legal.church_options,
        },
        space_any={
            Space.HARVEST: space_any.harvest_any,
            Space.FAMILY: space_any.family_any,
            Space.CRAFTS: space_any.craft_any,
            Space.MARKET: space_any.no_any,
            Space.TRAVEL: space_any.travel_any,
            Space.COUNCIL: space_any.council_any,
            Space.CHURCH: space_any.church_any,
        },
        zones={
            "unborn": Zone(),
            "farm": Zone(visible=True, section=Section.FARM),
            "craft": Zone(visible=True, section=Section.CRAFTS, recallable=True),
            "council": Zone(visible=True, section=Section.COUNCIL, recallable=True),
            "travel": Zone(visible=True, section=Section.TRAVEL, recallable=True),
            "church": Zone(visible=True, section=Section.CHURCH, recallable=True),
            "bag": Zone(),
            "chronicle": Zone(dead=True),
            "grave": Zone(dead=True),
            "removed": Zone(dead=True),
        },
        public_forms=(public_form,),
    )
