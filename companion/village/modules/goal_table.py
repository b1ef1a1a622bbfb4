"""The life goals' part of the whole table (``moves.table``) and its words: each player's
tiles face down, or face up once claimed; the undealt tiles are a pool that never runs
short. A tile keeps no identity here (``silver goal``, ``gold goal``) until it is turned
face up, when the narration names the goal revealed."""

from __future__ import annotations

from companion.games.words import join_words

from ..actions import Action
from ..moves import Move
from ..state import GameState
from ..table_parts import POOL, Put, TableParts, Told
from ..vocabulary import Color
from ..words import colour_name, count
from .goal_actions import ClaimGoal, DealGoals
from .life_goals import FRENCH, goals_of

GOAL_TILES = POOL + "goal_tiles"  # the life-goal tiles not dealt


def pieces(st: GameState, put: Put) -> None:
    gs = goals_of(st)
    if gs is None:
        return
    for tier, hands in (("silver", gs.silver), ("gold", gs.gold)):
        for color, goal in hands.items():
            up = goal in gs.claimed.get(color, frozenset())
            put(f"goals_{'up' if up else 'down'}:{color}", f"{tier} goal", 1)


def supply(piece: str) -> str | None:
    return GOAL_TILES if piece.endswith(" goal") else None


def _player(a: Action) -> str:
    return str(getattr(a, "player", ""))


TOLD: dict[type[Action], Told] = {
    DealGoals: lambda st, a, m: m.src == GOAL_TILES,
    ClaimGoal: lambda st, a, m: m.dst == f"goals_up:{_player(a)}",
}


def revealed(before: GameState, after: GameState, src: str, dst: str, ms: list[Move]) -> str:
    """``Red reveals the life goal Ministre: turn its tile face up.``"""
    colour = dst.split(":", 1)[1]
    was, now = goals_of(before), goals_of(after)
    what = "a life goal"
    if was is not None and now is not None:
        c = Color(colour)
        new = sorted(now.claimed.get(c, frozenset()) - was.claimed.get(c, frozenset()))
        if new:
            names = join_words([FRENCH.get(g, g) for g in new])
            what = f"the life goal {names}: turn its tile face up"
    return f"{colour_name(colour)} reveals {what}."


def _tiles(st: GameState, m: Move) -> str | None:
    if not m.piece.endswith(" goal"):
        return None
    return count(m.n, f"{m.piece} tile")


def parts() -> TableParts:
    return TableParts(
        pieces=pieces,
        supply=supply,
        told=TOLD,
        piece_words=_tiles,
        place_words={
            GOAL_TILES: lambda st, d: "the life-goal tiles",
            "goals_down": lambda st, d: f"in front of {colour_name(d)}, face down",
            "goals_up": lambda st, d: f"in front of {colour_name(d)}, face up",
        },
        sentences={"goals_up": revealed},
    )
