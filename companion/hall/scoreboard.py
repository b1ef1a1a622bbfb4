"""One table's card on the hall's grid, from the public state the table published: which
round, who leads, who is next to die, whose turn; the final ranking once the game is over.

Pure: a dict in (the game's table view, `companion.village.view(state, "table")`, as the
retained state message carries it), a dict out. A game the hall does not know how to read
gets a card with its name and seq only.
"""

from __future__ import annotations

from typing import Any

from companion.table.playlog import ranking

__all__ = ["card", "ranking"]


def _next_to_die(view: dict[str, Any]) -> dict[str, Any] | None:
    """The family whose time track is nearest the bridge (its oldest member dies there)."""
    best: dict[str, Any] | None = None
    for colour, p in (view.get("players") or {}).items():
        track = p.get("time_track") or {}
        if "to_bridge" not in track:
            continue
        who = p.get("next_to_die") or []
        if best is None or track["to_bridge"] < best["to_bridge"]:
            best = {"player": colour, "to_bridge": int(track["to_bridge"]),
                    "members": list(who)}
    return best


def card(table: str, game_id: int, seq: int, view: dict[str, Any] | None) -> dict[str, Any]:
    """The card of ``table``'s game ``game_id`` at ``seq`` (``view``: its public state; None
    before the first state arrives)."""
    out: dict[str, Any] = {"table": table, "game_id": game_id, "seq": seq}
    if not view:
        return out
    out["game"] = view.get("game")
    if view.get("game") != "village":
        return out
    rows = ranking(view)
    out.update({
        "round": view.get("round"),
        "over": bool(view.get("over")),
        "phase": view.get("phase"),
        "current_player": view.get("current_player"),
        "modules": view.get("modules") or [],
        "ranking": rows,
        "leaders": [r["player"] for r in rows if r["place"] == 1],
        "winner": view.get("winner"),
        "next_to_die": None if view.get("over") else _next_to_die(view),
    })
    return out
