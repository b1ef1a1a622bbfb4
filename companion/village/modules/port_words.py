"""Le Port's places in one vocabulary, for buttons, the log and the sea panel alike:
``the port``, ``time zone A``, ``island B``, and what waits on an island (its stack, what it
buys, its mission churches). Pure; never raises for data the checks accepted."""

from __future__ import annotations

from ..state import GameState
from ..vocabulary import Color
from .port_data import PortData
from .port_state import port_of

STACK_WORDS = {"cocoa": "cocoa baskets", "tea": "tea bales", "treasure": "treasures"}


def zone_name(data: PortData | None, zone: str) -> str:
    """``port`` → ``the port``; ``A`` → ``time zone A``; ``B`` → ``island B``."""
    if zone == "port":
        return "the port"
    kind = data.zones.get(zone, "") if data else ""
    return {"time": f"time zone {zone}", "island": f"island {zone}"}.get(kind, f"zone {zone}")


def waits_at(data: PortData | None, zone: str, left: dict[str, int] | None = None) -> str:
    """What an island offers, in words: ``4 cocoa baskets, buys oxen and ploughs, mission
    church C1``; empty for the port and the time zones. ``left``: tiles still in each
    stack (``cocoa``/``tea``/``treasure``), said when given."""
    if data is None or zone not in data.islands:
        return ""
    island = data.islands[zone]
    parts: list[str] = []
    if island.stack:
        n = (left or {}).get(island.stack)
        words = STACK_WORDS[island.stack]
        if n == 1:
            words = f"1 {words.removesuffix('s')}"
        elif n is not None:
            words = f"{n or 'no'} {words}"
        parts.append(words)
    if island.sells:
        parts.append("buys " + " and ".join(_plural(k) for k in sorted(island.sells)))
    if island.churches:
        churches = ", ".join(island.churches)
        parts.append(
            ("mission churches " if len(island.churches) > 1 else "mission church ") + churches
        )
    return ", ".join(parts)


def _plural(kind: str) -> str:
    return {"ox": "oxen", "grain": "grain", "horse": "horses"}.get(kind, kind + "s")


def stack_island(data: PortData | None, stack: str) -> str:
    """The island holding the ``cocoa``/``tea``/``treasure`` stack (empty if none)."""
    if data is None:
        return ""
    return next((z for z, i in data.islands.items() if i.stack == stack), "")


def island_reasons(st: GameState, color: Color) -> list[str]:
    """Why what the island where ``color`` landed offers is not on the options now (one
    phrase per missing kind of option: nothing it buys on the hold, its stack empty or the
    hold full, a mission church taken or its cost short). Empty off an island."""
    from ..payments import cube_options
    from .port_state import HOLD_SLOTS, hold_counts

    ps = port_of(st)
    data = ps.data if ps else None
    if ps is None or data is None:
        return []
    ship = ps.ships[color]
    island = data.islands.get(ship.zone)
    if island is None:
        return []
    counts = hold_counts(ps, color)
    out: list[str] = []
    if island.sells and not any(counts.get(k) for k in island.sells):
        buys = " and ".join(_plural(k) for k in sorted(island.sells))
        out.append(f"nothing to sell: island {ship.zone} buys {buys}, none on your hold")
    if island.stack:
        left = {"cocoa": ps.cocoa, "tea": ps.tea, "treasure": len(ps.treasures)}[island.stack]
        one = {"cocoa": "a cocoa basket", "tea": "a tea bale", "treasure": "a treasure"}
        if not left:
            out.append(f"no {STACK_WORDS[island.stack]} left to take")
        elif counts.get(island.stack):
            out.append(f"your hold already carries {one[island.stack]} (one of each kind)")
        elif len(ship.hold) >= HOLD_SLOTS:
            out.append(f"your hold is full ({HOLD_SLOTS} pieces)")
    for cid in island.churches:
        church = data.churches[cid]
        cubes = " and ".join(f"{n} {c.value}" for c, n in church.cubes)
        if ps.missions[cid] is not None:
            out.append(f"mission church {cid} is taken")
        elif not counts.get("member"):
            out.append(f"mission church {cid} needs a family member on your hold")
        elif counts.get("wagon", 0) < church.wagon:
            out.append(f"mission church {cid} needs a wagon on your hold")
        elif church.cubes and not cube_options(st.p[color], dict(church.cubes)):
            plural = "s" if sum(n for _, n in church.cubes) > 1 else ""
            out.append(f"mission church {cid} costs {cubes} cube{plural} (or coins)")
    return out


__all__ = ["STACK_WORDS", "island_reasons", "stack_island", "waits_at", "zone_name"]
