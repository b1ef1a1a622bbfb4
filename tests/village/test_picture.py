"""picture(state): where every piece stands, by the zone vocabulary, on real engine states."""

from __future__ import annotations

import itertools
import random

import pytest

from companion import village as v
from companion.sim.random_games import random_game
from companion.village import zones
from companion.village.picture import picture, regions_of


def _states(seed: int, players: int = 3) -> list[v.GameState]:
    game = random_game(players, random.Random(seed), check=False)
    st = v.start(game.header)
    out = [st]
    for a in game.actions:
        st = v.apply(st, a)
        out.append(st)
    return out


def test_a_new_game_shows_the_setup() -> None:
    p = picture(v.new_game(["red", "blue"]))
    assert p.pieces["farm:red"] == frozenset({"red-1a", "red-1b", "red-1c", "red-1d"})
    assert len(p.pieces["unborn:blue"]) == 7
    assert p.pieces["bag"] == frozenset() and p.monks == {"bag": 4} and p.bag_figures == 4
    assert p.cubes["stock"] == {"brown": 18, "pink": 18, "orange": 18, "green": 18, "plague": 6}
    assert p.cubes["space:harvest"] == dict.fromkeys(("brown", "pink", "orange", "green",
                                                      "plague"), 0)
    assert p.items["goods:red"]["coin"] == 1 and p.items["goods:red"]["grain"] == 0
    assert p.time["time:red"] == (0, 0) and p.prestige == {"red": 0, "blue": 0}
    assert p.customers == {}


@pytest.mark.parametrize("seed", [1, 2])
def test_every_piece_and_cube_is_somewhere_once(seed: int) -> None:
    for st in _states(seed)[::7]:
        p = picture(st)
        placed = [m for ms in p.pieces.values() for m in ms]
        assert sorted(placed) == sorted(st.members)
        for name in p.pieces:
            assert zones.split(name)[0] in zones.PIECE_ZONE_KINDS
        for colour in ("brown", "pink", "orange", "green"):
            assert sum(c[colour] for c in p.cubes.values()) == 18
        assert sum(c["plague"] for c in p.cubes.values()) == 6
        assert p.bag_figures == len(p.pieces["bag"]) + 4
        assert regions_of(st) == p.regions()
        assert set(p.customers.values()) == {t for t in st.market if t}


def test_a_move_shows_where_it_happened() -> None:
    states = _states(3)
    for before, after in itertools.pairwise(states):
        if before.phase == "action" and after.members != before.members:
            moved = [m for m in after.members if after.members[m] != before.members[m]]
            pa, pb = picture(after), picture(before)
            for m in moved:
                assert m in next(ms for ms in pa.pieces.values() if m in ms)
                gone_from = next(z for z, ms in pb.pieces.items() if m in ms)
                assert m not in pa.pieces[gone_from]
            return
    pytest.fail("no move of a figure in the game")


def test_time_marker_cell_and_laps() -> None:
    for st in _states(4)[::25]:
        p = picture(st)
        length = st.data.time_track_length
        for c in st.players:
            cell, laps = p.time[zones.time_track(c)]
            assert cell + laps * length == st.p[c].time and 0 <= cell < length
