"""How a person picks an option and what it costs (`companion.village.options.choice`),
checked against the board data and the rules on real states."""

from __future__ import annotations

import random

import pytest
from scenarios import only_cubes, scenario, started

import companion.village as v
from companion.village.actions import Buy, Mill, Serve, Skip, TakeCube, Train
from companion.village.options import choice
from companion.village.state import GameState
from companion.village.vocabulary import Cube, Space


def crafts(st: GameState) -> GameState:
    st = scenario(st)
    only_cubes(st, {Space.CRAFTS: {Cube.BROWN: 1}, Space.HARVEST: {Cube.BROWN: 1}})
    c = st.current_color.value
    return v.apply(st, {"type": "take", "player": c, "space": "crafts", "cube": "brown"})


def test_training_costs_the_printed_time(three: GameState) -> None:
    st = crafts(three)
    trains = [a for a in v.legal_actions(st) if isinstance(a, Train)]
    assert trains
    for a in trains:
        craft = st.data.crafts[a.building]
        time = craft.train + (craft.produce if a.good else 0)
        ch = choice(st, a)
        assert ch["cost"].get("time") == time
        assert ch["cost_text"].startswith(f"{time} time")
        assert len(ch["steps"]) == 3 and ch["steps"][0].startswith("Train ")
        assert ch["steps"][2] == (
            "train only"
            if a.good is None
            else f"and make a{'n' if a.good.value[0] in 'aeiou' else ''} {a.good.value}"
        )
        if a.good:
            assert ch["gain"] == {"goods": {a.good.value: 1}}


def test_the_bridge(three: GameState) -> None:
    st = crafts(three)
    c = st.current_color
    length = st.data.time_track_length
    st.p[c].time = length - 2  # two spaces to the bridge
    for a in v.legal_actions(st):
        ch = choice(st, a)
        spent = ch["cost"].get("time", 0)
        if spent >= 2:
            oldest = min(
                int(m.split("-")[1][0]) for m in v.summary(st)["players"][c.value]["next_to_die"]
            )
            nth = {1: "first", 2: "second", 3: "third", 4: "fourth"}[oldest]
            # issue 18: "a 1 will die" read as nonsense; the generation in words
            assert ch["bridge"] == f"passes the bridge: a {nth}-generation member will die", ch
        else:
            assert ch["bridge"] is None and ch["to_bridge"] == 2 - spent


def test_skip_is_free_and_mill_swaps_grain_for_coins(three: GameState) -> None:
    st = crafts(three)
    st.p[st.current_color].grain = 3
    options = v.legal_actions(st)
    skip = choice(st, next(a for a in options if isinstance(a, Skip)))
    assert skip["cost_text"] == "free" and skip["gain"] == {}
    mill = choice(st, next(a for a in options if isinstance(a, Mill)))
    assert mill["cost"] == {"time": 2, "grain": 2} and mill["gain"] == {"coins": 2}
    for buy in (a for a in options if isinstance(a, Buy)):
        ch = choice(st, buy)
        assert ch["steps"][0] == "Buy a good" and ch["gain"] == {"goods": {buy.good.value: 1}}


def test_every_option_of_random_games_has_steps_and_a_cost_in_words() -> None:
    rng = random.Random(4)
    for players in (2, 4):
        st = started(["red", "blue", "white", "yellow"][:players], seed=players)
        for _ in range(300):
            if st.phase == "over":
                break
            if v.is_chance(st):
                from companion.bags import draw_with_rng

                spec = v.chance_spec(st)
                assert spec is not None
                st = v.apply(st, draw_with_rng(spec, rng))
                continue
            options = v.legal_actions(st)
            for a in options:
                ch = choice(st, a)
                assert ch["steps"] and all(isinstance(s, str) and s for s in ch["steps"])
                assert "_" not in " ".join(ch["steps"])
                if isinstance(a, Serve):
                    tile = st.market[a.slot]
                    assert tile and "prestige" in ch["steps"][0]
                    assert tile not in " ".join(ch["steps"])  # issue 18 item 11: no tile ids
                if isinstance(a, TakeCube) and a.cube is Cube.PLAGUE:
                    assert ch["cost"]["time"] == 2
            labels = [" / ".join(choice(st, a)["steps"]) for a in options]
            assert len(set(labels)) == len(labels), "two options a person cannot tell apart"
            st = v.apply(st, rng.choice(options))


@pytest.mark.parametrize("modules", [(), ("port",)])
def test_a_cube_whose_action_cannot_be_used_says_so_before_it_is_taken(
    modules: tuple[str, ...],
) -> None:
    """Issue 18 item 3: "Council: take an orange cube – costs nothing" was offered, and only
    afterwards "Yellow cannot enter or climb the council: …". Every take (or well) whose
    action then has no option carries the reason beforehand; the others carry none. With
    Le Port the Travel reason is the voyage's, never the base game's wagon."""
    import random

    from companion import bags
    from companion.village.actions import TakeCube, UseWell
    from companion.village.legal import space_options

    rng = random.Random(5)
    warned = 0
    st = v.new_game(["red", "blue", "yellow"], modules=list(modules))
    for _ in range(400):
        if st.phase == "over":
            break
        spec = v.chance_spec(st)
        if spec is not None:
            st = v.apply(st, bags.draw_with_rng(spec, rng))
            continue
        moves = v.legal_actions(st)
        for a in moves:
            if isinstance(a, TakeCube | UseWell):
                ch = choice(st, a)
                after = v.apply_unchecked(st, a)
                # the market's space has no option step of its own (its sales come on
                # market day), so it is never "unusable"
                useless = a.space is not Space.MARKET and not space_options(
                    after, a.player, a.space
                )
                assert bool(ch.get("warning")) == useless, (a, ch)
                if useless:
                    warned += 1
                    assert ch["warning"].startswith(a.player.value.capitalize())
                    if modules and a.space.value == "travel":
                        assert "wagon" not in ch["warning"], ch["warning"]
        st = v.apply(st, rng.choice(moves))
    assert warned > 0
