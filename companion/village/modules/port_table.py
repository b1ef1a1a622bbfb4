"""*Le Port*'s part of the whole table (``moves.table``) and its words: the ships where they
lie, their holds and captains, the goods they carry, the captain piles, the island stacks
and the box. A treasure keeps no identity here (``treasure``); a captain card keeps its id
(it is face up) and is named by its rate."""

from __future__ import annotations

from ..actions import Action
from ..moves import Move
from ..state import GameState
from ..table_parts import Put, TableParts, Told
from ..words import colour_name
from . import port_actions as pa
from .port_data import PortData
from .port_state import port_of
from .port_words import STACK_WORDS, stack_island, zone_name


def pieces(st: GameState, put: Put) -> None:
    ps = port_of(st)
    if ps is None:
        return
    for color, ship in ps.ships.items():
        put(f"ship_at:{ship.zone}", f"ship:{color}", 1)
        for piece in ship.hold:
            if "-" in piece and not piece.startswith("treasure:"):
                continue  # a member: a figure zone of the picture already
            put(f"hold:{color}", "treasure" if piece.startswith("treasure:") else piece, 1)
        if ship.captain is not None:
            put(f"captain:{color}", ship.captain, 1)
        put(f"goods:{color}", "cocoa", ship.cocoa)
        put(f"goods:{color}", "tea", ship.tea)
        put(f"goods:{color}", "treasure", len(ship.treasures))
    for cid in ps.captains:
        put("captain_piles", cid, 1)
    for cid in ps.discarded:
        put("captains_out", cid, 1)
    put("island_stack:cocoa", "cocoa", ps.cocoa)
    put("island_stack:tea", "tea", ps.tea)
    put("island_stack:treasure", "treasure", len(ps.treasures))
    put("box", "cocoa", ps.boxed.get("cocoa", 0))
    put("box", "tea", ps.boxed.get("tea", 0))
    put("box", "treasure", len(ps.cashed))


def _player(a: Action) -> str:
    return str(getattr(a, "player", ""))


TOLD: dict[type[Action], Told] = {
    pa.Sail: lambda st, a, m: m.piece == f"ship:{_player(a)}",
    pa.IslandTake: lambda st, a, m: (
        m.src.startswith("island_stack:") and m.dst == f"hold:{_player(a)}"
    ),
    pa.Load: lambda st, a, m: m.dst == f"hold:{_player(a)}",
    pa.Mission: lambda st, a, m: m.dst.startswith("mission:") and m.src == f"hold:{_player(a)}",
}


def piece_words(st: GameState, m: Move) -> str | None:
    """A captain card by its rate: ``the captain card (green + any cube per 2 extra moves)``."""
    ps = port_of(st)
    if ps is None or ps.data is None or m.piece not in ps.data.captains:
        return None
    cap = ps.data.captains[m.piece]
    rate = " + ".join("any cube" if c == "any" else c for c in cap.rate.cubes)
    extra = f"{cap.rate.moves} extra move{'s' if cap.rate.moves > 1 else ''}"
    return f"the captain card ({rate} per {extra})"


def _data(st: GameState | None) -> PortData | None:
    ps = port_of(st) if st is not None else None
    return ps.data if ps is not None else None


def _stack(st: GameState | None, d: str) -> str:
    island = stack_island(_data(st), d)
    return f"the {STACK_WORDS.get(d, d)} on island {island}" if island else "the island"


def parts() -> TableParts:
    return TableParts(
        pieces=pieces,
        told=TOLD,
        piece_words=piece_words,
        place_words={
            "ship_at": lambda st, d: zone_name(_data(st), d),
            "hold": lambda st, d: f"{colour_name(d)}'s ship",
            "captain": lambda st, d: f"{colour_name(d)}'s ship",
            "captain_piles": lambda st, d: "the captain piles",
            "captains_out": lambda st, d: "the box (out of the game)",
            "box": lambda st, d: "the box",
            "island_stack": _stack,
        },
        returns=frozenset({"box"}),
        owned=frozenset({"hold", "captain"}),
    )
