"""The state as JSON: the full summary (``companion replay --json``) and per-viewer views.

Viewers: ``"table"`` or ``"observer"`` (public), or a colour (that player's private view:
their face-down customers and full score). Customer tiles served are face down (seed 000
« Marché »); the stack's order is unknown to everyone.
"""

from __future__ import annotations

from typing import Any

from . import scoring
from .deaths import death_candidates
from .engine import pending
from .state import MONKS, GameState, Loc
from .vocabulary import Section, member_generation


def where(loc: Loc) -> str:
    """A member's place as text: ``farm``, ``craft:smithy``, ``council:2``, ``church:1``…"""
    zone, detail = loc
    return zone if detail is None else f"{zone}:{detail}"


def summary(st: GameState) -> dict[str, Any]:
    """Everything, hidden information included (for records, tests and the owner's tools)."""
    n = len(st.players)
    d = st.data
    over = st.phase == "over"
    players: dict[str, Any] = {}
    for c in st.players:
        p = st.p[c]
        length = d.time_track_length
        players[c.value] = {
            "prestige": p.prestige,
            "time": p.time,
            "time_track": {
                "length": length,
                "position": p.time % length,
                "to_bridge": length - p.time % length,
                "bridges_passed": p.time // length,
            },
            "coins": p.coins,
            "grain": p.grain,
            "goods": {g.value: k for g, k in p.goods.items()},
            "cubes": {cu.value: k for cu, k in p.cubes.items()},
            "members": [
                {"id": m, "generation": member_generation(m), "where": where(st.members[m])}
                for m in st.family(c)
            ],
            "next_to_die": death_candidates(st, c),
            "customers": list(p.customers),
            "cities": list(p.cities),
            "living": scoring.living(st, c),
            "score": scoring.score(st, c),
        }
    caps = d.chronicle_capacity(n)
    out: dict[str, Any] = {
        "game": "village",
        "modules": list(st.rules.modules[1:]),
        "round": st.round,
        "over": over,
        "phase": st.phase,
        "current_player": _current(st),
        "first_player": st.players[st.first].value,
        "seats": [c.value for c in st.players],
        "pending": pending(st).to_json(),
        "players": players,
        "winner": [c.value for c in scoring.winners(st)] if over else None,
        "end": {
            "triggered_by": st.end_trigger.value if st.end_trigger else None,
            "cause": st.end_cause,
            "final_turns_left": [c.value for c in st.final_queue]
            if st.final_queue is not None
            else None,
        },
        "board": {
            "spaces": {
                s.value: {cu.value: k for cu, k in cubes.items() if k}
                for s, cubes in st.spaces.items()
            },
            "round_fill": {
                s.value: {cu.value: k for cu, k in cubes.items() if k}
                for s, cubes in st.round_fill.items()
            },
            "green_bag": {cu.value: k for cu, k in st.bag.items() if k},
            "supply": {cu.value: k for cu, k in st.supply.items()},
            "market": {
                "stalls": st.market[:5],
                "queue": st.market[5:],
                "usable": list(d.market_slots(n)),
                "stack": len(st.unseen),
            },
            "chronicle": {
                s.value: {"members": list(st.chronicle[s]), "capacity": caps[s]} for s in Section
            },
            "chronicle_free": sum(caps[s] - len(st.chronicle[s]) for s in Section),
            "graves": {"members": list(st.graves), "capacity": d.grave_capacity(n)},
            "graves_free": d.grave_capacity(n) - len(st.graves),
            "black_bag": {
                "monks": MONKS,
                "members": sorted(m for m, loc in st.members.items() if loc[0] == "bag"),
            },
            "next_first_player": st.next_first.value if st.next_first else None,
        },
        "customer_tiles": {t: _tile(st, t) for t in _visible_tiles(st)},
        "prestige_history": [
            {"round": r, "prestige": {c.value: v for c, v in pr.items()}}
            for r, pr in st.prestige_log
        ],
    }
    for module_view in st.rules.views:
        module_view(st, out, None)
    return out


def _visible_tiles(st: GameState) -> list[str]:
    """Tiles face up on the market, then every served one (``view`` drops others')."""
    served = [t for p in st.p.values() for t in p.customers]
    return [t for t in st.market if t is not None] + served


def _tile(st: GameState, tile: str) -> dict[str, Any]:
    c = st.data.customers[tile]
    return {"goods": {g.value: n for g, n in c.goods}, "grain": c.grain, "prestige": c.prestige}


def _current(st: GameState) -> str | None:
    player = pending(st).player
    return player.value if player else None


def view(st: GameState, viewer: str) -> dict[str, Any]:
    """What ``viewer`` may see: ``"table"``/``"observer"`` or a colour's text.

    Other players' served customers become a count (and leave ``customer_tiles``, which
    then holds the tiles on the market and the viewer's own); their customer points and
    total are null (the public part of the score stays). Raises ValueError for an unknown viewer.
    """
    if viewer not in ("table", "observer") and viewer not in {c.value for c in st.players}:
        raise ValueError(f"unknown viewer {viewer!r}")
    out = summary(st)
    over = out["over"]
    out["viewer"] = viewer
    for color, p in out["players"].items():
        if over or color == viewer:
            continue
        for tile in p["customers"]:
            out["customer_tiles"].pop(tile, None)
        p["customers"] = {"count": len(p["customers"])}
        sc = p["score"]
        sc["public_total"] = sc["total"] - sc["customers"]
        sc["customers"] = None
        sc["final"] = None
        sc["total"] = None
    for module_view in st.rules.views:
        module_view(st, out, viewer)
    return out
