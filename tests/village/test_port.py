"""*Le Port* (seed 003): the worked voyage X1–X4 and the captain symbols X5 on the sea-board
fragment the example fixes, then every stated value (stacks, cocoa 7, tea 5 + 1 coin,
return to port 1 time, sea burial only when the Travel section is full, no travel score).
Rule numbers PS…PE as in ``shared/design/port-and-life-goals.md``."""

from __future__ import annotations

from typing import Any

import pytest
from scenarios import scenario

from companion.village.actions import Action
from companion.village.data import BoardDataError
from companion.village.errors import IllegalAction
from companion.village.modules import port as pt
from companion.village.modules.module_data import shipped_items, shipped_values
from companion.village.modules.port import port_of
from companion.village.modules.port_actions import (
    Anchor,
    CashTreasure,
    Disembark,
    DrawTreasure,
    IslandSell,
    IslandTake,
    LeaveIsland,
    Load,
    Mission,
    Recruit,
    ReturnPort,
    Sail,
    SellExotic,
)
from companion.village.modules.port_data import PortData, Rate, build_data
from companion.village.state import FARM, GameState, MarketDay
from companion.village.vocabulary import Color, Cube, Good, Section

BLUE, YELLOW, RED = Color.BLUE, Color.YELLOW, Color.RED  # Philippe plays red
EXAMPLE = ("port", "A", "B", "C")


def fragment_values() -> dict[str, Any]:
    """The shipped Port values cut down to what the worked voyage fixes: port – A (time)
    – B (island: cocoa, a church needing a wagon) – C (island: ox 4, plough 3, a church
    for brown + orange worth 5)."""
    v = shipped_values("port")
    sea = v["port.sea"]
    v["port.sea"] = {
        "zones": {z: sea["zones"][z] for z in EXAMPLE},
        "lanes": [lane for lane in sea["lanes"] if set(lane) <= set(EXAMPLE)],
    }
    v["port.islands"] = {k: v["port.islands"][k] for k in ("B", "C")}
    return v


DATA: PortData = build_data(fragment_values())
FULL: PortData = build_data(shipped_values("port"))


def test_the_shipped_sea_board_holds_the_derived_fragment() -> None:
    assert DATA.zones == {"port": "port", "A": "time", "B": "island", "C": "island"}
    assert DATA.lanes == {"port": ("A",), "A": ("port", "B"), "B": ("A", "C"), "C": ("B",)}
    assert DATA.islands["B"].stack == "cocoa"
    assert DATA.churches["B1"].wagon == 1
    assert DATA.islands["C"].sells == {"ox": 4, "plough": 3}
    church = DATA.churches["C1"]
    assert (church.cubes, church.prestige) == (((Cube.BROWN, 1), (Cube.ORANGE, 1)), 5)
    # Philippe's captain: cost 2, one green per extra move (derived from X2-X3)
    assert any(c.cost == 2 and c.rate == Rate(("green",), 1) for c in FULL.captains.values())


def philippe(three: GameState) -> tuple[GameState, pt.PortState]:
    """Philippe (red) at the start of the example: an ox, a plough, a member on the farm,
    2 coins for the captain and cubes to pay with."""
    st = scenario(three)
    st.current = 2
    red = st.p[RED]
    red.goods[Good.OX] = red.goods[Good.PLOUGH] = 1
    red.coins = 2
    red.cubes.update({Cube.GREEN: 2, Cube.BROWN: 1, Cube.ORANGE: 1})
    for c in (Cube.GREEN, Cube.BROWN, Cube.ORANGE):
        st.supply[c] -= red.cubes[c]
    ps = pt.new_port(st.players, DATA)
    pt.start_voyage(st, ps, RED)
    return st, ps


def options(st: GameState, ps: pt.PortState) -> list[Action]:
    return pt.voyage_options(st, ps, DATA)


def do(st: GameState, ps: pt.PortState, action: Action) -> bool:
    assert action in options(st, ps), (action, options(st, ps))
    return pt.apply_voyage(st, ps, DATA, action)


def refused(st: GameState, ps: pt.PortState, action: Action, rule: str) -> None:
    before_st, before_ps = st.clone(), ps.clone()
    with pytest.raises(IllegalAction, match=rule):
        pt.apply_voyage(st, ps, DATA, action)
    assert ps == before_ps and st.p == before_st.p and st.members == before_st.members


# --- X1–X4: Philippe's voyage ----------------------------------------------------------------


def test_x1_recruit_for_two_coins_then_load_ox_plough_and_a_member(three: GameState) -> None:
    st, ps = philippe(three)
    # every captain he can pay is offered, one per kind of card; none for 3 coins
    assert {DATA.captains[a.captain].cost for a in options(st, ps) if isinstance(a, Recruit)} == {
        1,
        2,
    }
    refused(st, ps, Load(RED, ("ox",)), "PV6–PV10")  # recruit first (PV2, PV4)
    do(st, ps, Recruit(RED, "c2-1"))
    assert st.p[RED].coins == 0
    assert "c2-1" not in ps.captains and ps.ships[RED].captain == "c2-1"
    refused(st, ps, Load(RED, ("ox", "ox")), "PV6–PV10")  # PV7: one piece of a kind
    refused(st, ps, Load(RED, ("red-2a",)), "PV6–PV10")  # PV10: members from the farm
    refused(st, ps, Load(RED, ("horse",)), "PV6–PV10")  # PV9: pieces he owns
    do(st, ps, Load(RED, ("ox", "plough", "red-1a")))
    assert sorted(ps.ships[RED].hold) == ["ox", "plough", "red-1a"]
    assert st.members["red-1a"] == ("hold", RED)
    assert st.p[RED].goods[Good.OX] == st.p[RED].goods[Good.PLOUGH] == 0


def sailed_to_a(three: GameState) -> tuple[GameState, pt.PortState]:
    st, ps = philippe(three)
    do(st, ps, Recruit(RED, "c2-1"))
    do(st, ps, Load(RED, ("ox", "plough", "red-1a")))
    return st, ps


def test_x2_first_move_free_to_time_zone_a_then_one_green_to_b(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    assert Anchor(RED) not in options(st, ps)  # setting sail means moving (ambiguity 5)
    assert options(st, ps) == [Sail(RED, "A")]  # the first move is free (PV13)
    do(st, ps, Sail(RED, "A"))
    assert st.p[RED].time == 1  # A is a time zone (PV16)
    assert Anchor(RED) in options(st, ps)  # « Il peut arrêter son mouvement »
    assert Disembark(RED) not in options(st, ps)
    refused(st, ps, Sail(RED, "B"), "PV11–PV14")  # the second move is not free
    refused(st, ps, Sail(RED, "port"), "PV11–PV14")  # returning is not a move (PV28)
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    assert st.p[RED].cubes[Cube.GREEN] == 1 and st.p[RED].time == 1


def test_x3_at_b_nothing_to_do_without_a_wagon_or_a_free_slot(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    assert Disembark(RED) in options(st, ps)  # he may land, or not (PV18)
    landed_st, landed_ps = st.clone(), ps.clone()
    do(landed_st, landed_ps, Disembark(RED))
    # no wagon on the hold: no mission church; no free slot: no cocoa (X3)
    assert options(landed_st, landed_ps) == [LeaveIsland(RED)]
    do(st, ps, Sail(RED, "C", (("green", 1),)))
    assert st.p[RED].cubes[Cube.GREEN] == 0


def test_x4_at_c_sells_ox_and_plough_and_places_a_missionary(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    start = st.clone()
    for action in (
        Sail(RED, "A"),
        Sail(RED, "B", (("green", 1),)),
        Sail(RED, "C", (("green", 1),)),
    ):
        do(st, ps, action)
    do(st, ps, Disembark(RED))
    assert Mission(RED, "C1", (("brown", 1), ("orange", 1))) in options(st, ps)
    do(st, ps, IslandSell(RED, "ox"))
    assert st.p[RED].prestige == 4
    do(st, ps, IslandSell(RED, "plough"))
    assert st.p[RED].prestige == 7
    do(st, ps, Mission(RED, "C1", (("brown", 1), ("orange", 1))))
    assert st.p[RED].prestige == 12
    assert st.members["red-1a"] == ("mission", "C1") and ps.missions["C1"] == "red-1a"
    assert do(st, ps, LeaveIsland(RED)) is True  # « Son tour est terminé »
    # totals over X1–X4
    red, was = st.p[RED], start.p[RED]
    assert (red.time - was.time, red.prestige - was.prestige) == (1, 12)
    assert {c: was.cubes[c] - red.cubes[c] for c in red.cubes} == {
        Cube.GREEN: 2,
        Cube.BROWN: 1,
        Cube.ORANGE: 1,
        Cube.PINK: 0,
    }
    assert sum(st.supply.values()) == sum(start.supply.values()) + 4  # back to the supply
    assert ps.ships[RED].hold == [] and ps.ships[RED].zone == "C"
    assert ps.ships[RED].captain == "c2-1" and ps.voyage is None  # the captain stays
    assert pt.violations(st, ps, DATA) == []


# --- X5: captain symbols --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rate", "cubes", "pays"),
    [
        # a pink + orange pair buys 1 move; a coin stands in for either (ambiguity 1)
        (Rate(("orange", "pink"), 1), {Cube.PINK: 1, Cube.ORANGE: 1}, [{"orange": 1, "pink": 1}]),
        (Rate(("orange", "pink"), 1), {Cube.PINK: 1, Cube.GREEN: 3}, []),
        # any pair
        (
            Rate(("any", "any"), 1),
            {Cube.BROWN: 1, Cube.GREEN: 2},
            [{"brown": 1, "green": 1}, {"green": 2}],
        ),
        # 1 green buys 2 moves
        (Rate(("green",), 2), {Cube.GREEN: 1}, [{"green": 1}]),
    ],
)
def test_x5_captain_symbols(
    three: GameState, rate: Rate, cubes: dict[Cube, int], pays: list[dict[str, int]]
) -> None:
    st = scenario(three)
    st.p[RED].coins = 0
    st.p[RED].cubes.update(cubes)
    got = pt.rate_payments(st.p[RED], rate)
    assert got == sorted(tuple(sorted(p.items())) for p in pays)
    st.p[RED].coins = 1
    with_coin = [dict(p) for p in pt.rate_payments(st.p[RED], rate)]
    assert len(with_coin) > len(pays) and any("coin" in p for p in with_coin)


def test_x5_one_green_pays_for_two_extra_moves(three: GameState) -> None:
    st, _ = philippe(three)
    full = FULL  # the shipped map and captains: c3-1 buys 2 moves with 1 green (a guess)
    assert full.captains["c3-1"].rate == Rate(("green",), 2)
    ps = pt.new_port(st.players, full)
    pt.start_voyage(st, ps, RED)
    st.p[RED].coins = 3
    assert pt.apply_voyage(st, ps, full, Recruit(RED, "c3-1")) is False
    pt.apply_voyage(st, ps, full, Load(RED, ()))
    pt.apply_voyage(st, ps, full, Sail(RED, "A"))
    pt.apply_voyage(st, ps, full, Sail(RED, "B", (("green", 1),)))
    assert Sail(RED, "C") in pt.voyage_options(st, ps, full)  # paid already: no cube
    pt.apply_voyage(st, ps, full, Sail(RED, "C"))
    assert st.p[RED].cubes[Cube.GREEN] == 1
    assert all(
        isinstance(a, Sail) and a.pay
        for a in pt.voyage_options(st, ps, full)
        if isinstance(a, Sail)
    )


# --- the rest of the voyage rules -----------------------------------------------------------


def test_no_captain_no_voyage(three: GameState) -> None:
    st, ps = philippe(three)
    st.p[RED].coins = 0  # PV34: too dear
    assert options(st, ps) == [] and not pt.travel_possible(st, ps, DATA, RED)
    st.p[RED].coins = 3
    ps.captains = []  # PV34: piles empty
    assert not pt.travel_possible(st, ps, DATA, RED)


def test_continuing_from_sea_moves_on_or_returns(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Anchor(RED))
    assert ps.voyage is None
    time = st.p[RED].time
    pt.start_voyage(st, ps, RED)  # b) a later Travel action, ship in time zone A
    assert st.p[RED].time == time  # starting in a time zone costs nothing (ambiguity 2)
    assert set(options(st, ps)) == {Sail(RED, "B"), ReturnPort(RED)}  # first move free again
    do(st, ps, Sail(RED, "B"))
    assert st.p[RED].time == time
    assert Disembark(RED) in options(st, ps)


def test_no_landing_on_the_island_one_starts_from(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    do(st, ps, Anchor(RED))
    pt.start_voyage(st, ps, RED)
    assert Disembark(RED) not in options(st, ps)  # only on entering (PV18, ambiguity 3)


def test_return_to_port_costs_one_time_unloads_and_discards_the_captain(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Anchor(RED))
    ps.ships[RED].hold.append("treasure:t4")  # as if taken on an island
    ps.treasures.remove("t4")
    st.p[RED].grain = 5
    ps.ships[RED].hold.remove("plough")
    ps.ships[RED].hold.append("grain")
    st.p[RED].goods[Good.PLOUGH] += 1
    time = st.p[RED].time
    pt.start_voyage(st, ps, RED)
    assert do(st, ps, ReturnPort(RED)) is True
    assert st.p[RED].time == time + 1  # wherever the ship was (PV28)
    ship = ps.ships[RED]
    assert (ship.zone, ship.hold, ship.captain) == ("port", [], None)
    assert "c2-1" in ps.discarded and "c2-1" not in ps.captains  # out of the game (PV30)
    assert st.members["red-1a"] == FARM and st.p[RED].goods[Good.OX] == 1
    assert st.p[RED].grain == 5  # the farm holds 5 sacks (ambiguity 6)
    assert ship.treasures == ["t4"]  # face down in front of him (PV31)
    assert pt.violations(st, ps, DATA) == []


def test_cocoa_needs_an_empty_slot_and_a_stack(three: GameState) -> None:
    st, ps = philippe(three)
    do(st, ps, Recruit(RED, "c2-1"))
    do(st, ps, Load(RED, ("ox",)))
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    do(st, ps, Disembark(RED))
    do(st, ps, IslandTake(RED))
    assert ps.ships[RED].hold == ["ox", "cocoa"] and ps.cocoa == DATA.stacks[3] - 1
    assert IslandTake(RED) not in options(st, ps)  # one cocoa per ship (PV7)
    refused(st, ps, IslandTake(RED), "PV21/PV32/PV7")


def test_an_empty_stack_gives_nothing(three: GameState) -> None:
    st, ps = philippe(three)
    ps.cocoa = 0
    do(st, ps, Recruit(RED, "c2-1"))
    do(st, ps, Load(RED, ()))
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    do(st, ps, Disembark(RED))
    assert options(st, ps) == [LeaveIsland(RED)]  # PV32


def test_a_church_needing_a_wagon_takes_it_from_the_hold(three: GameState) -> None:
    st, ps = philippe(three)
    st.p[RED].goods[Good.WAGON] = 1
    do(st, ps, Recruit(RED, "c2-1"))
    do(st, ps, Load(RED, ("red-1a", "wagon")))
    do(st, ps, Sail(RED, "A"))
    do(st, ps, Sail(RED, "B", (("green", 1),)))
    do(st, ps, Disembark(RED))
    do(st, ps, Mission(RED, "B1"))
    assert ps.ships[RED].hold == [] and st.p[RED].goods[Good.WAGON] == 0
    assert st.p[RED].prestige == DATA.churches["B1"].prestige
    assert pt.violations(st, ps, DATA) == []


def test_an_occupied_church_takes_no_one_else(three: GameState) -> None:
    st, ps = sailed_to_a(three)
    ps.missions["C1"] = "blue-1a"
    st.members["blue-1a"] = ("mission", "C1")
    for action in (
        Sail(RED, "A"),
        Sail(RED, "B", (("green", 1),)),
        Sail(RED, "C", (("green", 1),)),
        Disembark(RED),
    ):
        do(st, ps, action)
    assert not any(isinstance(a, Mission) for a in options(st, ps))  # PV26
    refused(st, ps, Mission(RED, "C1", (("brown", 1), ("orange", 1))), "PV23/PV24")


def test_a_treasure_is_drawn_face_down_and_cashed_after_unloading(three: GameState) -> None:
    st = scenario(three)
    st.p[RED].coins = 3
    st.p[RED].cubes[Cube.GREEN] = 6
    ps = pt.new_port(st.players, FULL)
    pt.start_voyage(st, ps, RED)
    for action in (
        Recruit(RED, "c3-5"),
        Load(RED, ()),
        Sail(RED, "D"),
        Sail(RED, "E", (("green", 1),)),
        Sail(RED, "F", (("green", 1),)),
        Sail(RED, "G", (("green", 1),)),
        Disembark(RED),
        IslandTake(RED),
    ):
        assert action in pt.voyage_options(st, ps, FULL), action
        pt.apply_voyage(st, ps, FULL, action)
    assert pt.voyage_options(st, ps, FULL) == []  # a chance point
    assert pt.draw_treasure_spec(ps) == tuple(sorted(FULL.treasures))
    with pytest.raises(IllegalAction, match="not a treasure tile of this box"):
        pt.apply_draw_treasure(ps, DrawTreasure("t9"))
    pt.apply_draw_treasure(ps, DrawTreasure("t6"))
    assert ps.ships[RED].hold == ["treasure:t6"] and "t6" not in ps.treasures
    with pytest.raises(IllegalAction, match="PV31"):  # not before it is exchanged at port
        pt.cash_treasure(st, ps, FULL, CashTreasure(RED, "t6"))
    pt.apply_voyage(st, ps, FULL, LeaveIsland(RED))
    pt.start_voyage(st, ps, RED)
    pt.apply_voyage(st, ps, FULL, ReturnPort(RED))
    assert pt.cash_options(ps, RED) == [CashTreasure(RED, "t6")]
    coins = st.p[RED].coins
    pt.cash_treasure(st, ps, FULL, CashTreasure(RED, "t6"))
    assert st.p[RED].coins == coins + FULL.treasures["t6"] and ps.cashed == ["t6"]
    assert pt.violations(st, ps, FULL) == []


# --- setup (PS) -------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "tiles"), [(2, 3), (3, 4), (4, 5)])
def test_stack_sizes_by_player_count(players: int, tiles: int) -> None:
    seats = tuple(Color)[:players]
    ps = pt.new_port(seats, FULL)
    assert (ps.cocoa, ps.tea) == (tiles, tiles)
    assert FULL.stacks[5] == 6  # five players need L'Auberge
    assert all(s.zone == "port" and s.hold == [] for s in ps.ships.values())
    assert len(ps.captains) == 15 and len(ps.treasures) == 6
    assert sorted(c.cost for c in FULL.captains.values()) == [1] * 5 + [2] * 5 + [3] * 5


def test_twelve_extra_cubes_join_the_supply() -> None:
    supply = dict.fromkeys(Cube, 0)
    pt.add_extra_cubes(supply, FULL)
    assert sum(supply.values()) == 12


# --- the market (PM) --------------------------------------------------------------------------


def market(three: GameState) -> tuple[GameState, pt.PortState]:
    st = scenario(three)
    st.day = MarketDay(trigger=RED, turn=RED, passed=set())
    ps = pt.new_port(st.players, FULL)
    ps.ships[RED].cocoa = ps.ships[RED].tea = 1
    ps.cocoa -= 1
    ps.tea -= 1
    st.p[RED].cubes[Cube.GREEN] = 1
    st.supply[Cube.GREEN] -= 1
    return st, ps


def test_cocoa_7_then_tea_5_and_a_coin(three: GameState) -> None:
    st, ps = market(three)
    red = st.p[RED]
    prestige, coins, time = red.prestige, red.coins, red.time
    assert pt.exotic_sales(st, ps, RED, free=True) == [
        SellExotic(RED, "cocoa"),
        SellExotic(RED, "tea"),
    ]
    pt.sell_exotic(st, ps, FULL, SellExotic(RED, "cocoa"), free=True)  # the trigger's first sale
    assert (red.prestige, red.time) == (prestige + 7, time)
    assert st.day is not None and st.day.trigger_sales == 1 and st.day.sold == 0
    with pytest.raises(IllegalAction, match="PM2–PM4"):
        pt.sell_exotic(st, ps, FULL, SellExotic(RED, "tea"), free=False)  # unpaid
    pt.sell_exotic(st, ps, FULL, SellExotic(RED, "tea", (("green", 1),)), free=False)
    assert (red.prestige, red.coins, red.time) == (prestige + 12, coins + 1, time + 1)
    assert ps.boxed == {"cocoa": 1, "tea": 1}  # to the box (PM7)
    assert pt.violations(st, ps, FULL) == []


def test_cocoa_on_the_hold_cannot_be_sold(three: GameState) -> None:
    st, ps = market(three)
    ps.ships[RED].cocoa = ps.ships[RED].tea = 0
    ps.ships[RED].hold = ["cocoa", "tea"]
    assert pt.exotic_sales(st, ps, RED, free=True) == []  # PM3


# --- deaths at sea (PD) and the end (PE) --------------------------------------------------------


def test_sea_burial_only_when_the_travel_section_is_full(three: GameState) -> None:
    st = scenario(three)
    ps = pt.new_port(st.players, FULL)
    st.members["red-1a"] = ("mission", "C1")
    ps.missions["C1"] = "red-1a"
    st.members["red-1b"] = ("hold", RED)
    ps.ships[RED].hold.append("red-1b")
    assert pt.bury_at_sea(st, ps, FULL, "red-1a") is None
    assert st.members["red-1a"] == ("chronicle", Section.TRAVEL)  # PD1
    assert ps.missions["C1"] is None  # the church is free again (PV26)
    cap = st.data.chronicle_capacity(3)[Section.TRAVEL]
    st.chronicle[Section.TRAVEL] = [f"blue-{i}" for i in ("1a", "1b", "1c", "1d")][:cap]
    assert pt.bury_at_sea(st, ps, FULL, "red-1b") is None
    assert st.members["red-1b"] == ("sea", 0)  # PD2
    assert st.p[RED].prestige == FULL.cemetery_spaces(3)[0]
    assert ps.ships[RED].hold == []
    with pytest.raises(ValueError):
        pt.bury_at_sea(st, ps, FULL, "red-1c")  # on the farm: not a death at sea


def test_the_last_sea_cemetery_space_ends_the_game(three: GameState) -> None:
    st = scenario(three)
    ps = pt.new_port(st.players, FULL)
    st.chronicle[Section.TRAVEL] = ["x"] * st.data.chronicle_capacity(3)[Section.TRAVEL]
    ps.cemetery = ["blue-1a"] * (len(ps.cemetery) - 1) + [None]
    st.members["red-1a"] = ("hold", RED)
    ps.ships[RED].hold.append("red-1a")
    assert pt.bury_at_sea(st, ps, FULL, "red-1a") == "sea"  # PE2
    st.members["red-1b"] = ("hold", RED)
    ps.ships[RED].hold.append("red-1b")
    assert pt.bury_at_sea(st, ps, FULL, "red-1b") is None
    assert st.members["red-1b"] == ("removed", None)  # full: out of the game (ambiguity 8)


# --- invariants and data -----------------------------------------------------------------------


def test_invariants_catch_a_bad_hold_and_lost_tiles(three: GameState) -> None:
    st = scenario(three)
    ps = pt.new_port(st.players, FULL)
    assert pt.violations(st, ps, FULL) == []
    ps.ships[RED].hold = ["ox", "ox"]
    ps.cocoa -= 1
    found = pt.violations(st, ps, FULL)
    assert any("PV6/PV7" in v for v in found) and any(v.startswith("cocoa") for v in found)


def test_every_port_value_has_its_source_and_guesses_are_unverified() -> None:
    items = shipped_items("port")
    for key, item in items.items():
        assert item.source and item.question, key
        assert item.verified == (item.confidence == "high"), key
    assert {k for k, i in items.items() if i.verified} == {"port.stacks", "port.market"}


def test_malformed_port_data_is_named() -> None:
    v = fragment_values()
    v["port.islands"]["C"]["sells"]["cocoa"] = 9
    with pytest.raises(BoardDataError, match="'C' buys something"):
        build_data(v)
    v = fragment_values()
    v["port.sea"]["lanes"].append(["C", "Z"])
    with pytest.raises(BoardDataError, match="bad lane"):
        build_data(v)


def test_either_of_two_identical_captain_cards_may_be_named() -> None:
    """Seed 003 PV3 « Choisissez n'importe quel capitaine de n'importe quelle pile »: when a
    box holds two alike cards (the box check may say so), naming the one actually taken is
    the same choice as the listed one (alike cards are interchangeable: one of them leaves
    the pile)."""
    import copy
    import random

    import companion.village as v
    from companion import bags
    from companion.village.modules.module_data import shipped_values
    from companion.village.modules.port_actions import Recruit

    values = copy.deepcopy(shipped_values("port"))
    captains = values["port.captains"]
    twin = {**copy.deepcopy(captains[0]), "id": "c1-twin"}
    captains.append(twin)
    rng = random.Random(2)
    st = v.new_game(["red", "blue"], modules=["port"], module_values=values)
    for _ in range(3000):
        spec = v.chance_spec(st)
        if spec is not None:
            st = v.apply(st, bags.draw_with_rng(spec, rng))
            continue
        offers = v.legal_actions(st)
        recruits = [a for a in offers if isinstance(a, Recruit)]
        if any(a.captain == captains[0]["id"] for a in recruits):
            break
        travel = [a for a in offers if getattr(a, "space", None) == "travel"]
        st = v.apply(st, rng.choice(recruits or travel or offers))
    else:
        raise AssertionError("no recruit step offered the first captain")
    listed = next(a for a in recruits if a.captain == captains[0]["id"])
    assert all(a.captain != "c1-twin" for a in recruits)  # alike cards: one choice
    after = v.apply(st, Recruit(listed.player, "c1-twin"))
    assert port_of(after) is not None and port_of(st) is not None
    pair = {captains[0]["id"], "c1-twin"}
    assert len(pair & set(port_of(after).captains)) == 1 == len(pair & set(port_of(st).captains)) - 1
    assert port_of(after).ships[listed.player].captain in pair
    assert after.p[listed.player].coins == st.p[listed.player].coins - captains[0]["cost"]


def test_a_treasure_value_reported_is_never_refused_and_tells_nothing() -> None:
    """A treasure drawn by hand has one witness. An earlier taker's misread can leave the
    companion's stack without the value an honest taker now reads; refusing would also tell
    a deliberate misreporter that every tile of that value is out (held by others). So a
    printed value is always taken as reported: the tile recorded is one left in the stack,
    the value is the one reported, for its holder's page, cashing and the end."""
    import companion.village as v
    from companion.village.modules.port import Voyage

    st = v.new_game(["red", "blue"], modules=["port"])
    assert port_of(st) is not None and port_of(st).data is not None
    values = port_of(st).data.treasures
    five = next(t for t, c in values.items() if c == 5)
    port_of(st).treasures.remove(five)  # the only 5 already drawn (held face down by Blue)
    port_of(st).ships[Color.BLUE].treasures.append(five)
    port_of(st).voyage = Voyage(Color.RED, step="treasure")
    st.phase = "draw_treasure"
    offered = v.hand_reports(st, Color.RED)
    report = next(a for a in offered if values[a.to_json()["tile"]] == 5)
    after = v.apply(st, report)  # not refused
    assert port_of(after) is not None
    (held,) = [p for p in port_of(after).ships[Color.RED].hold if p.startswith("treasure:")]
    tile = held.split(":", 1)[1]
    assert tile != five and tile not in port_of(after).treasures  # a real tile, out of the stack
    red = v.view(after, "red")["port"]["ships"]["red"]
    assert red["treasure_coins"][tile] == 5  # the holder sees what they reported
    assert "5" not in str(v.view(after, "blue")["port"]["ships"]["red"])
    public = v.view(after, "table")["port"]
    assert public["ships"]["red"]["hold"] == ["treasure:?"]
    from companion.village.invariants import violations

    assert violations(after) == []
