"""Every worked example of the rulebook (seed 000), move by move."""

from __future__ import annotations

from itertools import combinations

from scenarios import act, only_cubes, options, scenario

from companion import village as v
from companion.village import scoring
from companion.village.state import BAG, FARM, GameState
from companion.village.vocabulary import Color, Cube, Good, Section, Space

BLUE, YELLOW, RED = Color.BLUE, Color.YELLOW, Color.RED  # Jérôme, Aurélie, Philippe


def test_philippe_takes_plague_from_harvest_loses_two_time_then_harvests(three: GameState) -> None:
    st = scenario(three)
    st.current = 2  # Philippe
    only_cubes(st, {Space.HARVEST: {Cube.PLAGUE: 1}, Space.FAMILY: {Cube.BROWN: 1}})
    supply = st.supply[Cube.PLAGUE]
    st = act(st, type="take", player="red", space="harvest", cube="plague")
    assert st.supply[Cube.PLAGUE] == supply + 1  # straight back to the supply
    assert st.p[RED].time == 2
    assert sum(st.p[RED].cubes.values()) == 0
    assert v.pending(st).kind == "action" and {"type": "harvest", "player": "red"} in options(st)
    st = act(st, type="harvest", player="red")
    assert st.p[RED].grain == 2


def test_jerome_birth_takes_the_youngest_generation_available(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-2a"] = FARM
    st.members["blue-2b"] = FARM  # left unborn: one "2", two "3", two "4"
    only_cubes(st, {Space.FAMILY: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="family", cube="green")
    st = act(st, type="birth", player="blue")
    assert st.members["blue-2c"] == FARM
    assert all(st.members[m] == ("unborn", None) for m in ("blue-3a", "blue-3b", "blue-4a"))


def test_philippe_builds_a_wagon_with_time_or_buys_it_with_cubes(three: GameState) -> None:
    st = scenario(three)
    st.current = 2
    only_cubes(st, {Space.CRAFTS: {Cube.ORANGE: 2}, Space.CHURCH: {Cube.BROWN: 1}})
    base = act(st, type="take", player="red", space="crafts", cube="orange")
    trained = act(
        base, type="train", player="red", building="wainwright", member="red-1a", good="wagon"
    )
    assert trained.p[RED].time == 4  # 2 to train, 2 to build
    assert trained.p[RED].goods[Good.WAGON] == 1
    assert trained.members["red-1a"] == ("craft", "wainwright")
    st2 = scenario(base)
    st2.p[RED].cubes[Cube.PINK] = 1
    bought = act(st2, type="buy", player="red", good="wagon", pay={"orange": 1, "pink": 1})
    assert bought.p[RED].goods[Good.WAGON] == 1 and bought.p[RED].time == 0
    assert all(bought.members[m] != ("craft", "wainwright") for m in bought.members)
    # a coin stands in for any influence cube
    joker = act(base, type="buy", player="red", good="wagon", pay={"orange": 1, "coin": 1})
    assert joker.p[RED].coins == 0 and joker.p[RED].goods[Good.WAGON] == 1


def test_jerome_dies_at_the_forge_after_finishing_his_action(three: GameState) -> None:
    st = scenario(three)
    length = st.data.time_track_length
    st.p[BLUE].time = length - 1
    st.members["blue-1a"] = ("council", 1)
    only_cubes(st, {Space.CRAFTS: {Cube.PLAGUE: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="crafts", cube="plague")
    assert v.pending(st).kind == "action"  # he passed the bridge but still acts first
    st = act(st, type="train", player="blue", building="smithy", member="blue-1b", good="plough")
    assert st.p[BLUE].time == length - 1 + 2 + 3 + 3
    assert st.p[BLUE].goods[Good.PLOUGH] == 1
    p = v.pending(st)
    assert (p.kind, p.player) == ("death", BLUE)  # end of his turn: one of his "1"s dies
    dying = {a["member"] for a in options(st)}
    assert dying == {"blue-1a", "blue-1b", "blue-1c"}  # council, smithy, farm (1c = 1d)
    st = act(st, type="die", player="blue", member="blue-1b")
    assert st.members["blue-1b"] == ("chronicle", Section.CRAFTS)
    assert v.pending(st).player == YELLOW


def test_a_death_goes_to_a_grave_when_the_section_is_full(three: GameState) -> None:
    st = scenario(three)
    cap = st.data.chronicle_capacity(3)[Section.CHURCH]
    fillers = ["red-2a", "red-2b", "red-2c", "red-3a", "red-3b"][:cap]
    for m in fillers:
        st.members[m] = ("chronicle", Section.CHURCH)
        st.chronicle[Section.CHURCH].append(m)
    st.members["blue-1a"] = ("church", 1)
    st.p[BLUE].time = st.data.time_track_length - 2
    only_cubes(st, {Space.HARVEST: {Cube.PLAGUE: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="harvest", cube="plague")
    st = act(st, type="skip", player="blue")
    church = act(st, type="die", player="blue", member="blue-1a")
    assert church.members["blue-1a"] == ("grave", None)
    farm = act(st, type="die", player="blue", member="blue-1b")
    assert farm.members["blue-1b"] == ("chronicle", Section.FARM)


def _market_table(st: GameState) -> GameState:
    st = scenario(st)
    tiles = st.data.customers
    horse_plough = next(
        t for t in tiles.values() if dict(t.goods) == {Good.HORSE: 1, Good.PLOUGH: 1}
    )
    grain3 = next(t for t in tiles.values() if not t.goods and t.grain == 3)
    scroll_grain = next(
        t for t in tiles.values() if dict(t.goods) == {Good.SCROLL: 1} and t.grain == 1
    )
    hard = [t.id for t in tiles.values() if dict(t.goods).get(Good.OX)][:2]
    others = [
        t for t in sorted(tiles) if t not in {horse_plough.id, grain3.id, scroll_grain.id, *hard}
    ]
    st.unseen = set(tiles)
    st.market = [horse_plough.id, grain3.id, scroll_grain.id, hard[0], hard[1]]
    st.market += [others[0], others[1], others[2], others[3], None]  # "4" space stays empty
    st.unseen -= {t for t in st.market if t}
    jerome, aurelie, philippe = st.p[BLUE], st.p[YELLOW], st.p[RED]
    jerome.goods[Good.HORSE] = jerome.goods[Good.PLOUGH] = jerome.goods[Good.SCROLL] = 1
    jerome.grain = 1
    aurelie.grain = 3
    aurelie.cubes[Cube.GREEN] = 1
    philippe.goods[Good.SCROLL] = 1
    only_cubes(st, {Space.MARKET: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    return st


def test_market_day_example(three: GameState) -> None:
    st = _market_table(three)
    stalls_before = list(st.market)
    st = act(st, type="take", player="blue", space="market", cube="green")
    p = v.pending(st)
    assert (p.kind, p.player, p.detail["free_sale"]) == ("market", BLUE, True)
    assert {"type": "skip", "player": "blue"} not in options(st)  # a market day is compulsory
    st = act(st, type="serve", player="blue", slot=0, pay={})  # horse + plough, free
    assert st.p[BLUE].goods[Good.HORSE] == 0 and st.p[BLUE].time == 0
    st = act(st, type="serve", player="yellow", slot=1, pay={"green": 1})  # 1 green + 1 time
    assert st.p[YELLOW].grain == 0 and st.p[YELLOW].time == 1
    assert st.p[YELLOW].cubes[Cube.GREEN] == 0
    # Philippe has a scroll but no grain: he passes; Jérôme sells again, now paying.
    p = v.pending(st)
    assert (p.player, p.detail["free_sale"]) == (BLUE, False)
    st = act(st, type="serve", player="blue", slot=2, pay={"green": 1})
    assert st.p[BLUE].time == 1 and st.p[BLUE].grain == 0
    # Aurélie and Jérôme have nothing left to sell: the market day ends and the line moves.
    assert st.p[BLUE].customers == [stalls_before[0], stalls_before[2]]
    assert scoring.score(st, BLUE)["customers"] == st.data.customers[stalls_before[0]].prestige + (
        st.data.customers[stalls_before[2]].prestige
    )
    assert st.data.customers[stalls_before[0]].prestige == 6
    assert st.market[:5] == [
        stalls_before[5],
        stalls_before[6],
        stalls_before[7],
        *stalls_before[3:5],
    ]
    assert st.market[5] == stalls_before[8]
    p = v.pending(st)
    assert p.kind == "reveal_customers" and p.detail["slots"] == [6, 7, 8]


def test_travel_example_north_city_for_two_brown(three: GameState) -> None:
    st = scenario(three)
    st.current = 2
    st.p[RED].goods[Good.WAGON] = 1
    st.p[RED].cubes[Cube.BROWN] = 2
    only_cubes(st, {Space.TRAVEL: {Cube.PINK: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="red", space="travel", cube="pink")
    north = next(c for c, colour in st.data.start_paths if colour is Cube.BROWN)
    st = act(st, type="travel", player="red", member="red-1a", city=north, pay={"brown": 2})
    p = st.p[RED]
    assert (p.time, p.goods[Good.WAGON], p.cubes[Cube.BROWN], p.cities) == (2, 0, 0, [north])
    assert p.prestige == 3 == (3 if st.data.city_rewards[north] == "prestige" else -1)
    assert st.members["red-1a"] == ("travel", north)


def test_mass_example_buyouts_draw_moves_and_the_tie(three: GameState) -> None:
    st = scenario(three)
    st.members.update({"blue-1a": ("church", 2), "blue-2a": BAG, "yellow-1a": BAG})
    st.members.update({"red-2a": ("church", 3), "red-1a": BAG})
    st.p[BLUE].grain, st.p[YELLOW].grain, st.p[RED].grain = 3, 0, 4
    only_cubes(st, {Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="church", cube="brown")
    st = act(st, type="skip", player="blue")  # the last cube: mass begins
    assert (v.pending(st).kind, v.pending(st).player) == ("buyout", BLUE)
    assert v.pending(st).detail["order"] == ["blue", "yellow", "red"]
    st = act(st, type="buyout", player="blue", members=["blue-2a"])
    st = act(st, type="buyout", player="yellow", members=[])  # Aurélie pays nothing
    st = act(st, type="buyout", player="red", members=["red-1a"])
    assert v.pending(st).kind == "mass_draw" and v.pending(st).detail["count"] == 2
    st = act(st, type="mass_draw", figures=["monk", "yellow-1a"])
    assert st.members["yellow-1a"] == ("church", 1)
    st = act(st, type="church_move", player="blue", member="blue-1a")  # 2 grain
    st = act(st, type="church_move", player="blue", member="blue-2a")  # 1 grain
    assert st.p[BLUE].grain == 0
    # Aurélie has no grain: skipped. Philippe pays 4 to reach the leftmost window.
    assert v.pending(st).player == RED
    st = act(st, type="church_move", player="red", member="red-2a")
    assert st.members["red-2a"] == ("church", 4) and st.p[RED].grain == 0
    # Tie at two members each: Philippe holds the leftmost figure and alone gets 2.
    assert (st.p[RED].prestige, st.p[BLUE].prestige, st.p[YELLOW].prestige) == (2, 0, 0)
    assert v.pending(st).kind == "fill_bag" and st.round == 2


def test_final_scoring_example_totals_39(three: GameState) -> None:
    st = scenario(three)
    p = st.p[BLUE]
    p.cities = ["north", "north-west", "north-east"]  # 3 cities = 6
    st.members["blue-2a"] = ("council", 2)  # level 2 = 2
    st.members["blue-2b"] = ("church", 4)  # leftmost window = 6
    for m, s in zip(["blue-1a", "blue-1b", "blue-1c", "blue-1d"], Section, strict=False):
        st.members[m] = ("chronicle", s)  # 4 in the chronicle = 7
        st.chronicle[s].append(m)
    tiles = st.data.customers
    served = next(
        combo
        for k in (2, 3, 4)
        for combo in combinations(sorted(tiles), k)
        if sum(tiles[t].prestige for t in combo) == 16
    )
    p.customers = list(served)  # customers = 16
    p.coins = 2
    sc = scoring.score(st, BLUE)
    assert [sc[k] for k in ("travel", "council", "church", "chronicle", "customers", "coins")] == [
        6,
        2,
        6,
        7,
        16,
        2,
    ]
    assert sc["final"] == 39
