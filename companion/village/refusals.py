"""Why an action is refused: the rule it breaks, in words, with a stable code."""

from __future__ import annotations

from .actions import (
    Action,
    Birth,
    Buy,
    Church,
    CouncilAdvance,
    CouncilEnter,
    FreeAction,
    Harvest,
    Mill,
    Privilege,
    Produce,
    Recall,
    Skip,
    TakeCube,
    Train,
    Travel,
    UseWell,
)
from .narrate import now_text
from .pending import pending
from .state import FARM, GameState
from .vocabulary import INFLUENCE, Color, Cube, Good, Space, is_member, member_color

RULES = {
    "harvest": "seed 000 « Récolter du grain »: needs at least one member on your farm",
    "family": "seed 000 « Famille »: a birth takes the youngest generation left; a recall "
    "brings home a living member from the board",
    "crafts": "seed 000 « Artisanat »: train a farm member (time), produce with a member in "
    "the building (time), or buy with the printed cubes/grain (coins replace cubes)",
    "market": "seed 000 « Marché »: serve a stall customer by handing over what it wants; "
    "every sale but the trigger's first costs 1 green cube (or a coin) and 1 time",
    "travel": "seed 000 « Voyage »: 2 time, 1 wagon and the path's 2 cubes; a farm member "
    "goes to a start city, a traveller one path onward",
    "council": "seed 000 « Chambre du conseil »: enter or advance for time + (2 green or 1 "
    "scroll); privileges of your level or lower",
    "church": "seed 000 « Église »: a farm member into the black bag for 1 brown or 3 time",
    "well": "seed 000 « Puits »: 3 influence cubes of one colour, while a cube remains on "
    "some action space",
    "death": "seed 000 « Un membre de la famille décède »: one of your oldest visible members",
    "buyout": "seed 000 « Messe » 1: 1 coin per own member in the black bag, 4 figures at most",
    "church_move": "seed 000 « Messe » 2: pay the grain printed between the windows",
}


def explain(st: GameState, action: Action) -> tuple[str, str]:
    """Why a decision is illegal, naming the rule (best effort, never raises)."""
    own = st.rules.explains.get(type(action))
    if own is not None:
        return "illegal", own(st, action)
    p = pending(st)
    kind = p.kind
    t = action.type
    phase_of = {
        "take": "turn",
        "well": "turn",
        "free": "turn",
        "serve": "market",
        "pass": "market",
        "die": "death",
        "buyout": "buyout",
        "church_move": "church_move",
        "done": "church_move",
    }
    wanted = phase_of.get(t, "action")
    if t == "skip" and kind in ("action", "privilege"):
        wanted = kind
    if t == "privilege" and kind == "privilege":
        wanted = "privilege"
    if wanted != kind:
        return "wrong_step", f"that is not the step the game waits for. {now_text(st)}"
    if isinstance(action, TakeCube):
        if not st.spaces[action.space].get(action.cube):
            return "no_such_cube", f"no {action.cube} cube on the {action.space} space"
        return "illegal", "seed 000 « Tour de jeu »"
    if isinstance(action, UseWell):
        if st.board_empty():
            return "well_closed", RULES["well"]
        if action.color not in INFLUENCE or st.p[action.player].cubes.get(action.color, 0) < 3:
            return "cannot_afford", RULES["well"]
        return "illegal", RULES["well"]
    if isinstance(action, FreeAction):
        return (
            "not_free",
            "seed 000 « Fin de la partie »: free actions only in final turns on an empty board",
        )
    if isinstance(action, Skip):
        return "illegal", "nothing to skip now"
    if kind == "action":
        space = st.act_space
        assert space is not None
        belongs = {
            Space.HARVEST: (Harvest,),
            Space.FAMILY: (Birth, Recall),
            Space.CRAFTS: (Train, Produce, Buy, Mill),
            Space.TRAVEL: (Travel,),
            Space.COUNCIL: (CouncilEnter, CouncilAdvance, Privilege),
            Space.CHURCH: (Church,),
        }[space]
        if not isinstance(action, belongs):
            return "wrong_space", f"you took the {space} action; {t!r} belongs to another space"
        member = getattr(action, "member", None)
        if member is not None and member_color(member) != action.player:
            return "not_your_member", f"{member} is not a {action.player} member"
        placed = isinstance(action, Train | Travel | CouncilEnter | Church)
        travelling = (
            isinstance(action, Travel)
            and is_member(action.member)
            and st.members[action.member][0] == "travel"
        )
        if member is not None and placed and st.members[member] != FARM and not travelling:
            return (
                "not_on_farm",
                f"{member} is not on your farm ({st.members[member][0]}); "
                "seed 000 « Famille » note: members go onto the board from the farm",
            )
        if isinstance(action, Travel):
            reason = _travel_problem(st, action)
            if reason:
                return reason
        pay = getattr(action, "pay", None)
        if pay is not None:
            short = _short_of(st, action.player, pay)
            if short:
                return "cannot_afford", f"{short}; {RULES[space.value]}"
            return "cannot_pay", f"that payment does not match the cost: {RULES[space.value]}"
        return "illegal", RULES[space.value]
    if kind == "privilege":
        return (
            "illegal",
            "seed 000 « Vue d'ensemble des privilèges »: a privilege of the level "
            f"reached ({st.privilege_max}) or lower, that does something",
        )
    key = {"market": "market", "death": "death", "buyout": "buyout", "church_move": "church_move"}
    return "illegal", RULES.get(key.get(kind, ""), f"not a legal option for {kind}")


def _short_of(st: GameState, color: Color, pay: tuple[tuple[str, int], ...]) -> str | None:
    """What the player lacks to make this payment, in words (None if they have it all)."""
    player = st.p[color]
    for res, n in pay:
        if res == "coin":
            have = player.coins
        elif res == "scroll":
            have = player.goods[Good.SCROLL]
        elif res == "time":
            continue
        else:
            have = player.cubes[Cube(res)]
        if have < n:
            return f"you pay {n} {res} but have {have}"
    return None


def _travel_problem(st: GameState, a: Travel) -> tuple[str, str] | None:
    """Why a trip is impossible before any payment question, if it is."""
    if st.p[a.player].goods[Good.WAGON] < 1:
        return "no_wagon", f"a trip needs a wagon; {RULES['travel']}"
    loc = st.members[a.member]
    if loc == FARM:
        starts = [c for c, _ in st.data.start_paths]
        if a.city not in starts:
            return "no_path", f"from the village a trip goes to a start city {starts}"
    elif loc[0] == "travel":
        near = [c for c, _ in st.data.adjacency[loc[1]]]
        if a.city not in near:
            return "no_path", f"from {loc[1]} one path leads to {near}, not {a.city!r}"
    return None
