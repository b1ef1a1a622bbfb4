"""A player's score now or at the end, with its reasons (`companion.colonia.scoring`)."""

from __future__ import annotations

from .scoring import Score, ranking, relic_points
from .state import State


def score(st: State, color: str) -> Score:
    """``color``'s score: relics, their doubles, the windows won (none before the end)."""
    seat = st.seat(color)
    alone, doubled = relic_points(seat.relics, dict(seat.kept))
    won = tuple(cur for cur, who in st.windows if who == color)
    vp = st.setup.stained_glass_vp if st.setup is not None else 0
    return Score(color, alone, doubled, won, vp * len(won), sum(seat.money), sum(seat.goods),
                 sum(seat.materials))


def places(st: State) -> list[list[str]]:
    """The final places, best first (several players in one: a draw)."""
    return ranking([score(st, p) for p in st.players])
