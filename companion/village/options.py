"""The options of a decision as a person picks them: in steps, each with its cost.

``choice(st, action)`` describes one legal action for a page: ``steps``, the labels of the
successive picks that lead to it (member → building → train only or which good; where to
travel → how to pay), and its ``cost`` and ``gain`` for the player who decides, measured
by applying it to a copy of the state (so every cost the rules charge is in, exactly):
time, cubes, coins, grain and goods, and what it does to the bridge. Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from .actions import (
    Action,
    Birth,
    Buy,
    Buyout,
    Church,
    ChurchMove,
    CouncilAdvance,
    CouncilEnter,
    Decision,
    Die,
    FreeAction,
    Pay,
    Privilege,
    Produce,
    Recall,
    Serve,
    TakeCube,
    Train,
    Travel,
    UseWell,
)
from .deaths import death_candidates
from .engine import apply_unchecked
from .narrate import (
    BUILDING_NAMES,
    SPACE_NAMES,
    article,
    city_name,
    count,
    customer_text,
    join_words,
    member_name,
    pay_text,
    place_at,
    place_name,
    slot_name,
    space_refusal,
)
from .state import GameState
from .vocabulary import INFLUENCE, Good, member_generation

PRIVILEGES = {
    1: "Privilege 1: first player next round",
    2: "Privilege 2: two cubes of your choice",
    3: "Privilege 3: a good of your choice",
    4: "Privilege 4: 1 coin for 3 prestige",
}


def steps(st: GameState, a: Action) -> list[str]:
    """The labels of the successive picks that lead to ``a`` (one label: a single tap)."""
    if isinstance(a, Train):
        who = f"{member_name(a.member)} ({place_name(st.members[a.member], st.rules)})"
        where = f"at {BUILDING_NAMES[a.building.value]}"
        make = f"and make {article(a.good.value)}" if a.good else "train only"
        return [f"Train {who}", where, make]
    if isinstance(a, Produce):
        return [f"Make {article(a.good.value)} at {BUILDING_NAMES[a.building.value]}"]
    if isinstance(a, Buy):
        return ["Buy a good", article(a.good.value), _pay_step(a.pay)]
    if isinstance(a, Travel):
        return [
            f"Travel with {member_name(a.member)} ({place_name(st.members[a.member], st.rules)})",
            f"to {city_name(a.city)}",
            _pay_step(a.pay),
            *(
                [f"take {join_words([article(g.value + ' cube') for g in a.gain])}"]
                if a.gain
                else []
            ),
        ]
    if isinstance(a, CouncilEnter):
        return [f"Council: {member_name(a.member)} enters (level 1)", _pay_step(a.pay)]
    if isinstance(a, CouncilAdvance):
        level = st.members[a.member][1] + 1
        return [f"Council: {member_name(a.member)} climbs to level {level}", _pay_step(a.pay)]
    if isinstance(a, Privilege):
        gain = [article(g + (" cube" if a.level == 2 else "")) for g in a.gain]
        return [PRIVILEGES[a.level], *([f"take {join_words(gain)}"] if gain else [])]
    if isinstance(a, Church):
        return [f"Church: send {member_name(a.member)}", _pay_step(a.pay)]
    if isinstance(a, Serve):
        tile = st.market[a.slot]
        what = customer_text(st, tile) if tile else ""
        return [f"Serve the customer on {slot_name(a.slot)}: {what}", _pay_step(a.pay)]
    if isinstance(a, TakeCube):
        cube = article(f"{a.cube.value} cube")
        return [f"{SPACE_NAMES[a.space]}: take {cube}"]
    if isinstance(a, UseWell):
        return [
            f"Use the well: 3 {a.color.value} cubes",
            f"then the {SPACE_NAMES[a.space]} action",
            *([_pay_step(a.pay)] if a.pay else []),
        ]
    if isinstance(a, FreeAction):
        return [f"{SPACE_NAMES[a.space]} (final turn, no cube)"]
    if isinstance(a, Recall):
        where = place_name(st.members[a.member], st.rules)
        return [f"Bring {member_name(a.member)} home from {where}"]
    if isinstance(a, Die):  # alike figures at one place are one choice: say which place
        loc = st.members[a.member]
        alike = sum(
            1
            for m in st.family(a.player)
            if st.members[m] == loc and member_generation(m) == member_generation(a.member)
        )
        gen = ORDINAL.get(member_generation(a.member), "oldest")
        who = (
            f"the {gen}-generation figure"
            if alike == 1
            else f"one of the {alike} {gen}-generation figures"
        )
        return [f"Dies: {who} {place_at(loc)}"]
    if isinstance(a, Buyout):
        if not a.members:
            return ["Buy nobody out"]
        names = join_words([member_name(m) for m in a.members])
        return [f"Buy out {names}"]
    if isinstance(a, ChurchMove):
        window = st.members[a.member][1]
        return [f"Move {member_name(a.member)} from window {window} to {window + 1}"]
    own = st.rules.steps.get(type(a))
    if own is not None:
        return own(st, a)
    words = {
        "skip": "Skip: do nothing here",
        "harvest": "Harvest grain",
        "birth": "Birth: the next generation joins the farm",
        "mill": "Mill: 2 grain for 2 coins",
        "pass": "Stop selling for this market day",
        "done": "Done moving in the church",
    }
    return [words.get(a.type, a.type.replace("_", " ").capitalize())]


def _pay_step(pay: Pay) -> str:
    if not pay:
        return "no payment"
    return f"pay {pay_text(pay)}"


ORDINAL = {1: "first", 2: "second", 3: "third", 4: "fourth"}
"""Generations in words (seed 000: a family's figures are printed 1 to 4)."""


def choice(st: GameState, a: Action) -> dict[str, Any]:
    """One option for a page: ``steps``, ``cost`` and ``gain`` (``{"time", "coins",
    "grain", "cubes": {colour: n}, "goods": {good: n}, "prestige"}``, zeros left out), and
    ``cost_text`` / ``bridge`` in words (``bridge`` is None when the bridge is not passed);
    ``warning``, for a cube (or the well) whose action then has nothing to do, says why
    before it is taken; ``note`` (leaving a Port island) why nothing else is offered.
    ``a`` must be legal in ``st`` (an action from `legal_actions`)."""
    out: dict[str, Any] = {"steps": steps(st, a), "cost": {}, "gain": {}, "bridge": None}
    if isinstance(a, Die | Birth):  # nothing to pay by the rules: no cost line at all
        out["cost_text"] = out["gain_text"] = ""
        return out
    note = st.rules.option_notes.get(type(a))  # a module's: why nothing else is offered
    if note is not None and (said := note(st, a)):
        out["note"] = said
    if not isinstance(a, Decision):
        out["cost_text"] = ""
        return out
    c = a.player
    after = apply_unchecked(st, a)
    if isinstance(a, TakeCube | UseWell):  # the action that would follow, or is passed over
        warning = space_refusal(after, c, a.space)
        if warning:
            out["warning"] = warning
    p0, p1 = st.p[c], after.p[c]
    cost: dict[str, Any] = {}
    gain: dict[str, Any] = {}
    for key, n in (
        ("time", p1.time - p0.time),
        ("coins", p1.coins - p0.coins),
        ("grain", p1.grain - p0.grain),
        ("prestige", p1.prestige - p0.prestige),
    ):
        if key == "time" and n:
            cost["time"] = n
        elif n < 0:
            cost[key] = -n
        elif n > 0:
            gain[key] = n
    for cube in INFLUENCE:
        n = p1.cubes[cube] - p0.cubes[cube]
        if n:
            (gain if n > 0 else cost).setdefault("cubes", {})[cube.value] = abs(n)
    for good in Good:
        n = p1.goods[good] - p0.goods[good]
        if n:
            (gain if n > 0 else cost).setdefault("goods", {})[good.value] = abs(n)
    out["cost"], out["gain"] = cost, gain
    out["cost_text"] = _words(cost, "free")
    out["gain_text"] = _words(gain, "")
    length = st.data.time_track_length
    crossed = p1.time // length - p0.time // length
    if crossed:
        candidates = death_candidates(st, c)
        gen = min((member_generation(m) for m in candidates), default=None)
        who = f"a {ORDINAL.get(gen, str(gen))}-generation member" if gen else "a member"
        out["bridge"] = (
            f"passes the bridge: {who} will die"
            if crossed == 1
            else f"passes the bridge {crossed} times: {crossed} members will die"
        )
    else:
        left = length - p1.time % length
        out["to_bridge"] = left
    return out


def _words(parts: dict[str, Any], empty: str) -> str:
    words = []
    if parts.get("time"):
        words.append(f"{parts['time']} time")
    for colour, n in parts.get("cubes", {}).items():
        words.append(count(n, f"{colour} cube"))
    if parts.get("coins"):
        words.append(count(parts["coins"], "coin"))
    if parts.get("grain"):
        words.append(f"{parts['grain']} grain")
    for good, n in parts.get("goods", {}).items():
        words.append(count(n, good))
    if parts.get("prestige"):
        words.append(f"{parts['prestige']} prestige")
    return ", ".join(words) or empty


__all__ = ["choice", "steps"]
