"""Chance outcomes read off the table: a green bag drawn by hand (``fill_bag``, from the
cubes seen on the action spaces) and the figures drawn from the black bag at mass
(``mass_draw``, from the figures seen arriving in the church's first window or leaving
the bag). Customer tiles are not seen by any sensor: they come from the tablet."""

from __future__ import annotations

from collections.abc import Mapping

from companion import village as v
from companion.village import zones
from companion.village.actions import Action, FillBag, MassDraw
from companion.village.flow import draw_count
from companion.village.picture import CUBE_ORDER, RegionValue, regions_of, signature
from companion.village.vocabulary import MONK, Space


def fill_from(observed: Mapping[str, RegionValue]) -> FillBag | None:
    """The ``fill_bag`` whose cubes are the ones seen on every action space, or None when
    some space is not seen."""
    spaces = []
    for s in Space:
        counts = observed.get(zones.space(s))
        if not isinstance(counts, tuple):
            return None
        spaces.append((s, tuple((c, n) for c, n in zip(CUBE_ORDER, counts, strict=True) if n)))
    return FillBag(tuple(sorted(spaces)))


def draw_from(st: v.GameState, observed: Mapping[str, RegionValue]) -> MassDraw | None:
    """The ``mass_draw`` matching the figures seen newly in church window 1 (or gone from
    the black bag); the rest of the count are monks. None when neither is seen."""
    expected = regions_of(st)
    in_bag = sorted(m for m, loc in st.members.items() if loc[0] == "bag")
    window = zones.zone(zones.CHURCH, 1)
    extra: list[str] = []
    if isinstance(observed.get(window), tuple):
        extra = _minus(observed[window], expected[window])
    elif isinstance(observed.get(zones.BAG), tuple):
        extra = _minus(expected[zones.BAG], observed[zones.BAG])
    else:
        return None
    members: list[str] = []
    for sig in extra:
        pick = next((m for m in in_bag if signature(m) == sig and m not in members), None)
        if pick is None:
            return None
        members.append(pick)
    monks = draw_count(st) - len(members)
    if monks < 0:
        return None
    return MassDraw(tuple(sorted(members + [MONK] * monks)))


def _minus(have: RegionValue, less: RegionValue) -> list[str]:
    assert isinstance(have, tuple) and isinstance(less, tuple)
    out = list(have)
    for sig in less:
        if sig in out:
            out.remove(sig)
    return out


class ChanceReader:
    """A ``ChanceFrom`` for the search, reading outcomes from one observation."""

    def __init__(self, observed: Mapping[str, RegionValue]) -> None:
        self.observed = observed

    def __call__(self, st: v.GameState) -> Action | None:
        if st.phase == "fill_bag":
            return fill_from(self.observed)
        if st.phase == "mass_draw":
            return draw_from(st, self.observed)
        return None


__all__ = ["ChanceReader", "draw_from", "fill_from"]
