"""What must hold after every Colonia action (the random games check it): the bag and the
stalls and the screens hold 18 of each material; the supply and the screens 12 of each
good; each player's members are all somewhere (reserve, streets, stalls, order columns,
holds, relics insured); no money below zero."""

from __future__ import annotations

from .state import State
from .vocabulary import GOODS, MATERIALS, MATERIALS_EACH

GOODS_EACH = 12


def violations(st: State) -> list[str]:
    """Each broken invariant, in words ([] when all hold)."""
    if st.setup is None:
        return []
    out: list[str] = []
    for m, name in enumerate(MATERIALS):
        stalls = sum(s[m] for s, b in zip(st.stalls, st.bought, strict=True) if b is None)
        held = sum(seat.materials[m] for seat in st.seats)
        if st.bag[m] + stalls + held != MATERIALS_EACH or min(st.bag[m], held) < 0:
            out.append(f"{name}: bag {st.bag[m]} + stalls {stalls} + screens {held} "
                       f"!= {MATERIALS_EACH}")
    for g, name in enumerate(GOODS):
        held = sum(seat.goods[g] for seat in st.seats)
        if st.supply[g] + held != GOODS_EACH or min(seat.goods[g] for seat in st.seats) < 0:
            out.append(f"{name}: supply {st.supply[g]} + screens {held} != {GOODS_EACH}")
    for seat in st.seats:
        c = seat.color
        placed = (seat.reserve + sum(seat.streets)
                  + sum(b[1] for b in st.bought if b is not None and b[0] == c)
                  + sum(o.members for col in st.columns for o in col if o.player == c)
                  + sum(1 for berth in st.moorings for w in berth.loaded if w == c)
                  + sum(1 for berth in st.moorings if berth.crest == c)
                  + sum(1 for s in st.display if s.insured == c))
        if placed != st.setup.members or seat.reserve < 0 or min(seat.streets) < 0:
            out.append(f"{c}: {placed} members found, {st.setup.members} owned")
        if min(seat.money) < 0:
            out.append(f"{c}: money below zero {seat.money}")
    return out
