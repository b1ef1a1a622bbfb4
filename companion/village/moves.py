"""Every physical change of an event, found from the whole table before and after it.

``table(st)`` is ``picture(st)`` made complete for the narration: every place on the table
as a multiset of pieces, the rule modules' own places included (each module's
``TableParts``: Le Port's ships, holds, captains, island stacks and box; the life-goal
tiles). ``moves(before, after)`` pairs what left a place with what arrived at another; what
comes from or goes to an unlimited supply (the bank's coins, the general supply's grain and
goods tiles, a family's unused travel markers, a module's ``pool:`` such as the undealt goal
tiles) is paired with that supply, which ``table`` leaves out. Applying the moves to
``table(before)`` gives ``table(after)`` (``apply_moves``; tests/village/test_moves.py), so
no action, old or new, can change the table without the narration saying so.

Pieces that are secret keep no identity here (a module's part says how: a treasure is
``treasure``, a life goal ``silver goal`` or ``gold goal``). Customer tiles keep theirs (the
stall they come from is what tells them apart); ``moves_text`` never prints a tile id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from . import zones
from .actions import (
    Action,
    Birth,
    Buyout,
    Church,
    ChurchMove,
    FillBag,
    Harvest,
    MassDraw,
    Recall,
    RevealCustomers,
    Serve,
    TakeCube,
)
from .picture import picture
from .state import GameState
from .table_parts import POOL, TableParts
from .vocabulary import Good

Table = dict[str, Counter[str]]
"""Place → pieces there (only places holding something)."""

BANK = "bank"  # coins
GENERAL = "general"  # grain sacks and goods tiles
NOWHERE = "nowhere"  # a piece that appears or vanishes with no supply of its kind (a bug)
UNLIMITED = frozenset({BANK, GENERAL})
"""Places ``table`` leaves out: they never run short (plus ``markers:<colour>`` and a
module's ``pool:`` places)."""

GOODS_WORDS = {g.value: g.value for g in Good}


@dataclass(frozen=True, slots=True)
class Move:
    """``n`` pieces ``piece`` go from place ``src`` to place ``dst``."""

    piece: str
    n: int
    src: str
    dst: str


# --- the whole table ----------------------------------------------------------------------


def table(st: GameState) -> Table:
    """Every place of ``st``'s table and the pieces on it. Pure; never raises."""
    pic = picture(st)
    out: dict[str, Counter[str]] = {}

    def put(place: str, piece: str, n: int = 1) -> None:
        if n > 0:
            out.setdefault(place, Counter())[piece] += n

    for zone, members in pic.pieces.items():
        for m in members:
            put(zone, m)
    for region, counts in pic.cubes.items():
        for colour, n in counts.items():
            put(region, f"cube:{colour}", n)
    for region, items in pic.items.items():
        for item, n in items.items():
            put(region, item, n)
    for color in st.players:
        p = st.p[color]
        put(f"time:{color}:{p.time}", f"time marker:{color}")
        put(f"prestige:{color}:{p.prestige}", f"prestige marker:{color}")
        for tile in p.customers:
            put(f"served:{color}", tile)
        for city in p.cities:
            put(f"city:{city}", f"travel marker:{color}")
    put(f"first_player:{pic.first_player}", "first-player token")
    for slot, tile in pic.customers.items():
        put(f"market:{slot}", tile)
    for tile in st.unseen:
        put("customer_stack", tile)
    for parts in st.rules.table_parts:
        parts.pieces(st, put)
    return out


# --- the moves ----------------------------------------------------------------------------


def supply_of(piece: str, parts: tuple[TableParts, ...] = ()) -> str:
    """The unlimited supply a piece comes from or goes back to (``NOWHERE`` if none);
    ``parts``: the modules' parts of the table, which name their own pools."""
    if piece == "coin":
        return BANK
    if piece == "grain" or piece in GOODS_WORDS:
        return GENERAL
    if piece.startswith("travel marker:"):
        return "markers:" + piece.split(":", 1)[1]
    for p in parts:
        pool = p.supply(piece)
        if pool is not None:
            return pool
    return NOWHERE


def moves(before: GameState, after: GameState) -> list[Move]:
    """The moves that turn ``table(before)`` into ``table(after)``: each piece that left a
    place paired with a place that gained one, the rest with the piece's supply."""
    return diff(table(before), table(after), before.rules.table_parts)


def diff(old: Table, new: Table, parts: tuple[TableParts, ...] = ()) -> list[Move]:
    """The moves from table ``old`` to table ``new`` (in the order of the places); ``parts``
    as for ``supply_of``."""
    places = list(dict.fromkeys([*old, *new]))
    lost: dict[str, list[tuple[str, int]]] = {}
    gained: dict[str, list[tuple[str, int]]] = {}
    for place in places:
        a, b = old.get(place, Counter()), new.get(place, Counter())
        for piece in dict.fromkeys([*a, *b]):
            d = b[piece] - a[piece]
            if d < 0:
                lost.setdefault(piece, []).append((place, -d))
            elif d > 0:
                gained.setdefault(piece, []).append((place, d))
    out: list[Move] = []
    for piece in dict.fromkeys([*lost, *gained]):
        losses, gains = list(lost.get(piece, [])), list(gained.get(piece, []))
        while losses and gains:
            (src, n_out), (dst, n_in) = losses[0], gains[0]
            n = min(n_out, n_in)
            out.append(Move(piece, n, src, dst))
            losses[0], gains[0] = (src, n_out - n), (dst, n_in - n)
            if n_out == n:
                losses.pop(0)
            if n_in == n:
                gains.pop(0)
        out += [Move(piece, n, src, supply_of(piece, parts)) for src, n in losses]
        out += [Move(piece, n, supply_of(piece, parts), dst) for dst, n in gains]
    return out


def is_unlimited(place: str) -> bool:
    return place in UNLIMITED or place.startswith(("markers:", POOL))


def apply_moves(tab: Table, ms: list[Move]) -> Table:
    """``tab`` with the moves made (unlimited supplies are not kept). Raises ValueError when
    a move takes a piece a place does not hold."""
    out = {p: Counter(c) for p, c in tab.items()}
    for m in ms:
        if not is_unlimited(m.src):
            have = out.get(m.src, Counter())
            if have[m.piece] < m.n:
                raise ValueError(f"{m.src} holds {have[m.piece]} {m.piece}, not {m.n}")
            have[m.piece] -= m.n
            if not +have:
                out.pop(m.src, None)
            else:
                out[m.src] = +have
        if not is_unlimited(m.dst):
            out.setdefault(m.dst, Counter())[m.piece] += m.n
    return out


# --- the moves an action's own sentence already tells --------------------------------------


def told_by_headline(before: GameState, a: Action, m: Move) -> bool:
    """Whether the first sentence of the narration of ``a`` already says move ``m`` (the
    cube taken, the grain harvested, a birth, a member sent to church, the mass's draw, the
    cubes of a bag filling, the customer tiles turned up)."""
    player = str(getattr(a, "player", ""))
    if isinstance(a, TakeCube):
        return m == Move(f"cube:{a.cube}", 1, zones.space(a.space), f"supply:{player}")
    if isinstance(a, Harvest):
        return m.piece == "grain" and m.src == GENERAL and m.dst == f"goods:{player}"
    if isinstance(a, Birth):
        return m.src == f"unborn:{player}"
    if isinstance(a, Church):
        return m.piece == a.member and m.dst == zones.BAG
    if isinstance(a, Recall):
        return m.piece == a.member
    if isinstance(a, MassDraw | Buyout):
        return m.src == zones.BAG and m.dst.startswith("church:")
    if isinstance(a, ChurchMove):
        return m.piece == a.member and m.dst.startswith("church:")
    if isinstance(a, FillBag):
        return m.piece.startswith("cube:")
    if isinstance(a, RevealCustomers):
        return m.src == "customer_stack"
    told = next((p.told[type(a)] for p in before.rules.table_parts if type(a) in p.told), None)
    return told is not None and told(before, a, m)


def secret_sale(a: Action, m: Move, viewer: str) -> bool:
    """Whether ``m`` tells which customer ``a`` served, to a viewer who may not know (the
    tile's own move and the goods and grain it wanted)."""
    if not isinstance(a, Serve) or viewer == a.player.value:
        return False
    mine = f"goods:{a.player}"
    return m.dst == f"served:{a.player}" or (m.src == mine and m.dst == GENERAL)


__all__ = [
    "BANK",
    "GENERAL",
    "Move",
    "Table",
    "apply_moves",
    "diff",
    "moves",
    "secret_sale",
    "supply_of",
    "table",
    "told_by_headline",
]
