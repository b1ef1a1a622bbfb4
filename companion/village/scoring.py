"""Final scoring and the winner (seed 000 « Décompte final »)."""

from __future__ import annotations

from .state import GameState
from .vocabulary import Color, Section


def score(st: GameState, color: Color) -> dict[str, int]:
    """The final scoring if the game ended now. ``final`` adds the six categories (the
    rulebook's example: 6 + 2 + 6 + 7 + 16 + 2 = 39); ``total`` adds the prestige already
    on the track."""
    d = st.data
    player = st.p[color]
    council = church = 0
    for m in st.family(color):
        zone, where = st.members[m]
        if zone == "council":
            council += d.score_council[where]
        elif zone == "church":
            church += d.score_church[where]
    chronicled = sum(1 for s in Section for m in st.chronicle[s] if m.startswith(color.value + "-"))
    parts = {
        "travel": d.score_travel[min(len(player.cities), len(d.score_travel) - 1)],
        "council": council,
        "church": church,
        "chronicle": d.score_chronicle[min(chronicled, len(d.score_chronicle) - 1)],
        "customers": sum(d.customers[t].prestige for t in player.customers),
        "coins": player.coins,
    }
    for adjust in st.rules.score:
        adjust(st, color, parts)
    parts["final"] = sum(parts.values())
    parts["total"] = player.prestige + parts["final"]
    return parts


def living(st: GameState, color: Color) -> int:
    """Members born and not dead (in the black bag included)."""
    gone = st.rules.dead_zones | {"unborn"}
    return sum(1 for m in st.family(color) if st.members[m][0] not in gone)


def ranking_key(st: GameState, color: Color) -> tuple[int, int, int]:
    """Most prestige, then most customers served, then most living members."""
    return (score(st, color)["total"], len(st.p[color].customers), living(st, color))


def winners(st: GameState) -> list[Color]:
    """The winner(s); several only if still tied after both tie-breaks."""
    keys = {c: ranking_key(st, c) for c in st.players}
    best = max(keys.values())
    return [c for c in st.players if keys[c] == best]
