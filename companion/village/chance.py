"""What may come out at a chance point (OpenSpiel's ``chance_outcomes``), for virtual bags
and for checking a hand draw. The engine never draws: see ``companion.bags``."""

from __future__ import annotations

from companion.games.chance import ChanceSpec

from . import flow
from .actions import (
    Action,
    FillBag,
    MassDraw,
    RevealCustomers,
)
from .errors import IllegalAction
from .narrate import count
from .state import BAG, MONKS, GameState
from .vocabulary import INFLUENCE, MONK, Cube, Space, is_member


def chance_spec(st: GameState) -> ChanceSpec | None:
    """The pending draw, or None when the game waits for a person."""
    spec = st.rules.phases[st.phase].chance
    return spec(st) if spec is not None else None


def reveal_spec(st: GameState) -> ChanceSpec:
    tiles = tuple(sorted(st.unseen))
    slots = tuple(str(s) for s in st.to_reveal[: len(tiles)])
    return ChanceSpec("reveal_customers", tiles, len(slots), slots, outcome=_reveal_outcome)


def fill_spec(st: GameState) -> ChanceSpec:
    bag = bag_after_fill(st)
    contents = tuple(c.value for c in Cube for _ in range(bag[c]))
    card = st.data.space_cubes[len(st.players)]
    slots = tuple(s.value for s in Space for _ in range(card[s]))
    return ChanceSpec(
        "fill_bag", contents, min(len(contents), len(slots)), slots, outcome=_fill_outcome
    )


def draw_spec(st: GameState) -> ChanceSpec:
    members = sorted(m for m, loc in st.members.items() if loc[0] == "bag")
    contents = (MONK,) * MONKS + tuple(members)
    return ChanceSpec("mass_draw", contents, flow.draw_count(st), (), outcome=_draw_outcome)


def _reveal_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "reveal_customers", "tiles": dict(zip(spec.slots, drawn, strict=False))}


def _fill_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    spaces: dict[str, dict[str, int]] = {s.value: {} for s in Space}
    for slot, cube in zip(spec.slots, drawn, strict=False):
        spaces[slot][cube] = spaces[slot].get(cube, 0) + 1
    return {"type": "fill_bag", "spaces": spaces}


def _draw_outcome(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    return {"type": "mass_draw", "figures": sorted(drawn)}


# --- checking an outcome reported by a bag or by hand ---------------------------------


def check_reveal(st: GameState, action: Action) -> None:
    assert isinstance(action, RevealCustomers)
    if st.phase != "reveal_customers":
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — no customer tile is to be turned up now",
            code="not_a_chance_point",
        )
    want = list(st.to_reveal[: min(len(st.to_reveal), len(st.unseen))])
    slots = [s for s, _ in action.tiles]
    tiles = [t for _, t in action.tiles]
    if sorted(slots) != sorted(want):
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — tiles go on "
            + ", ".join(f"stall {i + 1}" if i < 5 else f"waiting line {i - 4}" for i in want),
            code="wrong_slots",
        )
    if len(set(tiles)) != len(tiles) or any(t not in st.unseen for t in tiles):
        raise IllegalAction(
            f"illegal: {action.to_json()!r} — each tile must be a different one "
            "still in the face-down stack",
            code="not_in_stack",
        )


def bag_after_fill(st: GameState) -> dict[Cube, int]:
    """The green bag once the setup card's cubes and all supply plague are in (seed 000
    « Approvisionner les cases Action »; short supply adds what there is)."""
    card = st.data.bag[len(st.players)]
    bag = dict(st.bag)
    for c in INFLUENCE:
        bag[c] += min(card[c], st.supply[c])
    bag[Cube.PLAGUE] += st.supply[Cube.PLAGUE]
    return bag


def check_fill(st: GameState, action: Action) -> None:
    """Raises IllegalAction when the green bag cannot give ``action``'s fill now (the
    first of `fill_problem`'s reasons, the action written out in front)."""
    assert isinstance(action, FillBag)
    problem = fill_problem(st, action)
    if problem is not None:
        reason, code, rule = problem
        raise IllegalAction(f"illegal: {action.to_json()!r} — {reason}", code=code, rule=rule)


def fill_problem(st: GameState, action: FillBag) -> tuple[str, str, str | None] | None:
    """Why the green bag cannot give ``action``'s fill now, as (reason, code, rule), or
    None when it can. Checked in this order: not at a round's start, a negative count,
    more cubes of a colour than the bag holds, a space's count against the setup card,
    the cubes drawn in all. Builds no text unless there is a problem (the reconciler
    tries many fills one misread away)."""
    if st.phase != "fill_bag":
        return "the green bag is filled only at round start", "not_a_chance_point", None
    bag = bag_after_fill(st)
    card = st.data.space_cubes[len(st.players)]
    drawn: dict[Cube, int] = {}
    per_space: dict[Space, int] = {}
    for space, cubes in action.spaces:
        per_space[space] = sum(n for _, n in cubes)
        for cube, n in cubes:
            if n < 0:
                return "negative count", "bad_count", None
            drawn[cube] = drawn.get(cube, 0) + n
    for cube, n in drawn.items():
        if n > bag[cube]:
            return f"the bag holds only {count(bag[cube], f'{cube} cube')}", "not_in_bag", None
    total = sum(bag.values())
    need = sum(card.values())
    for space in Space:
        got = per_space.get(space, 0)
        if got > card[space] or (total >= need and got != card[space]):
            return (f"the setup card puts {count(card[space], 'cube')} on {space}, not {got}",
                    "wrong_count", "setup card (board data setup.N.spaces)")
    if sum(per_space.values()) != min(total, need):
        return f"{min(total, need)} cubes are drawn in all", "wrong_count", None
    return None


def fill_legal(st: GameState, fill: FillBag) -> bool:
    """``is_legal(st, fill)``, the same answer without the refusal's text when the game
    checks fills with `check_fill` (a module replacing the check is asked as the engine
    asks it)."""
    rules = st.rules
    if FillBag not in rules.handlers:
        return False
    check = rules.chance_checks[FillBag]
    if check is check_fill:
        return fill_problem(st, fill) is None
    try:
        check(st, fill)
    except IllegalAction:
        return False
    return True


def check_draw(st: GameState, action: Action) -> None:
    assert isinstance(action, MassDraw)
    js = action.to_json()
    if st.phase != "mass_draw":
        raise IllegalAction(f"illegal: {js!r} — no mass draw now", code="not_a_chance_point")
    if len(action.figures) != flow.draw_count(st):
        raise IllegalAction(
            f"illegal: {js!r} — {count(flow.draw_count(st), 'figure')} must be drawn",
            code="wrong_count",
            rule="seed 000 « Messe » 1: 4 figures in all",
        )
    monks = sum(1 for f in action.figures if f == MONK)
    members = [f for f in action.figures if f != MONK]
    if (
        monks > MONKS
        or len(set(members)) != len(members)
        or any(not is_member(m) or st.members[m] != BAG for m in members)
    ):
        raise IllegalAction(
            f"illegal: {js!r} — those figures are not all in the black bag", code="not_in_bag"
        )


CHANCE_CHECKS = {RevealCustomers: check_reveal, FillBag: check_fill, MassDraw: check_draw}
