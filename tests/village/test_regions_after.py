"""``other_regions_after`` (a child's regions from its parent's, recounting only what the
action replaced or changed) never goes stale: on every legal action from every state of
seeded games, in both play styles, and with a module switched on, it equals
``other_regions`` of the child computed whole; and a parent whose own regions came the
same way (three actions deep, as the reconciler's search chains them) stays exact."""

from __future__ import annotations

import random

import pytest

from companion import village as v
from companion.sim.play_styles import truth_states
from companion.village.picture import other_regions, other_regions_after


@pytest.mark.parametrize(("seed", "play"), [(1, "purposeful"), (2, "random"), (3, "random")])
def test_every_child_of_every_state_is_exact(seed: int, play: str) -> None:
    checked = 0
    states = truth_states(seed, play)
    for i, st in enumerate(states[:-1]):
        before = other_regions(st)
        nxt = states[i + 1]  # the game's own step: chance outcomes too (a bag filled)
        assert other_regions_after(nxt, st, before) == other_regions(nxt), (i, seed)
        if i % 3:
            continue
        for a in v.legal_actions(st):
            child = v.apply_unchecked(st, a)
            assert other_regions_after(child, st, before) == other_regions(child), (a, seed)
            checked += 1
    assert checked > 1000  # the games reach the turns, the markets, the masses, the deaths


def test_chained_three_deep_stays_exact() -> None:
    """A grandchild's regions from a child's that were themselves derived (the search's
    chain): an error would be carried down and show here."""
    rng = random.Random(5)
    for st in truth_states(4, "random")[::7]:
        regs = other_regions(st)
        here = st
        for _ in range(3):
            options = v.legal_actions(here)
            if not options:
                break
            nxt = v.apply_unchecked(here, rng.choice(options))
            regs = other_regions_after(nxt, here, regs)
            here = nxt
            assert regs == other_regions(here)


def test_a_space_changed_in_place_would_be_missed() -> None:
    """What the shortcut relies on (the engine replaces a space's cubes whole,
    ``tests/village/test_copying.py``): cubes changed in place, behind its back, are not
    recounted; so the check above can fail."""
    st = truth_states(1, "purposeful")[10]
    before = other_regions(st)
    child = st.clone()
    space = next(s for s, on in child.spaces.items() if any(on.values()))
    on = child.spaces[space]
    cube = next(c for c, n in on.items() if n)
    on[cube] -= 1  # in place: shared with ``st``, which the engine never does
    try:
        assert other_regions_after(child, st, before) != other_regions(child)
    finally:
        on[cube] += 1


def test_a_shared_player_changed_in_place_would_be_missed() -> None:
    """What the shortcut for players relies on (`GameState.own`: the engine copies a
    player it shares before changing it, ``tests/village/test_players_on_write.py``): a
    shared player's time changed in place, behind its back, is not read anew."""
    st = truth_states(1, "purposeful")[10]
    before = other_regions(st)
    child = st.derive()
    colour = st.players[0]
    assert child.p[colour] is st.p[colour]
    child.p[colour].time += 1  # against the rule: both states change
    region = f"time:{colour.value}"
    assert other_regions_after(child, st, before)[region] == before[region]
    assert other_regions(child)[region] != before[region]
