"""Rules from the text of seed 000 that the worked examples do not cover."""

from __future__ import annotations

import pytest
from scenarios import act, only_cubes, options, scenario, started

from companion import village as v
from companion.village import data, scoring
from companion.village.state import BAG, FARM, GameState
from companion.village.vocabulary import Color, Cube, Good, Section, Space

BLUE, YELLOW, RED = Color.BLUE, Color.YELLOW, Color.RED


def test_taking_a_cube_then_skipping_the_action(three: GameState) -> None:
    st = scenario(three)
    only_cubes(st, {Space.HARVEST: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="harvest", cube="brown")
    assert st.p[BLUE].cubes[Cube.BROWN] == 1
    st = act(st, type="skip", player="blue")
    assert v.pending(st).player == YELLOW and st.p[BLUE].grain == 0


def test_the_well_costs_three_cubes_of_one_colour_and_takes_no_cube(three: GameState) -> None:
    st = scenario(three)
    only_cubes(st, {Space.CHURCH: {Cube.BROWN: 1}})
    st.p[BLUE].cubes[Cube.PINK] = 3
    after = act(st, type="well", player="blue", color="pink", space="harvest")
    assert after.p[BLUE].cubes[Cube.PINK] == 0 and after.spaces[Space.CHURCH] == {Cube.BROWN: 1}
    assert v.pending(after).kind == "action"
    st.p[BLUE].cubes[Cube.PINK] = 2
    with pytest.raises(v.IllegalAction, match="Puits"):
        act(st, type="well", player="blue", color="pink", space="harvest")
    with pytest.raises(v.IllegalAction):
        act(st, type="well", player="blue", color="plague", space="harvest")


def test_harvest_yields_and_the_five_sack_cap(three: GameState) -> None:
    def harvest(goods: dict[Good, int], grain: int = 0) -> int:
        st = scenario(three)
        st.p[BLUE].goods.update(goods)
        st.p[BLUE].grain = grain
        only_cubes(st, {Space.HARVEST: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
        st = act(st, type="take", player="blue", space="harvest", cube="brown")
        return act(st, type="harvest", player="blue").p[BLUE].grain

    assert harvest({}) == 2
    assert harvest({Good.HORSE: 1, Good.PLOUGH: 1}) == 3
    assert harvest({Good.OX: 1, Good.PLOUGH: 1}) == 4
    assert harvest({Good.OX: 1, Good.HORSE: 1, Good.PLOUGH: 2}) == 4  # one combination only
    assert harvest({Good.OX: 1}) == 2
    assert harvest({}, grain=4) == 5


def test_no_harvest_without_a_member_on_the_farm(three: GameState) -> None:
    st = scenario(three)
    for m in ("blue-1a", "blue-1b", "blue-1c", "blue-1d"):
        st.members[m] = ("council", 1)
    only_cubes(st, {Space.HARVEST: {Cube.BROWN: 2}})
    before = v.summary(st)
    with pytest.raises(v.IllegalAction):
        act(st, type="harvest", player="blue")
    assert v.summary(st) == before
    # taking the cube is still allowed; with nothing to do the turn simply ends
    st = act(st, type="take", player="blue", space="harvest", cube="brown")
    assert v.pending(st).player == YELLOW


def test_family_recall_brings_a_member_home(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-1a"] = ("council", 3)
    only_cubes(st, {Space.FAMILY: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="family", cube="brown")
    assert {"type": "recall", "player": "blue", "member": "blue-1a"} in options(st)
    st = act(st, type="recall", player="blue", member="blue-1a")
    assert st.members["blue-1a"] == FARM


def test_church_sends_a_farm_member_into_the_black_bag(three: GameState) -> None:
    st = scenario(three)
    only_cubes(st, {Space.CHURCH: {Cube.GREEN: 1}, Space.HARVEST: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="church", cube="green")
    pays = {tuple(sorted(a["pay"].items())) for a in options(st) if a["type"] == "church"}
    assert pays == {(("coin", 1),), (("time", 3),)}  # no brown cube: a coin or 3 time
    timed = act(st, type="church", player="blue", member="blue-1a", pay={"time": 3})
    assert timed.members["blue-1a"] == BAG and timed.p[BLUE].time == 3


def test_members_in_the_black_bag_cannot_die(three: GameState) -> None:
    st = scenario(three)
    st.members.update({"blue-1a": BAG, "blue-1b": BAG, "blue-1c": BAG, "blue-1d": BAG})
    st.members["blue-2a"] = FARM
    st.p[BLUE].time = st.data.time_track_length - 2
    only_cubes(st, {Space.HARVEST: {Cube.PLAGUE: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="harvest", cube="plague")
    st = act(st, type="skip", player="blue")
    # the only visible member (a "2") dies at once: no choice to make
    assert st.members["blue-2a"] == ("chronicle", Section.FARM)
    assert all(st.members[m] == BAG for m in ("blue-1a", "blue-1b"))


def test_council_enter_with_a_scroll_and_take_the_next_first_player(three: GameState) -> None:
    st = scenario(three)
    st.p[BLUE].goods[Good.SCROLL] = 1
    only_cubes(st, {Space.COUNCIL: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 2}})
    st = act(st, type="take", player="blue", space="council", cube="brown")
    st = act(st, type="council_enter", player="blue", member="blue-1a", pay={"scroll": 1})
    assert st.members["blue-1a"] == ("council", 1) and st.p[BLUE].time == 1
    assert v.pending(st).kind == "privilege"
    st = act(st, type="privilege", player="blue", level=1)
    assert st.next_first == BLUE


def test_council_advance_costs_the_level_time_and_opens_lower_privileges(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-1a"] = ("council", 3)
    st.p[BLUE].cubes[Cube.GREEN] = 2
    only_cubes(st, {Space.COUNCIL: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 2}})
    st = act(st, type="take", player="blue", space="council", cube="brown")
    st = act(st, type="council_advance", player="blue", member="blue-1a", pay={"green": 2})
    assert st.p[BLUE].time == st.data.council_advance_time[4]
    levels = {a["level"] for a in options(st) if a["type"] == "privilege"}
    assert levels == {1, 2, 3, 4}
    st = act(st, type="privilege", player="blue", level=4)
    assert (st.p[BLUE].coins, st.p[BLUE].prestige) == (0, 3)


def test_privilege_without_moving_and_the_coin_rule(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-1a"] = ("council", 4)
    st.p[BLUE].coins = 0
    only_cubes(st, {Space.COUNCIL: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 2}})
    st = act(st, type="take", player="blue", space="council", cube="brown")
    with pytest.raises(v.IllegalAction, match="privil"):
        act(st, type="privilege", player="blue", level=4)  # needs exactly 1 coin
    st = act(st, type="privilege", player="blue", level=3, gain=["ox"])
    assert st.p[BLUE].goods[Good.OX] == 1 and st.members["blue-1a"] == ("council", 4)


def test_next_first_player_starts_the_next_round(three: GameState) -> None:
    st = scenario(three)
    st.next_first = RED
    only_cubes(st, {Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="church", cube="brown")
    st = act(st, type="skip", player="blue")
    assert st.phase == "mass_draw"  # mass: nobody to buy out, 4 figures drawn
    st = act(st, type="mass_draw", figures=["monk"] * 4)
    assert st.phase == "fill_bag" and st.players[st.first] == RED and st.next_first is None


def test_the_green_bag_keeps_leftovers_and_takes_all_supply_plague() -> None:
    st = started(["red", "blue"], seed=3)
    n = 2
    card_bag = sum(st.data.bag[n].values())
    on_board = sum(st.data.space_cubes[n].values())
    in_bag = sum(st.bag.values())
    assert in_bag == card_bag + 6 - on_board  # all 6 plague went in, the rest stays
    assert st.supply[Cube.PLAGUE] == 0


def test_fill_bag_refuses_wrong_counts() -> None:
    st = v.new_game(["red", "blue"])
    spec = v.chance_spec(st)
    assert spec is not None
    st = v.apply(
        st,
        {"type": "reveal_customers", "tiles": dict(zip(spec.slots, spec.contents, strict=False))},
    )
    with pytest.raises(v.IllegalAction, match="the bag holds only"):
        v.apply(st, {"type": "fill_bag", "spaces": {"harvest": {"brown": 30}}})
    with pytest.raises(v.IllegalAction, match="setup card"):
        v.apply(st, {"type": "fill_bag", "spaces": {"harvest": {"brown": 2}}})
    with pytest.raises(v.IllegalAction):
        v.apply(st, {"type": "fill_bag", "spaces": {s.value: {"plague": 3} for s in Space}})


def test_short_supply_adds_what_is_there() -> None:
    st = started(["red", "blue"], seed=1)
    st = scenario(st)
    st.supply[Cube.GREEN] = 1
    st.phase = "fill_bag"
    from companion.village.chance import bag_after_fill

    assert bag_after_fill(st)[Cube.GREEN] == st.bag[Cube.GREEN] + 1


def test_death_during_a_market_day_is_chosen_at_once(three: GameState) -> None:
    st = scenario(three)
    st.market[0] = "c02"  # 3 grain
    st.market[1] = "c06"  # 2 grain
    st.p[YELLOW].grain = 5
    st.p[YELLOW].cubes[Cube.GREEN] = 1
    st.p[YELLOW].time = st.data.time_track_length - 1
    st.members["yellow-1a"] = ("council", 1)
    only_cubes(st, {Space.MARKET: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="market", cube="green")
    assert v.pending(st).player == YELLOW  # Jérôme cannot sell
    st = act(st, type="serve", player="yellow", slot=0, pay={"green": 1})
    p = v.pending(st)
    assert (p.kind, p.player) == ("death", YELLOW)  # immediately, mid-market
    st = act(st, type="die", player="yellow", member="yellow-1a")
    assert st.members["yellow-1a"] == ("chronicle", Section.COUNCIL)
    assert v.pending(st).kind == "market"


SMALL = {
    "chronicle.sections": {s.value: [None] for s in Section},
    "graves.marks": [None, None, 4],
}


def _near_end(st: GameState, player: Color) -> GameState:
    """A small board (one chronicle space per section, 2 graves for 3 players), all full
    but one grave, and ``player`` about to lose a member."""
    board = data.from_values({**st.data.values, **SMALL})
    st = scenario(st)
    st.data = board
    pool = iter(m for c in st.players for m in st.family(c) if st.members[m][0] == "unborn")
    for s in Section:
        m = next(pool)
        st.members[m] = ("chronicle", s)
        st.chronicle[s].append(m)
    m = next(pool)
    st.members[m] = ("grave", None)
    st.graves.append(m)
    st.p[player].time = st.data.time_track_length - 2
    return st


def test_end_of_game_final_turns_and_postponed_mass(three: GameState) -> None:
    st = _near_end(three, BLUE)
    only_cubes(st, {Space.HARVEST: {Cube.PLAGUE: 1}})  # the last cube on the board
    st = act(st, type="take", player="blue", space="harvest", cube="plague")
    st = act(st, type="skip", player="blue")
    assert st.end_trigger == BLUE and st.end_cause == "graves"
    # Jérôme filled the last grave: no last turn for him; the others act once, freely,
    # since the board is empty; mass waits until then.
    p = v.pending(st)
    assert (p.kind, p.player, p.detail["free"]) == ("turn", YELLOW, True)
    assert {a["type"] for a in options(st)} == {"free"}
    st = act(st, type="free", player="yellow", space="family")
    st = act(st, type="birth", player="yellow")
    assert v.pending(st).player == RED
    st = act(st, type="free", player="red", space="harvest")
    st = act(st, type="harvest", player="red")
    assert st.phase in ("buyout", "mass_draw")  # the final mass
    while v.is_chance(st) or st.phase != "over":
        if st.phase == "mass_draw":
            st = act(st, type="mass_draw", figures=["monk"] * v.chance_spec(st).count)  # type: ignore[union-attr]
        else:
            st = v.apply(st, v.legal_actions(st)[-1])
    assert st.phase == "over"
    s = v.summary(st)
    assert s["over"] and s["winner"]


def test_dead_with_nowhere_to_go_are_removed_in_the_final_turns(three: GameState) -> None:
    st = _near_end(three, BLUE)
    only_cubes(st, {Space.HARVEST: {Cube.PLAGUE: 2}})
    st = act(st, type="take", player="blue", space="harvest", cube="plague")
    st = act(st, type="skip", player="blue")
    st.p[YELLOW].time = st.data.time_track_length - 2
    st = act(st, type="take", player="yellow", space="harvest", cube="plague")
    st = act(st, type="skip", player="yellow")
    st = act(st, type="die", player="yellow", member="yellow-1a") if st.phase == "death" else st
    assert any(loc[0] == "removed" for m, loc in st.members.items() if m.startswith("yellow"))


def test_end_during_a_market_day_triggered_by_another_player(three: GameState) -> None:
    st = _near_end(three, YELLOW)
    st.p[YELLOW].time = st.data.time_track_length - 1
    st.members["yellow-1a"] = ("council", 1)  # two groups: yellow must choose
    st.market[0] = "c02"
    st.p[YELLOW].grain = 3
    st.p[YELLOW].cubes[Cube.GREEN] = 1
    only_cubes(st, {Space.MARKET: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="market", cube="green")
    st = act(st, type="serve", player="yellow", slot=0, pay={"green": 1})
    st = act(st, type="die", player="yellow", member="yellow-1a")
    assert st.end_trigger == YELLOW and st.end_market_trigger == BLUE
    # the market day ends; then everyone, from Jérôme who opened it, has a last action
    while v.is_chance(st):
        spec = v.chance_spec(st)
        assert spec is not None
        st = v.apply(
            st,
            {
                "type": "reveal_customers",
                "tiles": dict(zip(spec.slots, spec.contents, strict=False)),
            },
        )
    assert v.pending(st).player == BLUE and st.final_queue == [YELLOW, RED]


def test_ties_break_on_customers_then_living_members(three: GameState) -> None:
    st = scenario(three)
    st.p[BLUE].prestige = st.p[YELLOW].prestige = st.p[RED].prestige = 10
    st.p[BLUE].coins = st.p[YELLOW].coins = st.p[RED].coins = 0
    assert scoring.winners(st) == [BLUE, YELLOW, RED]
    st.members["red-2a"] = FARM  # one more living member
    assert scoring.winners(st) == [RED]
    st.p[YELLOW].prestige = 10 - st.data.customers["c05"].prestige
    st.p[YELLOW].customers = ["c05"]  # same total, one more customer served
    assert scoring.winners(st) == [YELLOW]


def test_illegal_actions_name_the_rule_and_leave_the_state_untouched(three: GameState) -> None:
    st = scenario(three)
    only_cubes(st, {Space.HARVEST: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    before = v.summary(st)
    cases = [
        ({"type": "take", "player": "red", "space": "harvest", "cube": "brown"}, "not_your_turn"),
        ({"type": "take", "player": "blue", "space": "harvest", "cube": "pink"}, "no_such_cube"),
        ({"type": "harvest", "player": "blue"}, "wrong_step"),
        ({"type": "fill_bag", "spaces": {}}, "not_a_chance_point"),
    ]
    for action, code in cases:
        with pytest.raises(v.IllegalAction) as err:
            v.apply(st, action)
        assert err.value.code == code
        assert repr(action["type"]) in str(err.value) or action["type"] in str(err.value)
    assert v.summary(st) == before


@pytest.mark.parametrize(
    "bad",
    [
        None,
        [],
        "take",
        {},
        {"type": "fly"},
        {"type": "take", "player": "red"},
        {"type": "take", "player": "green", "space": "harvest", "cube": "brown"},
        {"type": "take", "player": "red", "space": "harvest", "cube": "brown", "x": 1},
        {"type": "recall", "player": "red", "member": "red-9z"},
        {"type": "buy", "player": "red", "good": "wagon", "pay": {"gold": 1}},
        {"type": "buy", "player": "red", "good": "wagon", "pay": {"pink": -1}},
        {"type": "serve", "player": "red", "slot": "zero", "pay": {}},
    ],
)
def test_malformed_input_is_its_own_error(three: GameState, bad: object) -> None:
    with pytest.raises(v.MalformedAction):
        v.apply(three, bad)  # type: ignore[arg-type]


def test_partial_actions_resolve_or_are_ambiguous(three: GameState) -> None:
    st = scenario(three)
    only_cubes(st, {Space.HARVEST: {Cube.BROWN: 1, Cube.PINK: 1}, Space.FAMILY: {Cube.GREEN: 1}})
    a = v.resolve(st, {"type": "take", "space": "family"})
    assert a.to_json()["cube"] == "green"
    with pytest.raises(v.AmbiguousAction) as err:
        v.resolve(st, {"type": "take", "space": "harvest"})
    assert len(err.value.options) == 2


def test_apply_never_changes_the_state_it_is_given(three: GameState) -> None:
    before = v.summary(three)
    for action in v.legal_actions(three):
        v.apply(three, action)
    assert v.summary(three) == before


def test_views_hide_other_players_customers(three: GameState) -> None:
    st = scenario(three)
    st.p[RED].customers = ["c01"]
    public = v.view(st, "table")
    assert public["players"]["red"]["customers"] == {"count": 1}
    assert public["players"]["red"]["score"]["customers"] is None
    assert "c01" not in str(public["players"])
    own = v.view(st, "red")
    assert own["players"]["red"]["customers"] == ["c01"]
    assert own["players"]["red"]["score"]["customers"] == st.data.customers["c01"].prestige
    assert v.view(st, "blue")["players"]["red"]["customers"] == {"count": 1}


def test_faq_any_generation_may_leave_the_farm_but_birth_and_death_follow_age(
    three: GameState,
) -> None:
    st = scenario(three)
    st.members["blue-2a"] = FARM
    st.p[BLUE].cubes[Cube.GREEN] = 2
    only_cubes(st, {Space.COUNCIL: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="council", cube="brown")
    st = act(st, type="council_enter", player="blue", member="blue-2a", pay={"green": 2})
    assert st.members["blue-2a"] == ("council", 1)  # a "2" while "1"s wait on the farm


def test_faq_buying_needs_no_member_in_the_building(three: GameState) -> None:
    st = scenario(three)
    st.p[BLUE].cubes[Cube.PINK] = 1
    only_cubes(st, {Space.CRAFTS: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="crafts", cube="green")
    st = act(st, type="buy", player="blue", good="scroll", pay={"pink": 1})
    assert st.p[BLUE].goods[Good.SCROLL] == 1
    assert not any(loc[0] == "craft" for loc in st.members.values())
    with pytest.raises(v.IllegalAction):
        act(scenario(three), type="produce", player="blue", building="office", good="scroll")


def test_views_show_tile_details_only_where_visible(three: GameState) -> None:
    st = scenario(three)
    market = {t for t in st.market if t}
    red_tile, blue_tile = sorted(st.unseen)[:2]
    st.unseen -= {red_tile, blue_tile}
    st.p[RED].customers = [red_tile]
    st.p[BLUE].customers = [blue_tile]
    assert set(v.view(st, "table")["customer_tiles"]) == market
    own = v.view(st, "red")["customer_tiles"]
    assert set(own) == market | {red_tile}
    assert own[red_tile]["prestige"] == st.data.customers[red_tile].prestige
    assert set(v.summary(st)["customer_tiles"]) == market | {red_tile, blue_tile}


def test_refused_trips_say_what_is_wrong(three: GameState) -> None:
    st = scenario(three)
    st.p[BLUE].goods[Good.WAGON] = 1
    only_cubes(st, {Space.TRAVEL: {Cube.BROWN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="travel", cube="brown")
    north = next(c for c, colour in st.data.start_paths if colour is Cube.BROWN)
    far = next(c for c in st.data.city_rewards if c not in {s for s, _ in st.data.start_paths})
    cases = [
        (
            {"member": "blue-1a", "city": north, "pay": {"brown": 2}},
            "cannot_afford",
            "you pay 2 brown but have 1",
        ),
        ({"member": "blue-1a", "city": far, "pay": {"brown": 2}}, "no_path", "start city"),
        ({"member": "blue-2a", "city": north, "pay": {"brown": 2}}, "not_on_farm", "unborn"),
    ]
    for fields, code, words in cases:
        with pytest.raises(v.IllegalAction) as err:
            act(st, type="travel", player="blue", **fields)
        assert err.value.code == code and words in str(err.value)


def test_a_buyout_cannot_name_a_member_twice(three: GameState) -> None:
    st = scenario(three)
    st.members.update({"blue-1a": BAG, "blue-1b": BAG})
    st.p[BLUE].coins = 2
    only_cubes(st, {Space.CHURCH: {Cube.BROWN: 1}})
    st = act(st, type="take", player="blue", space="church", cube="brown")
    st = act(st, type="skip", player="blue")
    assert v.pending(st).kind == "buyout"
    with pytest.raises(v.MalformedAction, match="twice"):
        act(st, type="buyout", player="blue", members=["blue-1a", "blue-1a"])
    st = act(st, type="buyout", player="blue", members=["blue-1b", "blue-1a"])
    assert st.p[BLUE].coins == 0 and st.members["blue-1a"] == st.members["blue-1b"] == ("church", 1)


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "mass_draw", "figures": [[]]},
        {"type": "buyout", "player": "red", "members": [{"a": 1}]},
        {"type": "die", "player": "red", "member": ["red-1a"]},
    ],
)
def test_unhashable_member_ids_are_malformed(three: GameState, bad: object) -> None:
    with pytest.raises(v.MalformedAction):
        v.apply(three, bad)  # type: ignore[arg-type]
