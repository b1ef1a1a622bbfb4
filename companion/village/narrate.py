"""What just happened, in plain words for the table: the narration of one action.

``narrate(before, action, after)`` compares the states before and after an action and says
what to do on the physical board: figures moved and where to, time spent and the bridge
passed, who died and which chronicle section or grave they go to, prestige, coins and other
things won or paid, customers served, tiles to turn up and cubes to lay out, what the mass
drew and who won its majority, and whose turn it is now. Steps the rules pass over get
their reason ("Blue cannot use the Council action: no 2 green cubes (or coins) and no
scroll").

The public wording (``viewer="table"``) never names a customer taken face down; a player's
own view (``viewer=<colour>`` of the seller) may. Pure: no I/O, the states are not changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.words import join_words

from . import flow
from .actions import (
    Action,
    Birth,
    Buy,
    Buyout,
    Church,
    ChurchMove,
    CouncilAdvance,
    CouncilEnter,
    Die,
    Done,
    FillBag,
    FreeAction,
    Harvest,
    MassDraw,
    Mill,
    Pass,
    Privilege,
    Produce,
    Recall,
    RevealCustomers,
    Serve,
    Skip,
    TakeCube,
    Train,
    Travel,
    UseWell,
)
from .deaths import death_candidates
from .legal import BUY_FROM, council_pay_options, farm_reps, space_options
from .pending import pending
from .state import GameState
from .vocabulary import INFLUENCE, MONK, Color, Cube, Good, Space
from .words import (
    BUILDING_NAMES,
    SECTION_NAMES,
    SPACE_NAMES,
    article,
    city_name,
    colour_name,
    count,
    customer_text,
    member_name,
    pay_text,
    place_at,
    place_name,
    placed_by,
    slot_name,
)

if TYPE_CHECKING:
    pass

def narrate(
    before: GameState, action: Action, after: GameState, viewer: str = "table"
) -> list[str]:
    """The sentences telling the table what ``action`` did to ``before`` (giving ``after``).

    The first sentence says what was done; the others its consequences, then whose turn
    it is. ``viewer`` is ``"table"`` (public wording) or a colour (that player may see the
    customer they served). Never raises for a legal action.
    """
    out = [_headline(before, action, after, viewer)]
    out.extend(_laid_out(before, action, after))
    out.extend(_passed_over(before, action, after))
    out.extend(_market(before, action, after, viewer))
    from .move_words import moves_text  # it reads this module's words: imported late

    out.extend(moves_text(before, action, after, viewer))
    out.extend(_no_reward(before, action, after))
    out.extend(_mass(before, action, after))
    out.extend(_ending(before, after))
    out.append(now_text(after))
    return [s for s in out if s]


def headline(before: GameState, action: Action, after: GameState, viewer: str = "table") -> str:
    """Only the first sentence of `narrate` (what was done), e.g. to say what an undo undid."""
    return _headline(before, action, after, viewer)


# --- what was done ----------------------------------------------------------------------


def _headline(before: GameState, a: Action, after: GameState, viewer: str) -> str:
    who = colour_name(getattr(a, "player", "")) if hasattr(a, "player") else ""
    if isinstance(a, RevealCustomers):
        them = "it" if len(a.tiles) == 1 else "them"
        return f"Turn up {count(len(a.tiles), 'customer tile')} and lay {them} out."
    if isinstance(a, FillBag):
        return _fill_text(before, a)
    if isinstance(a, MassDraw):
        drawn = [member_name(f) for f in a.figures if f != MONK]
        monks = sum(1 for f in a.figures if f == MONK)
        parts = ([count(monks, "monk")] if monks else []) + drawn
        back = " The monks go back into the bag." if monks else ""
        to_church = (
            f" {join_words(drawn)} {'goes' if len(drawn) == 1 else 'go'} to the rightmost "
            "church window (window 1)."
            if drawn
            else ""
        )
        return f"Mass: drawn from the black bag: {join_words(parts)}.{to_church}{back}"
    if isinstance(a, TakeCube):
        cube = article(f"{a.cube.value} cube")
        return f"{who} takes {cube} from {SPACE_NAMES[a.space]}."
    if isinstance(a, UseWell) and a.pay:
        return (
            f"{who} pays {pay_text(a.pay)} at the well (coins standing in for "
            f"{a.color.value} cubes) and takes the {SPACE_NAMES[a.space]} action."
        )
    if isinstance(a, UseWell):
        return (
            f"{who} puts 3 {a.color.value} cubes back at the well and takes the "
            f"{SPACE_NAMES[a.space]} action."
        )
    if isinstance(a, FreeAction):
        return f"{who} takes the {SPACE_NAMES[a.space]} action (final turn, no cube needed)."
    if isinstance(a, Skip):
        if before.phase == "privilege":
            return f"{who} takes no privilege."
        space = SPACE_NAMES[before.act_space] if before.act_space else "this"
        return f"{who} does nothing with the {space} action."
    if isinstance(a, Harvest):
        got = after.p[a.player].grain - before.p[a.player].grain
        full = flow.harvest_yield(before, a.player) > got
        cap = " (the farm is full at 5)" if full else ""
        return f"{who} harvests {got} grain{cap}."
    if isinstance(a, Birth):
        born = [m for m in after.family(a.player) if before.members[m] != after.members[m]]
        name = member_name(born[0]) if born else "a child"
        return f"{who}: a new generation is born — put {name} on the farm."
    if isinstance(a, Recall):
        src = place_name(before.members[a.member], before.rules)
        return f"{who} brings {member_name(a.member)} home from {src}."
    if isinstance(a, Train):
        where = BUILDING_NAMES[a.building.value]
        make = f" and makes {article(a.good.value)}" if a.good else " (train only)"
        return f"{who} trains {member_name(a.member)} at {where}{make}."
    if isinstance(a, Produce):
        return f"{who} makes {article(a.good.value)} at {BUILDING_NAMES[a.building.value]}."
    if isinstance(a, Buy):
        grain = before.data.crafts[BUY_FROM[a.good]].buy_grain
        paid = [p for p in [pay_text(a.pay), f"{grain} grain" if grain else ""] if p]
        return f"{who} buys {article(a.good.value)}, paying {join_words(paid) or 'nothing'}."
    if isinstance(a, Mill):
        return f"{who} takes 2 grain to the mill for 2 coins (2 time)."
    if isinstance(a, Serve):
        if viewer == a.player.value:
            tile = before.market[a.slot]
            what = customer_text(before, tile) if tile else "a customer"
            return (
                f"{who} serves the customer on {slot_name(a.slot)} ({what}) and keeps it face down."
            )
        return f"{who} serves a customer and keeps it face down."
    if isinstance(a, Pass):
        return f"{who} stops selling for this market day."
    if isinstance(a, Travel):
        src = place_name(before.members[a.member], before.rules)
        pay = f", paying {pay_text(a.pay)}" if a.pay else ""
        chosen = sorted(set(a.gain))  # the city's reward of 2 cubes, chosen
        gain = join_words([count(a.gain.count(g), f"{g.value} cube") for g in chosen])
        return (
            f"{who} sends {member_name(a.member)} from {src} to {city_name(a.city)} "
            f"(1 wagon back to the supply{pay}){f', taking {gain}' if gain else ''}."
        )
    if isinstance(a, CouncilEnter):
        return f"{who} puts {member_name(a.member)} on council level 1, paying {pay_text(a.pay)}."
    if isinstance(a, CouncilAdvance):
        level = after.members[a.member][1]
        return (
            f"{who} moves {member_name(a.member)} up to council level {level}, "
            f"paying {pay_text(a.pay)}."
        )
    if isinstance(a, Privilege):
        if a.level == 1:
            return f"{who} takes privilege 1: the first-player marker, first next round."
        if a.level == 2:
            kinds = sorted(set(a.gain))
            cubes = join_words([count(a.gain.count(g), f"{g} cube") for g in kinds])
            return f"{who} takes privilege 2: {cubes}."
        if a.level == 3:
            return f"{who} takes privilege 3: {article(a.gain[0])}."
        return f"{who} takes privilege 4: pays 1 coin for 3 prestige."
    if isinstance(a, Church):
        how = "for 3 time" if dict(a.pay).get("time") else f"paying {pay_text(a.pay)}"
        return f"{who} sends {member_name(a.member)} to church: into the black bag, {how}."
    if isinstance(a, Die):
        return f"{who} chooses {member_name(a.member)} to die."
    if isinstance(a, Buyout):
        if not a.members:
            return f"{who} buys nobody out of the black bag."
        names = join_words([member_name(m) for m in a.members])
        return (
            f"{who} pays {count(len(a.members), 'coin')} to take {names} out of the black bag: "
            "to the rightmost church window (window 1)."
        )
    if isinstance(a, ChurchMove):
        window = before.members[a.member][1]
        grain = flow.move_cost(before, window)
        return (
            f"{who} moves {member_name(a.member)} from church window {window} to window "
            f"{window + 1}, paying {grain} grain."
        )
    if isinstance(a, Done):
        return f"{who} is done moving in the church."
    own = before.rules.headlines.get(type(a))
    if own is not None:
        return own(before, a, after, viewer)
    return f"{a.type}."  # pragma: no cover - every action type is handled above


def _fill_text(before: GameState, a: FillBag) -> str:
    card = before.data.bag[len(before.players)]
    parts = [count(card[c], f"{c.value} cube") for c in INFLUENCE if card[c]]
    plague = before.supply[Cube.PLAGUE]
    if plague:
        parts.append(count(plague, "plague cube"))
    into = join_words(parts)
    return f"Round {before.round}: put {into} in the green bag, then lay out the cubes drawn."


def _laid_out(before: GameState, a: Action, after: GameState) -> list[str]:
    """What to put where on the board after a draw: one sentence per place."""
    if isinstance(a, RevealCustomers):
        return [f"{slot_name(s).capitalize()}: {customer_text(after, t)}." for s, t in a.tiles]
    if isinstance(a, FillBag):
        out = [
            f"{SPACE_NAMES[space]}: "
            + join_words([count(n, f"{c.value} cube") for c, n in cubes if n])
            + "."
            for space, cubes in a.spaces
            if any(n for _, n in cubes)
        ]
        return out or ["No cube comes out of the bag."]
    return []


# --- steps passed over, with their reason -----------------------------------------------


def space_refusal(st: GameState, c: Color, space: Space) -> str:
    """Why ``c`` can do nothing with the action of ``space`` now (empty if they can)."""
    if space_options(st, c, space):
        return ""
    who = colour_name(c)
    player = st.p[c]
    farm = bool(farm_reps(st, c))
    if space is Space.HARVEST:
        why = "nobody is on the farm"
    elif space is Space.FAMILY:
        why = "no generation is left to be born and nobody is on the board to bring home"
    elif space is Space.CRAFTS:
        why = (
            "nobody is on the farm to train, nobody works in a building, nothing can be "
            "bought with what the farm holds, and the mill needs 2 grain"
        )
    elif space in st.rules.space_refusals:  # a module's own space (Le Port's voyage)
        why = st.rules.space_refusals[space](st, c)
    elif space is Space.TRAVEL:
        if player.goods[Good.WAGON] < 1:
            why = "a trip needs a wagon"
        elif not farm and not st.family(c, frozenset({"travel"})):
            why = "nobody is on the farm or on the road"
        else:
            why = "no 2 cubes (or coins) of a path's colour"
    elif space is Space.COUNCIL:
        if not council_pay_options(st, c):
            why = "no 2 green cubes (or coins) and no scroll"
        else:
            why = "nobody is on the farm or below the top of the council"
        return f"{who} cannot enter or climb the council: {why}."
    elif space is Space.CHURCH:
        why = "nobody is on the farm to send"
    else:
        return ""
    return f"{who} cannot use the {SPACE_NAMES[space]} action: {why}."


def _entered_space(a: Action) -> Space | None:
    if isinstance(a, TakeCube | UseWell | FreeAction):
        return a.space
    return None


def _passed_over(before: GameState, a: Action, after: GameState) -> list[str]:
    out: list[str] = []
    space = _entered_space(a)
    if space is not None and space is not Space.MARKET:
        acting = after.phase == "action" and after.act_space is space
        if not acting:
            assert isinstance(a, TakeCube | UseWell | FreeAction)
            out.append(space_refusal(after, a.player, space))
    if isinstance(a, CouncilEnter | CouncilAdvance) and after.phase != "privilege":
        level = after.members[a.member][1]
        out.append(
            f"No privilege up to level {level} would do anything for {colour_name(a.player)}: "
            "the turn ends."
        )
    return out


# --- market days ------------------------------------------------------------------------


def _market(before: GameState, a: Action, after: GameState, viewer: str) -> list[str]:
    out: list[str] = []
    started = before.day is None and (
        isinstance(a, TakeCube | UseWell | FreeAction) and a.space is Space.MARKET
    )
    if started:
        trigger = colour_name(a.player)  # type: ignore[attr-defined]
        out.append(
            f"Market day! {trigger} sells first (the first sale costs nothing), then each "
            "player in turn; every other sale costs 1 green cube (or a coin) and 1 time."
        )
    day_before = before.day
    if after.day is not None:
        passed_before = day_before.passed if day_before else set()
        auto = after.day.passed - passed_before - ({a.player} if isinstance(a, Pass) else set())
        for c in after.players:
            if c in auto:
                out.append(f"{colour_name(c)} cannot serve any stall customer and passes.")
    elif day_before is not None or started:
        sold = (day_before.sold if day_before else 0) + (1 if isinstance(a, Serve) else 0)
        if not any(before.market[i] for i in range(5)) and started:
            out.append("The stalls are empty: the market day ends at once.")
        elif sold == 0:
            out.append("Nobody can serve a stall customer: the market day ends with no sale.")
        else:
            out.append("The market day ends.")
    return out


# --- figures moving (the moves themselves are told by move_words) -----------------------




# --- tracks and supplies ----------------------------------------------------------------


GENERATIONS = {1: "first", 2: "second", 3: "third", 4: "fourth"}
"""Generations in words: a figure's number is printed on it (seed 000 « Matériel »)."""


def death_choice_text(st: GameState, color: Color) -> str:
    """Who may die, by place, in words: figures of a generation are alike, so one at each
    place is one choice — ``one of the first generation dies: the one on council level 1,
    or one of the 3 on the farm``."""
    by_place: dict[str, int] = {}
    candidates = death_candidates(st, color)
    for m in candidates:
        where = place_at(st.members[m])
        by_place[where] = by_place.get(where, 0) + 1
    gen = GENERATIONS.get(int(candidates[0].split("-")[1][:-1]), "oldest") if candidates else ""
    places = [
        f"the one {where}" if n == 1 else f"one of the {n} {where}"
        for where, n in by_place.items()
    ]
    either = ", ".join(places[:-1]) + ", or " + places[-1] if len(places) > 1 else places[0]
    return f"one of the {gen} generation dies: {either}"


def _no_reward(before: GameState, a: Action, after: GameState) -> list[str]:
    """Why a trip brought no travel marker (the marker put down is one of the moves)."""
    if not isinstance(a, Travel):
        return []
    if a.city in after.p[a.player].cities and a.city not in before.p[a.player].cities:
        return []
    name = colour_name(a.player)
    if a.city in before.p[a.player].cities:
        return [f"{name} has been to {city_name(a.city)} before: no new reward."]
    return [f"{name} has no travel marker left: no reward."]


# --- mass -------------------------------------------------------------------------------

_MASS = frozenset({"buyout", "mass_draw", "church_move"})


def _mass(before: GameState, a: Action, after: GameState) -> list[str]:
    out = []
    if before.phase not in _MASS and after.phase in _MASS:
        if before.final_queue is not None:
            out.append("The final turns are over: the last mass in the church.")
        else:
            out.append("No cube is left on the board: mass in the church.")
    if after.phase == "mass_draw" and before.phase != "mass_draw" and not isinstance(a, Buyout):
        out.append(
            "Nobody can buy a member out of the black bag (it takes 1 coin and an own member "
            "in the bag)."
        )
    if after.phase == "mass_draw":
        out.append(
            f"Draw {count(flow.draw_count(after), 'figure')} from the black bag "
            "(4 in all with the buy-outs)."
        )
    if before.phase in _MASS and after.phase in ("fill_bag", "over"):
        if isinstance(a, MassDraw):
            out.append("Nobody can pay the grain to move a member left in the church.")
        out.append(majority_text(after))
        if after.phase == "fill_bag":
            out.append(
                f"Round {after.round} begins; {colour_name(after.players[after.first])} "
                "is the first player."
            )
    return out


def majority_text(st: GameState) -> str:
    """Who wins the church majority in ``st`` (the church as it stands), in words."""
    winners = flow.majority_winners(st)
    if not winners:
        return "Nobody is in the church: no majority prestige this round."
    names = join_words([colour_name(c) for c in winners])
    n = len(st.family(winners[0], frozenset({"church"})))
    if len(winners) > 1:  # « Messe » 3: still tied on the leftmost window, each scores
        tie = "; tied on members and still tied on the leftmost window"
    elif _tied(st, winners):
        tie = "; tied on members, the leftmost window decides"
    else:
        tie = ""
    verb = "wins" if len(winners) == 1 else "each win"
    return (
        f"Church majority: {names} {verb} {flow.MAJORITY_PRESTIGE} prestige "
        f"({count(n, 'member')} in the church{tie})."
    )


def _tied(st: GameState, winners: list[Color]) -> bool:
    """Whether another family had as many church members as the winners."""
    n = len(st.family(winners[0], frozenset({"church"})))
    return any(
        len(st.family(c, frozenset({"church"}))) == n for c in st.players if c not in winners
    )


# --- the end ----------------------------------------------------------------------------


def _ending(before: GameState, after: GameState) -> list[str]:
    out = []
    if after.end_trigger is not None and before.end_trigger is None:
        what = (
            "the last free chronicle space"
            if after.end_cause == "chronicle"
            else "the last anonymous grave"
        )
        out.append(
            f"That filled {what}: the game ends. {colour_name(after.end_trigger)} has no "
            "final turn; every other player takes one last action, then the last mass."
        )
    if after.phase == "over" and before.phase != "over":
        from .scoring import score, winners

        best = winners(after)
        scores = join_words([f"{colour_name(c)} {score(after, c)['total']}" for c in after.players])
        names = join_words([colour_name(c) for c in best])
        verb = "wins" if len(best) == 1 else "share the win"
        out.append(f"The game is over. Final totals: {scores}. {names} {verb}!")
    return out


# --- what comes next --------------------------------------------------------------------


def now_text(st: GameState) -> str:
    """Whose turn it is now and what they decide, or which draw comes next."""
    p = pending(st)
    who = colour_name(p.player) if p.player else ""
    kind = p.kind
    if kind == "reveal_customers":
        slots = join_words([slot_name(s) for s in p.detail["slots"]])
        return f"Next: turn up customer tiles for {slots}."
    if kind == "fill_bag":
        return f"Next: fill the green bag and draw the cubes for round {st.round}."
    if kind == "mass_draw":
        return "Next: draw from the black bag."
    if kind == "over":
        return ""
    if kind == "turn":
        if p.detail.get("free"):
            return f"Now {who}: a final turn — any action, no cube needed."
        final = "final turn: " if p.detail.get("final") else ""
        return f"Now {who}: {final}take a cube or use the well."
    if kind == "action":
        return f"Now {who}: the {SPACE_NAMES[Space(p.detail['space'])]} action (or skip)."
    if kind == "privilege":
        return f"Now {who}: a council privilege up to level {p.detail['max_level']} (or none)."
    if kind == "market":
        free = " (this sale is free)" if p.detail.get("free_sale") else ""
        return f"Now {who}: serve a stall customer or stop selling{free}."
    if kind == "death":
        assert p.player is not None
        return f"Now {who}: {death_choice_text(st, p.player)}."
    if kind == "buyout":
        return f"Now {who}: buy own members out of the black bag (1 coin each) or not."
    if kind == "church_move":
        return f"Now {who}: move members left in the church (grain) or finish."
    own = st.rules.now.get(kind)
    if own is not None:
        return own(st, p)
    return ""  # pragma: no cover


__all__ = [  # the shared words too, as callers named them here
    "BUILDING_NAMES",
    "SECTION_NAMES",
    "SPACE_NAMES",
    "article",
    "city_name",
    "colour_name",
    "count",
    "customer_text",
    "death_choice_text",
    "headline",
    "join_words",
    "majority_text",
    "member_name",
    "narrate",
    "now_text",
    "pay_text",
    "place_at",
    "place_name",
    "placed_by",
    "slot_name",
    "space_refusal",
]
