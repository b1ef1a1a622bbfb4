"""How the simulated players choose: uniform random legal play, or purposeful play (what
people do: no skip, pass or wasted well while something else is possible)."""

from __future__ import annotations

import random
from typing import Any

from companion import village as v

__all__ = ["PLAYS", "purposeful", "random_truth"]

PLAYS = ("random", "purposeful")


def random_truth(players: int, rng: random.Random,
                 play: str = "random") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal game: its header and actions. ``play``: ``random`` picks uniformly
    among the legal options; ``purposeful`` picks uniformly among those that do something
    (no skip, pass or done while anything else is possible, no well used for a space
    whose action cannot be done). Raises ValueError for another ``play``."""
    if play == "random":
        from companion.sim.random_games import random_game

        game = random_game(players, rng, check=False)
        return game.header, game.actions
    if play != "purposeful":
        raise ValueError(f"unknown play {play!r}; known: {', '.join(PLAYS)}")
    from companion.sim.random_games import play_out
    from companion.village.vocabulary import Color

    header = v.make_header([c.value for c in list(Color)[:players]])
    _, actions = play_out(v.start(header), purposeful, rng)
    return header, actions


def purposeful(st: v.GameState, rng: random.Random) -> dict[str, Any]:
    """A draw made with ``rng`` at a chance step, else an action picked uniformly among
    those that do something (see `random_truth`), or among all when none does."""
    from companion.bags import draw_with_rng

    spec = v.chance_spec(st)
    if spec is not None:
        return draw_with_rng(spec, rng)
    options = v.legal_actions(st)
    useful = [o for o in options if o.type not in ("skip", "pass", "done")
              and (o.type != "well"
                   or v.pending(v.apply_unchecked(st, o)).player == st.current_color)]
    return rng.choice(useful or options).to_json()


def truth_states(seed: int, play: str, players: int = 3) -> list[v.GameState]:
    """Every state of a `random_truth` game (``random.Random(seed)``), the start first.
    Raises ValueError for an unknown ``play``."""
    header, actions = random_truth(players, random.Random(seed), play)
    st = v.start(header)
    out = [st]
    for a in actions:
        st = v.apply(st, a)
        out.append(st)
    return out
