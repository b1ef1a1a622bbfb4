"""*Le Port* as a rule module: the Travel space becomes the voyage (steps ``voyage`` and
``draw_treasure``), cocoa and tea join the market day, deaths on a hold or a mission
church go to the Travel section or the sea cemetery, treasures are cashed at any moment,
and the final scoring has no Travel step. The rules themselves are in ``port.py``."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.games.chance import ChanceSpec

from .. import deaths, flow
from ..actions import Action
from ..config import GameConfig
from ..pending import Pending
from ..rules import Module, Phase, Zone, steps
from ..state import GameState
from ..vocabulary import INFLUENCE, Color, MemberId, PhaseName, Section, Space
from . import narration, port_table
from . import port as pt
from .port_actions import (
    FIELD_PARSERS,
    PORT_ACTIONS,
    VOYAGE_ACTIONS,
    CashTreasure,
    DrawTreasure,
    LeaveIsland,
    Load,
    Recruit,
    SellExotic,
    public_form,
    treasure_outcome,
)
from .port_data import PortData, build_data


def _ps(st: GameState) -> pt.PortState:
    ps = pt.port_of(st)
    assert ps is not None
    return ps


def _data(st: GameState) -> PortData:
    data = _ps(st).data
    assert data is not None
    return data


def setup(st: GameState, cfg: GameConfig) -> None:
    """PS2–PS11: the sea board, ships, captains, stacks; the Port setup tile's numbers for
    the green bag (PS3); the 12 extra cubes in the supply (PS11)."""
    data = build_data({k: v for k, v in cfg.values.items() if k.startswith("port.")})
    st.modules["port"] = pt.new_port(st.players, data)
    st.data = replace(st.data, bag=data.bag, space_cubes=data.space_cubes)
    pt.add_extra_cubes(st.supply, data)
    st.cube_totals = {c: st.cube_totals[c] + data.extra_cubes.get(c, 0) for c in INFLUENCE}


def travel_options(st: GameState, c: Color) -> list[Action]:
    """The Travel space under Port: the first step of a voyage (PV1)."""
    ps = _ps(st).clone()
    pt.start_voyage(st, ps, c)
    return pt.voyage_options(st, ps, _data(st))


def _voyage(st: GameState, a: Action) -> None:
    ps = _ps(st)
    if ps.voyage is None:  # the first step, chosen at the Travel space's action
        pt.start_voyage(st, ps, st.current_color)
    over = pt.apply_voyage(st, ps, _data(st), a)
    if over:
        flow.finish_action(st)
    elif ps.voyage is not None and ps.voyage.step == "treasure":
        st.phase = PhaseName("draw_treasure")
    else:
        st.phase = PhaseName("voyage")


def _voyage_pending(st: GameState) -> Pending:
    v = _ps(st).voyage
    assert v is not None
    zone = _ps(st).ships[v.player].zone
    return Pending(PhaseName("voyage"), v.player, {"step": v.step, "zone": zone, "moves": v.moves})


def _voyage_options(st: GameState) -> list[Action]:
    return pt.voyage_options(st, _ps(st), _data(st))


def _treasure_pending(st: GameState) -> Pending:
    return Pending(PhaseName("draw_treasure"), None, {"left": len(_ps(st).treasures)})


def _treasure_spec(st: GameState) -> ChanceSpec:
    return ChanceSpec(
        "draw_treasure", pt.draw_treasure_spec(_ps(st)), 1, ("hold",), outcome=treasure_outcome
    )


def _no_options(st: GameState) -> list[Action]:
    return []


def _check_draw(st: GameState, a: Action) -> None:
    assert isinstance(a, DrawTreasure)
    pt.apply_draw_treasure(_ps(st).clone(), a)


def _draw(st: GameState, a: Action) -> None:
    assert isinstance(a, DrawTreasure)
    pt.apply_draw_treasure(_ps(st), a)
    st.phase = PhaseName("voyage")


def market_sales(st: GameState, c: Color) -> list[Action]:
    """PM2–PM4: cocoa and tea from the farm at the two new stalls."""
    return pt.exotic_sales(st, _ps(st), c, flow.serve_cost_free(st, c))


def _sell(st: GameState, a: Action) -> None:
    assert isinstance(a, SellExotic) and st.day is not None
    pt.sell_exotic(st, _ps(st), _data(st), a, flow.serve_cost_free(st, a.player))
    st.day.turn = st.after(a.player)[0]
    flow.continue_market(st)


def cash_options(st: GameState, c: Color) -> list[Action]:
    return pt.cash_options(_ps(st), c)


def _cash(st: GameState, a: Action) -> None:
    assert isinstance(a, CashTreasure)
    pt.cash_treasure(st, _ps(st), _data(st), a)


def bury(st: GameState, member: MemberId) -> None:
    """PD1–PD2, PE2: a death on a hold or a mission church."""
    cause = pt.bury_at_sea(st, _ps(st), _data(st), member)
    if cause:
        deaths.trigger_end(st, member, cause)


def no_travel_score(st: GameState, color: Color, parts: dict[str, int]) -> None:
    """PE4: skip the Travel step of the final scoring."""
    parts["travel"] = 0


def treasures_at_the_end(st: GameState, color: Color, parts: dict[str, int]) -> None:
    """Ambiguity 7: once the game is over, a treasure unloaded and never cashed counts as
    its coins (before that its value is private, so it stays out of the shown score); a
    treasure still on the hold counts nothing."""
    if st.phase == "over":
        data = _data(st)
        ps = _ps(st)
        parts["coins"] += sum(pt.treasure_value(ps, data, t) for t in ps.ships[color].treasures)


def canonical_voyage(st: GameState, a: Action) -> Action:
    """Interchangeable members on a load, and (PV3 « n'importe quel capitaine de
    n'importe quelle pile ») a captain card alike to a listed one (same cost and rate):
    the same choice as the one listed."""
    return pt.canonical(st, _ps(st), _data(st), a)


def explain(st: GameState, a: Action) -> str:
    if isinstance(a, SellExotic):
        return (
            "seed 003 « Marché » (PM2–PM4): on your market turn, a cocoa or tea unloaded on "
            "your farm, 1 green and 1 time unless it is the trigger's first sale"
        )
    if isinstance(a, CashTreasure):
        return "seed 003 (PV31): only a treasure unloaded at port, in front of you"
    ps = _ps(st).clone()
    if ps.voyage is None:
        pt.start_voyage(st, ps, a.player if hasattr(a, "player") else st.current_color)
    return pt.refusal(st, ps, _data(st), a) or "seed 003 « Voyage »"


def invariants(st: GameState) -> list[str]:
    return pt.violations(st, _ps(st), _data(st))


def treasure_reports(st: GameState, color: Color) -> list[Action]:
    """PV21–PV22 at a table drawing the real tiles: the player who takes a treasure sees
    its value and reports it on their own page, one choice per printed value."""
    voyage = _ps(st).voyage
    if st.phase != "draw_treasure" or voyage is None or voyage.player != color:
        return []
    return [DrawTreasure(tile) for tile in pt.treasure_values(_ps(st)).values()]


def view(st: GameState, out: dict[str, Any], viewer: str | None) -> None:
    out["port"] = pt.view(_ps(st), None if st.phase == "over" else viewer)
    if viewer is not None and viewer in {c.value for c in st.players}:
        offer = treasure_reports(st, Color(viewer))
        if offer:  # the drawer's page: which value the tile taken by hand shows
            values = {t: c for c, t in pt.treasure_values(_ps(st)).items()}
            out["port"]["to_report"] = [
                {"tile": a.tile, "coins": values[a.tile]}
                for a in offer
                if isinstance(a, DrawTreasure)
            ]


def module() -> Module:
    at_sea = Zone(visible=True, section=Section.TRAVEL)  # not recallable (PF1)
    return Module(
        name="port",
        phases=steps({
            "voyage": Phase(_voyage_pending, _voyage_options),
            "draw_treasure": Phase(_treasure_pending, _no_options, _treasure_spec),
        }),
        handlers={
            **dict.fromkeys(VOYAGE_ACTIONS, _voyage),
            SellExotic: _sell,
            CashTreasure: _cash,
            DrawTreasure: _draw,
        },
        chance_checks={DrawTreasure: _check_draw},
        space_options={Space.TRAVEL: travel_options},
        replaces_spaces=frozenset({Space.TRAVEL}),
        zones={"hold": at_sea, "mission": at_sea, "sea": Zone(dead=True)},
        burials={"hold": bury, "mission": bury},
        market_sales=(market_sales,),
        anytime=(cash_options,),
        hand_reports=(treasure_reports,),
        setup=(setup,),
        score=(no_travel_score, treasures_at_the_end),
        invariants=(invariants,),
        views=(view,),
        explains={
            **dict.fromkeys(VOYAGE_ACTIONS, explain),
            SellExotic: explain,
            CashTreasure: explain,
        },
        canonical={Load: canonical_voyage, Recruit: canonical_voyage},
        action_types=PORT_ACTIONS,
        field_parsers=FIELD_PARSERS,
        public_forms=(public_form,),
        headlines=dict.fromkeys(PORT_ACTIONS, narration.headline),
        places=narration.PLACES,
        now=narration.PORT_NOW,
        steps=dict.fromkeys(PORT_ACTIONS, narration.steps),
        space_refusals={Space.TRAVEL: narration.travel_refusal},
        option_notes={LeaveIsland: _leave_note},
        table_parts=port_table.parts(),
    )


def _leave_note(st: GameState, a: Action) -> str:
    """Leaving an island: why the island offers nothing else, or ""."""
    from .port_words import island_reasons

    why = island_reasons(st, a.player)  # type: ignore[attr-defined]
    return "Not here: " + "; ".join(why) + "." if why else ""
