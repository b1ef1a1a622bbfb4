"""What may come out at a chance point (OpenSpiel's ``chance_outcomes``), for virtual bags
and for checking a hand draw. The engine never draws: see ``companion.bags``."""

from __future__ import annotations

from dataclasses import dataclass

from . import flow
from .engine import bag_after_fill
from .state import MONKS, GameState
from .vocabulary import MONK, Cube, Space


@dataclass(frozen=True, slots=True)
class ChanceSpec:
    """A draw to make. ``contents``: what is in the bag or stack (one entry per piece, in a
    fixed order); ``count``: how many come out; ``slots``: where they go, in order
    (market slot numbers for customers, action spaces repeated per cube for the green bag)."""

    kind: str
    contents: tuple[str, ...]
    count: int
    slots: tuple[str, ...]


def chance_spec(st: GameState) -> ChanceSpec | None:
    """The pending draw, or None when the game waits for a person."""
    if st.phase == "reveal":
        tiles = tuple(sorted(st.unseen))
        slots = tuple(str(s) for s in st.to_reveal[: len(tiles)])
        return ChanceSpec("reveal_customers", tiles, len(slots), slots)
    if st.phase == "fill":
        bag = bag_after_fill(st)
        contents = tuple(c.value for c in Cube for _ in range(bag[c]))
        card = st.data.space_cubes[len(st.players)]
        slots = tuple(s.value for s in Space for _ in range(card[s]))
        return ChanceSpec("fill_bag", contents, min(len(contents), len(slots)), slots)
    if st.phase == "draw":
        members = sorted(m for m, loc in st.members.items() if loc[0] == "bag")
        contents = (MONK,) * MONKS + tuple(members)
        return ChanceSpec("mass_draw", contents, flow.draw_count(st), ())
    return None


def outcome_action(spec: ChanceSpec, drawn: list[str]) -> dict[str, object]:
    """The record form of the action for ``drawn`` (the first ``spec.count`` pieces drawn)."""
    if spec.kind == "reveal_customers":
        return {"type": "reveal_customers", "tiles": dict(zip(spec.slots, drawn, strict=False))}
    if spec.kind == "fill_bag":
        spaces: dict[str, dict[str, int]] = {s.value: {} for s in Space}
        for slot, cube in zip(spec.slots, drawn, strict=False):
            spaces[slot][cube] = spaces[slot].get(cube, 0) + 1
        return {"type": "fill_bag", "spaces": spaces}
    return {"type": "mass_draw", "figures": sorted(drawn)}
