"""Life goals as a rule module: the deal before the first fill (two chance steps, silver
then gold, each hand private), claims at any moment, automatic claiming when the game
says so, the goals hidden from the others until claimed."""

from __future__ import annotations

from typing import Any

from ..actions import Action
from ..config import GameConfig
from ..errors import IllegalAction
from ..pending import Pending
from ..rules import Module, Phase, steps
from ..state import GameState
from ..vocabulary import Color, PhaseName
from . import goal_table, narration
from . import life_goals as lg
from .goal_actions import (
    FIELD_PARSERS,
    PHASE_OF_TIER,
    ClaimGoal,
    DealGoals,
    deal_spec,
    public_form,
    sealed_deal,
    sealed_share,
)
from .goal_words import condition
from .port import port_of

NEXT = {"deal_silver": PhaseName("deal_gold"), "deal_gold": PhaseName("fill_bag")}
TIER_OF_PHASE = {v: k for k, v in PHASE_OF_TIER.items()}


def _gs(st: GameState) -> lg.GoalsState:
    gs = lg.goals_of(st)
    assert gs is not None and gs.data is not None
    return gs


def _data(st: GameState) -> lg.GoalsData:
    data = _gs(st).data
    assert data is not None
    return data


def setup(st: GameState, cfg: GameConfig) -> None:
    """LS2: after the setup, before the first fill, the goals are dealt."""
    expansions = frozenset(m for m in cfg.modules if m in lg.EXPANSIONS)
    data = lg.build_data({k: v for k, v in cfg.values.items() if k.startswith("goals.")})
    st.modules["life_goals"] = lg.new_goals(expansions, auto=cfg.goal_claims == "auto", data=data)
    st.after_reveal = PhaseName("deal_silver")


def _pending(phase: PhaseName) -> Phase:
    tier = TIER_OF_PHASE[phase]

    def pending(st: GameState) -> Pending:
        who = [c.value for c in lg.still_to_deal(_gs(st), st.players, tier)]
        return Pending(phase, None, {"tier": tier.value, "to_deal": who})

    def options(st: GameState) -> list[Action]:
        return []

    def chance(st: GameState) -> Any:
        return deal_spec(_gs(st), st.players, tier)

    return Phase(pending, options, chance)


def check_deal(st: GameState, action: Action) -> None:
    assert isinstance(action, DealGoals)
    tier = lg.Tier(action.tier)
    if st.phase != PHASE_OF_TIER[tier]:
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — the {tier} goals are not being dealt now",
            code="not_a_chance_point",
        )
    lg.deal_tier(_gs(st).clone(), st.players, tier, dict(action.hands))


def _deal(st: GameState, a: Action) -> None:
    assert isinstance(a, DealGoals)
    tier = lg.Tier(a.tier)
    gs = _gs(st)
    lg.deal_tier(gs, st.players, tier, dict(a.hands))
    if not lg.still_to_deal(gs, st.players, tier):
        st.phase = NEXT[st.phase]


def reports(st: GameState, color: Color) -> list[Action]:
    """At a table dealing by hand, each player reports the tile they drew from the tier's
    face-down pile on their own page (LS4): every goal of the tier's pool, since the player
    must not learn from the list which tiles the others hold."""
    tier = TIER_OF_PHASE.get(st.phase)
    if tier is None or color not in lg.still_to_deal(_gs(st), st.players, tier):
        return []
    return [DealGoals(tier.value, ((color, g),)) for g in lg.pool(_gs(st), tier)]


def _claim(st: GameState, a: Action) -> None:
    assert isinstance(a, ClaimGoal)
    lg.claim(st, _gs(st), a.player, a.goal, _data(st), port_of(st))


def claims(st: GameState, color: Color) -> list[Action]:
    """LA2: a goal whose conditions hold may be claimed at any moment."""
    gs = _gs(st)
    return [ClaimGoal(color, g) for g in lg.claimable(st, gs, color, _data(st), port_of(st))]


def auto_claims(st: GameState) -> None:
    # LA2 « même en fin de partie »: the last move's goals are claimed too
    gs = lg.goals_of(st)
    if gs is not None and gs.auto and st.phase not in NEXT:
        lg.auto_claim(st, gs, st.players, _data(st), port_of(st))


def explain_claim(st: GameState, a: Action) -> str:
    assert isinstance(a, ClaimGoal)
    return lg.claim_refusal(st, _gs(st), a.player, a.goal, _data(st), port_of(st)) or "LA2"


def invariants(st: GameState) -> list[str]:
    """Goals dealt exactly once, one of each tier per player, from the combination's pools."""
    gs = lg.goals_of(st)
    if gs is None:
        return ["life goals switched on but not set up"]
    out = []
    for tier in lg.Tier:
        dealt = gs.tier(tier)
        if any(g not in lg.pool(gs, tier) for g in dealt.values()):
            out.append(f"a {tier} goal not of this combination: {dealt}")
        if (
            st.phase not in NEXT
            and st.phase != "reveal_customers"
            and len(dealt) != len(st.players)
        ):
            out.append(f"{tier} goals dealt to {sorted(dealt)}, not to every player")
    goals = [*gs.silver.values(), *gs.gold.values()]
    if len(goals) != len(set(goals)):
        out.append(f"a goal dealt twice: {goals}")
    for c, claimed in gs.claimed.items():
        if not claimed <= set(gs.hands[c].goals()):
            out.append(f"{c} claimed goals not theirs: {sorted(claimed)}")
    return out


def view(st: GameState, out: dict[str, Any], viewer: str | None) -> None:
    gs = _gs(st)
    over = st.phase == "over"
    who = {c: ("all" if viewer is None or over else viewer) for c in st.players}
    out["life_goals"] = {
        "claiming": "auto" if gs.auto else "manual",
        "players": {c.value: _hand(st, gs, c, who[c]) for c in st.players},
    }


def _hand(st: GameState, gs: lg.GoalsState, c: Color, viewer: str) -> dict[str, Any]:
    out = lg.visible_hand(gs, c, c.value if viewer == "all" else viewer)
    mine = [out[t.value] for t in lg.Tier if t.value in out]
    if mine:  # the owner's view: what each unclaimed goal still lacks, in words
        claimed = gs.claimed.get(c, frozenset())
        out["missing"] = {
            g: lg.missing(st, c, g, _data(st), port_of(st)) for g in mine if g not in claimed
        }
        out["names"] = {g: lg.FRENCH[g] for g in mine}
        out["conditions"] = {g: condition(g, _data(st)) for g in mine}
        out["prestige"] = {g: _data(st).prestige[lg.TIER[g]] for g in mine}
    if viewer == c.value and (offer := reports(st, c)):
        # the tiles this player may report having drawn, by the name printed on each
        goals = [g for a in offer if isinstance(a, DealGoals) for _, g in a.hands]
        out["to_report"] = {
            "tier": TIER_OF_PHASE[st.phase].value,
            "goals": [{"goal": g, "name": lg.FRENCH[g]} for g in goals],
        }
    return out


def module() -> Module:
    return Module(
        name="life_goals",
        phases=steps({p: _pending(PhaseName(p)) for p in ("deal_silver", "deal_gold")}),
        handlers={DealGoals: _deal, ClaimGoal: _claim},
        chance_checks={DealGoals: check_deal},
        anytime=(claims,),
        hand_reports=(reports,),
        setup=(setup,),
        after_apply=(auto_claims,),
        invariants=(invariants,),
        views=(view,),
        explains={ClaimGoal: explain_claim},
        action_types=(DealGoals, ClaimGoal),
        field_parsers=FIELD_PARSERS,
        public_forms=(public_form,),
        headlines=dict.fromkeys((DealGoals, ClaimGoal), narration.headline),
        now=narration.GOALS_NOW,
        steps={ClaimGoal: narration.steps},
        table_parts=goal_table.parts(),
        sealed_shares=sealed_share,
        sealed_deal=sealed_deal,
    )
