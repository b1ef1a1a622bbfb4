"""The pictures the search keeps per state (each computed from its parent's: the piece
zones a figure left or entered, the other regions an action replaced or changed) are the
state's own, whole: on searches the simulated table asks for, every state the cache holds
shows exactly ``piece_regions`` and ``other_regions`` of its state (a stale part would
make the search match, or drop, a path on a picture that is not its state's)."""

from __future__ import annotations

import random

from companion import village as v
from companion.reconcile import search
from companion.reconcile.chance import ChanceReader
from companion.sim.play_styles import random_truth
from companion.village.picture import other_regions, piece_regions, regions_of


def _cases(seed: int) -> list[tuple[v.GameState, dict[str, object]]]:
    """(state, what the table shows three actions later), along a seeded game."""
    header, actions = random_truth(3, random.Random(seed), "random")
    states = [v.start(header)]
    for a in actions:
        states.append(v.apply(states[-1], a))
    return [(states[i], regions_of(states[i + 3])) for i in range(0, len(states) - 3, 5)]


def test_every_cached_state_shows_its_own_picture() -> None:
    checked = 0
    for seed in (1, 2):
        for root, seen in _cases(seed):
            cache = search.PathCache()
            search.explain(cache, root, seen, depth=3, budget=400,
                           chance_from=ChanceReader(seen))
            for node in cache.nodes.values():
                if node._others is not None:  # what the search kept
                    assert node._others == other_regions(node.state)
                    checked += 1
                if node._pieces is not None:
                    assert node._pieces == piece_regions(node.state)
    assert checked > 2000
