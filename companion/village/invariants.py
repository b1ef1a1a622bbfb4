"""Invariants that hold after every action (checked by ``companion simulate`` and tests)."""

from __future__ import annotations

from .engine import is_chance, legal_actions
from .state import MAX_GRAIN, PLAGUE_CUBES, GameState
from .vocabulary import INFLUENCE, Cube, Good, Section, member_ids


def violations(st: GameState) -> list[str]:
    """Every invariant the state breaks, as readable lines (empty when all hold)."""
    out: list[str] = []
    for colour in INFLUENCE:
        total = st.supply[colour] + st.bag[colour]
        total += sum(cubes.get(colour, 0) for cubes in st.spaces.values())
        total += sum(p.cubes[colour] for p in st.p.values())
        if total != st.cube_totals[colour]:
            out.append(f"{colour} cubes: {total} in play, not {st.cube_totals[colour]}")
    plague = st.supply[Cube.PLAGUE] + st.bag[Cube.PLAGUE]
    plague += sum(c.get(Cube.PLAGUE, 0) for c in st.spaces.values())
    if plague != PLAGUE_CUBES:
        out.append(f"plague cubes: {plague}, not {PLAGUE_CUBES}")
    if any(n < 0 for n in st.supply.values()) or any(n < 0 for n in st.bag.values()):
        out.append("negative supply or bag count")
    expected = {m for c in st.players for m in member_ids(c)}
    if set(st.members) != expected:
        out.append("member set differs from the families at the table")
    n = len(st.players)
    caps = st.data.chronicle_capacity(n)
    for s in Section:
        if len(st.chronicle[s]) > caps[s]:
            out.append(f"chronicle {s} over capacity")
        for m in st.chronicle[s]:
            if st.members[m] != ("chronicle", s):
                out.append(f"{m} listed in chronicle {s} but is at {st.members[m]}")
    if len(st.graves) > st.data.grave_capacity(n):
        out.append("graves over capacity")
    in_chronicle = sum(1 for loc in st.members.values() if loc[0] == "chronicle")
    if in_chronicle != sum(len(v) for v in st.chronicle.values()):
        out.append("chronicle lists and member places disagree")
    if sum(1 for loc in st.members.values() if loc[0] == "grave") != len(st.graves):
        out.append("graves list and member places disagree")
    for c, p in st.p.items():
        if not 0 <= p.grain <= MAX_GRAIN:
            out.append(f"{c} holds {p.grain} grain")
        if (
            p.coins < 0
            or any(v < 0 for v in p.cubes.values())
            or any(v < 0 for v in p.goods.values())
        ):
            out.append(f"{c} has a negative count")
        if len(p.cities) > st.data.travel_markers or len(set(p.cities)) != len(p.cities):
            out.append(f"{c} travel markers wrong: {p.cities}")
    tiles = [t for t in st.market if t is not None]
    served = [t for p in st.p.values() for t in p.customers]
    seen = tiles + served + sorted(st.unseen)
    if sorted(seen) != sorted(st.data.customers):
        out.append("customer tiles not conserved")
    if sum(st.p[c].goods[Good.SCROLL] < 0 for c in st.players):
        out.append("negative scrolls")
    for check in st.rules.invariants:
        out.extend(check(st))
    if not is_chance(st) and st.phase != "over" and not legal_actions(st):
        out.append(f"pending {st.phase} has no legal option")
    return out
