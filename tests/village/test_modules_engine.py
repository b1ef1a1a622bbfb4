"""Port and Life goals through the engine's own interface: records, the deal, claims at
any moment, the voyage of the worked example as actions applied by ``apply``, cocoa at the
market day, deaths at sea, and random games with the modules on (invariants after every
action, records replayed)."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from scenarios import only_cubes
from test_port import fragment_values

from companion import village as v
from companion.bags import draw_with_rng
from companion.sim.random_games import random_game
from companion.village import data as board_data
from companion.village import options
from companion.village.errors import IllegalAction
from companion.village.invariants import violations
from companion.village.modules import life_goals as lg
from companion.village.modules.life_goals import goals_of
from companion.village.modules.port import Voyage, port_of
from companion.village.state import GameState
from companion.village.vocabulary import Color, Cube, Good, Section, Space

RED, BLUE, YELLOW, WHITE = Color.RED, Color.BLUE, Color.YELLOW, Color.WHITE
# random games per module setting: a quarter of the base game's count (CI: 400 → 100 each)
GAMES = max(3, int(os.environ.get("VILLAGE_CONFORMANCE_GAMES", "3")) // 4)


def dealt(st: GameState, silver: dict[str, str], gold: dict[str, str]) -> GameState:
    """Draw the customers, then deal these goals (one report per player, as at a table
    dealing by hand), then fill the bag."""
    rng = random.Random(0)
    st = v.apply(st, draw_with_rng(v.chance_spec(st), rng))  # type: ignore[arg-type]
    for tier, hands in (("silver", silver), ("gold", gold)):
        for color, goal in hands.items():
            assert v.pending(st).kind == f"deal_{tier}"
            st = v.apply(st, {"type": "deal_goals", "tier": tier, "hands": {color: goal}})
    assert v.pending(st).kind == "fill_bag"
    return v.apply(st, draw_with_rng(v.chance_spec(st), rng))  # type: ignore[arg-type]


def goals_game(auto: bool = False) -> GameState:
    header = v.make_header(
        ["red", "blue", "yellow"], modules=["life_goals"], goal_claims="auto" if auto else "manual"
    )
    st = v.start(header)
    return dealt(
        st,
        {"red": "writer", "blue": "farmer", "yellow": "knight"},
        {"red": "dealer", "blue": "saint", "yellow": "disciple"},
    )


# --- records -------------------------------------------------------------------------------


def test_a_record_with_modules_replays_and_names_its_values() -> None:
    header = v.make_header(["red", "blue"], modules=["life_goals", "port"], goal_claims="auto")
    assert header["expansions"] == ["port", "life_goals"]
    assert header["goal_claims"] == "auto"
    assert "port.sea" in header["data"] and "goals.prestige" in header["data"]
    st = v.start(header)
    assert st.rules.modules == ("base", "port", "life_goals")
    assert port_of(st) is not None and goals_of(st) is not None and goals_of(st).auto


def test_a_module_s_header_option_is_checked_only_when_the_module_is_on() -> None:
    with pytest.raises(ValueError, match=r"goal_claims is one of \('manual', 'auto'\)"):
        v.make_header(["red", "blue"], modules=["life_goals"], goal_claims="sometimes")
    assert "goal_claims" not in v.make_header(["red", "blue"], goal_claims="sometimes")
    header = v.make_header(["red", "blue"], modules=["life_goals"])
    assert header["goal_claims"] == "manual"  # the first value accepted is the default
    header["goal_claims"] = "sometimes"
    with pytest.raises(v.ReplayError, match="goal_claims is one of"):
        v.start(header)
    del header["goal_claims"]
    st = v.start(header)
    assert goals_of(st) is not None and not goals_of(st).auto


def test_a_record_needs_the_keys_of_its_modules_and_nothing_else() -> None:
    header = v.make_header(["red", "blue"], modules=["port"])
    del header["data"]["port.islands"]
    with pytest.raises(v.ReplayError, match=r"port data lacks \['port.islands'\]"):
        v.start(header)
    header = v.make_header(["red", "blue"])
    header["data"]["goals.prestige"] = {"silver": 5, "gold": 8}
    with pytest.raises(v.ReplayError, match="life_goals is off"):
        v.start(header)
    header = v.make_header(["red", "blue"])
    header["expansions"] = ["inn"]
    with pytest.raises(v.ReplayError, match="unknown module"):
        v.start(header)


def test_a_module_action_is_refused_in_a_game_without_it() -> None:
    st = v.new_game(["red", "blue"])
    before = v.summary(st)
    with pytest.raises(IllegalAction) as err:
        v.apply(st, {"type": "claim_goal", "player": "red", "goal": "dealer"})
    assert err.value.code == "not_in_this_game" and v.summary(st) == before


# --- life goals ----------------------------------------------------------------------------


def test_the_deal_comes_before_the_first_fill_and_is_checked() -> None:
    st = v.new_game(["red", "blue"], modules=["life_goals"])
    st = v.apply(st, draw_with_rng(v.chance_spec(st), random.Random(1)))  # type: ignore[arg-type]
    p = v.pending(st)
    assert (p.kind, p.detail) == ("deal_silver", {"tier": "silver", "to_deal": ["red", "blue"]})
    spec = v.chance_spec(st)
    assert spec is not None and "explorer" not in spec.contents  # LS3, base game
    before = v.summary(st)
    with pytest.raises(IllegalAction, match="LS3"):
        v.apply(st, {"type": "deal_goals", "tier": "silver", "hands": {"red": "explorer"}})
    with pytest.raises(IllegalAction, match="not being dealt"):
        v.apply(st, {"type": "deal_goals", "tier": "gold", "hands": {"red": "saint"}})
    assert v.summary(st) == before
    st = v.apply(st, {"type": "deal_goals", "tier": "silver", "hands": {"red": "writer"}})
    assert v.pending(st).detail["to_deal"] == ["blue"]
    with pytest.raises(IllegalAction, match="already dealt"):
        v.apply(st, {"type": "deal_goals", "tier": "silver", "hands": {"blue": "writer"}})


def test_each_player_reports_their_own_tile_when_dealing_by_hand() -> None:
    # LS4 at a table dealing by hand: each player draws a tile of the tier, looks at it and
    # reports it alone; the step ends when everyone has, and the rest may be dealt virtually.
    st = v.new_game(["red", "blue", "white"], modules=["life_goals"])
    assert v.hand_reports(st, RED) == []  # customers first: not a hand report
    st = v.apply(st, draw_with_rng(v.chance_spec(st), random.Random(1)))  # type: ignore[arg-type]
    offer = [a.to_json() for a in v.hand_reports(st, RED)]
    silver_pool = [g for g in lg.SILVER if g not in lg.REMOVED[frozenset()]]
    assert offer == [
        {"type": "deal_goals", "tier": "silver", "hands": {"red": g}} for g in silver_pool
    ]
    st = v.apply(st, {"type": "deal_goals", "tier": "silver", "hands": {"red": "writer"}})
    assert v.hand_reports(st, RED) == []  # reported: nothing more to report this tier
    # Blue's list still holds Red's tile: the list must not tell Blue what Red drew ...
    assert {"type": "deal_goals", "tier": "silver", "hands": {"blue": "writer"}} in [
        a.to_json() for a in v.hand_reports(st, BLUE)
    ]
    # ... and reporting it is refused, in plain words, with nothing changed
    before = v.summary(st)
    with pytest.raises(IllegalAction) as err:
        v.apply(st, {"type": "deal_goals", "tier": "silver", "hands": {"blue": "writer"}})
    assert err.value.rule == "LS4" and err.value.words().startswith(
        "LS4: L'Écrivain is already dealt to another player"
    )
    assert v.summary(st) == before
    # the view shows Red their silver tile at once; the others see only that Red has one
    assert v.view(st, "red")["life_goals"]["players"]["red"]["silver"] == "writer"
    assert "to_report" not in v.view(st, "red")["life_goals"]["players"]["red"]
    blue_mine = v.view(st, "blue")["life_goals"]["players"]["blue"]["to_report"]
    assert blue_mine["tier"] == "silver" and len(blue_mine["goals"]) == len(silver_pool)
    assert "writer" not in str(v.view(st, "blue")["life_goals"]["players"]["red"])
    # the virtual deal of what is left deals only to those still to report
    spec = v.chance_spec(st)
    assert spec is not None and spec.slots == ("blue", "white") and "writer" not in spec.contents
    st = v.apply(st, draw_with_rng(spec, random.Random(2)))  # type: ignore[arg-type]
    assert v.pending(st).kind == "deal_gold"
    for color, goal in ((BLUE, "saint"), (WHITE, "dealer"), (RED, "historian")):
        assert v.pending(st).kind == "deal_gold"
        st = v.apply(st, {"type": "deal_goals", "tier": "gold", "hands": {color.value: goal}})
    assert v.pending(st).kind == "fill_bag"
    assert all(v.hand_reports(st, c) == [] for c in (RED, BLUE, WHITE))
    assert goals_of(st) is not None and goals_of(st).gold == {BLUE: "saint", WHITE: "dealer", RED: "historian"}


def test_a_goal_is_claimed_at_any_moment_with_its_prestige_at_once() -> None:
    st = goals_game()
    st.p[RED].customers.extend(["c01", "c02", "c03", "c04", "c05"])
    assert v.anytime_actions(st, RED) == []
    with pytest.raises(IllegalAction, match="still missing 1 more customer"):
        v.apply(st, {"type": "claim_goal", "player": "red", "goal": "dealer"})
    st.p[RED].customers.append("c06")
    waiting = v.pending(st)
    claim = {"type": "claim_goal", "player": "red", "goal": "dealer"}
    assert [a.to_json() for a in v.anytime_actions(st, RED)] == [claim]
    assert claim not in [a.to_json() for a in v.legal_actions(st)]  # listed apart
    after = v.apply(st, claim)
    assert after.p[RED].prestige == st.p[RED].prestige + 8
    assert v.pending(after) == waiting  # the pending decision is untouched
    with pytest.raises(IllegalAction, match="LA3"):
        v.apply(after, claim)


def test_a_claim_outside_ones_turn() -> None:
    st = goals_game()
    other = v.pending(st).player
    assert other is not None
    claimer = next(c for c in st.players if c != other)
    goal = {RED: "dealer", BLUE: "saint", YELLOW: "disciple"}[claimer]
    st.p[claimer].customers.extend(f"c0{i}" for i in range(1, 7))
    for m, w in (
        (f"{claimer.value}-1a", 1),
        (f"{claimer.value}-1b", 2),
        (f"{claimer.value}-1c", 3),
    ):
        st.members[m] = ("church", w)
    st.members[f"{claimer.value}-4a"] = ("church", 4)
    after = v.apply(st, {"type": "claim_goal", "player": claimer.value, "goal": goal})
    assert goal in goals_of(after).claimed[claimer]  # type: ignore[union-attr]


def test_auto_claiming_claims_the_moment_the_condition_holds() -> None:
    st = goals_game(auto=True)
    st.p[RED].customers.extend(f"c0{i}" for i in range(1, 7))
    action = next(a for a in v.legal_actions(st) if a.type == "take")
    after = v.apply(st, action)  # any action: the hook runs after it
    assert "dealer" in goals_of(after).claimed[RED]  # type: ignore[union-attr]
    assert after.p[RED].prestige == st.p[RED].prestige + 8


def test_goals_are_hidden_from_the_others_until_claimed() -> None:
    st = goals_game()
    mine = v.view(st, "red")["life_goals"]["players"]
    theirs = v.view(st, "blue")["life_goals"]["players"]
    assert {k: mine["red"][k] for k in ("dealt", "silver", "gold", "claimed")} == {
        "dealt": True,
        "silver": "writer",
        "gold": "dealer",
        "claimed": [],
    }
    assert mine["red"]["missing"]["dealer"] == ["6 more customers served"]
    assert mine["red"]["names"]["dealer"] == "Le Négociant"
    assert theirs["red"] == {"dealt": True, "claimed": []}
    assert "writer" not in str(v.view(st, "table")["life_goals"])
    assert v.summary(st)["life_goals"]["players"]["blue"]["gold"] == "saint"
    deal = {"type": "deal_goals", "tier": "gold", "hands": {"red": "dealer"}}
    assert v.public_action(deal) == {
        "type": "deal_goals",
        "tier": "gold",
        "players": ["red"],
        "hidden": ["hands"],
    }


# --- Port -----------------------------------------------------------------------------------


def port_game(values: dict[str, Any] | None = None) -> GameState:
    header = v.make_header(["blue", "yellow", "red"], modules=["port"], module_values=values)
    st = v.start(header)
    rng = random.Random(0)
    while v.is_chance(st):
        st = v.apply(st, draw_with_rng(v.chance_spec(st), rng))  # type: ignore[arg-type]
    return st


def test_port_setup() -> None:
    base = v.new_game(["blue", "yellow", "red"])
    st = port_game()
    assert (
        sum(st.supply[c] for c in Cube if c is not Cube.PLAGUE)
        + sum(
            st.bag[c] + sum(s.get(c, 0) for s in st.spaces.values())
            for c in Cube
            if c is not Cube.PLAGUE
        )
        == sum(base.supply[c] for c in Cube if c is not Cube.PLAGUE) + 12
    )  # PS11
    assert port_of(st) is not None and (port_of(st).cocoa, port_of(st).tea) == (4, 4)  # PS9
    assert port_of(st).data is not None and st.data.space_cubes == port_of(st).data.space_cubes  # PS3


def test_the_worked_voyage_through_the_engine() -> None:
    st = port_game(fragment_values())
    st.current = 2  # Philippe
    only_cubes(st, {Space.TRAVEL: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    red = st.p[RED]
    red.goods[Good.OX] = red.goods[Good.PLOUGH] = 1
    red.coins = 2
    red.cubes.update({Cube.GREEN: 1, Cube.BROWN: 1, Cube.ORANGE: 1})
    for c in (Cube.GREEN, Cube.BROWN, Cube.ORANGE):
        st.supply[c] -= 1
    start = st.clone()
    st = v.apply(st, {"type": "take", "player": "red", "space": "travel", "cube": "green"})
    assert v.pending(st).kind == "action"
    assert {"type": "recruit", "player": "red", "captain": "c2-1"} in [
        a.to_json() for a in v.legal_actions(st)
    ]
    script: list[dict[str, Any]] = [
        {"type": "recruit", "captain": "c2-1"},
        {"type": "load", "cargo": ["ox", "plough", "red-1b"]},  # any farm member of gen 1
        {"type": "sail", "zone": "A", "pay": {}},
        {"type": "sail", "zone": "B", "pay": {"green": 1}},
        {"type": "sail", "zone": "C", "pay": {"green": 1}},
        {"type": "disembark"},
        {"type": "island_sell", "item": "ox"},
        {"type": "island_sell", "item": "plough"},
        {"type": "mission", "church": "C1", "pay": {"brown": 1, "orange": 1}},
        {"type": "leave_island"},
    ]
    for step in script:
        st = v.apply(st, {**step, "player": "red"})
        if step["type"] != "leave_island":
            assert v.pending(st).kind == "voyage", step
    assert v.pending(st).kind == "turn" and v.pending(st).player == BLUE  # his turn is over
    assert (st.p[RED].prestige, st.p[RED].time - start.p[RED].time) == (12, 1)
    assert st.p[RED].cubes[Cube.GREEN] == 0  # the travel cube taken, then 2 paid
    assert [m for m, loc in st.members.items() if loc == ("mission", "C1")] == ["red-1a"]
    assert violations(st) == []


def test_a_wrong_voyage_step_names_the_rule() -> None:
    st = port_game(fragment_values())
    st.current = 2
    only_cubes(st, {Space.TRAVEL: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st.p[RED].coins = 2
    st = v.apply(st, {"type": "take", "player": "red", "space": "travel", "cube": "green"})
    st = v.apply(st, {"type": "recruit", "player": "red", "captain": "c2-1"})
    with pytest.raises(IllegalAction, match="PV6–PV10") as err:
        v.apply(st, {"type": "load", "player": "red", "cargo": ["ox"]})  # he owns no ox
    assert err.value.rule


def test_cocoa_sells_at_the_market_day_with_no_customer_left() -> None:
    st = port_game()
    st.current = 2
    only_cubes(st, {Space.MARKET: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st.market[:5] = [None] * 5  # no customer on the stalls
    assert port_of(st) is not None
    port_of(st).ships[RED].cocoa = 1
    port_of(st).cocoa -= 1
    st = v.apply(st, {"type": "take", "player": "red", "space": "market", "cube": "green"})
    assert v.pending(st).kind == "market"  # the day goes on: red can sell cocoa (PM8)
    sale = {"type": "sell_exotic", "player": "red", "item": "cocoa", "pay": {}}
    assert sale in [a.to_json() for a in v.legal_actions(st)]
    prestige = st.p[RED].prestige
    st = v.apply(st, sale)  # the trigger's first sale is free (PM4)
    assert st.p[RED].prestige == prestige + 7 and st.p[RED].time == 0
    assert v.pending(st).kind == "turn"  # nobody has more to sell: the day ends


def test_a_death_on_the_hold_goes_to_sea_when_the_travel_section_is_full() -> None:
    st = port_game()
    st.current = 2
    only_cubes(st, {Space.HARVEST: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    assert port_of(st) is not None
    for m in ("red-1a", "red-1b", "red-1c", "red-1d"):
        if m != "red-1a":
            st.members[m] = ("unborn", None)  # out of the way: red-1a is the oldest
    st.members["red-1a"] = ("hold", RED)
    port_of(st).ships[RED].hold = ["red-1a"]
    st.members["red-2a"] = ("farm", None)
    cap = st.data.chronicle_capacity(3)[Section.TRAVEL]
    st.chronicle[Section.TRAVEL] = [f"blue-{g}" for g in ("1a", "1b", "1c", "1d")][:cap]
    for m in st.chronicle[Section.TRAVEL]:
        st.members[m] = ("chronicle", Section.TRAVEL)
    st.p[RED].time = st.data.time_track_length - 1  # the next time unit crosses the bridge
    st.p[RED].grain = 5
    st = v.apply(st, {"type": "take", "player": "red", "space": "harvest", "cube": "green"})
    st = v.apply(st, {"type": "skip", "player": "red"})
    assert st.members["red-1a"] == ("hold", RED)  # no time spent yet
    # spend the time through the engine: a plague-free path is a church with 3 time
    st.current = 2
    only_cubes(st, {Space.CHURCH: {Cube.BROWN: 1}, Space.HARVEST: {Cube.GREEN: 1}})
    st = v.apply(st, {"type": "take", "player": "red", "space": "church", "cube": "brown"})
    st = v.apply(st, {"type": "church", "player": "red", "member": "red-2a", "pay": {"time": 3}})
    assert st.members["red-1a"] == ("sea", 0)  # PD2
    assert port_of(st) is not None
    assert port_of(st).cemetery[0] == "red-1a" and port_of(st).ships[RED].hold == []


def test_no_travel_score_with_the_port() -> None:
    st = port_game()
    st.p[RED].cities = ["north", "south"]
    assert v.summary(st)["players"]["red"]["score"]["travel"] == 0  # PE4


def test_others_do_not_see_a_treasure() -> None:
    st = port_game()
    assert port_of(st) is not None
    port_of(st).ships[RED].treasures = ["t6"]
    port_of(st).treasures.remove("t6")
    assert v.view(st, "red")["port"]["ships"]["red"]["treasures"] == ["t6"]
    assert v.view(st, "blue")["port"]["ships"]["red"]["treasures"] == ["?"]
    worth = port_of(st).data.treasures["t6"]  # type: ignore[union-attr]
    assert v.view(st, "red")["port"]["ships"]["red"]["treasure_coins"] == {"t6": worth}
    assert "treasure_coins" not in v.view(st, "blue")["port"]["ships"]["red"]
    assert "treasure_coins" not in v.view(st, "table")["port"]["ships"]["red"]
    assert v.public_action({"type": "draw_treasure", "tile": "t6"}) == {
        "type": "draw_treasure",
        "hidden": ["tile"],
    }
    cash = {"type": "cash_treasure", "player": "red", "tile": "t6"}
    assert [a.to_json() for a in v.anytime_actions(st, RED)] == [cash]
    coins = st.p[RED].coins
    assert v.apply(st, cash).p[RED].coins == coins + port_of(st).data.treasures["t6"]  # type: ignore[union-attr]


def test_the_taker_reports_a_treasure_drawn_by_hand_by_its_value() -> None:
    # PV21–PV22 with the real tiles: the taker sees the value and reports it on their page;
    # the choices are every printed value, whatever is left, so they tell nothing of the
    # others' treasures; tiles of one value are alike, so naming the first takes one left.
    st = port_game()
    ps = port_of(st)
    assert ps is not None and ps.data is not None
    values = ps.data.treasures  # tile → coins
    ps.voyage = port_voyage(RED)
    st.phase = "draw_treasure"
    by_value = {c: min(t for t, n in values.items() if n == c) for c in set(values.values())}
    offer = [a.to_json() for a in v.hand_reports(st, RED)]
    assert offer == [{"type": "draw_treasure", "tile": by_value[c]} for c in sorted(by_value)]
    assert v.hand_reports(st, BLUE) == []  # only the taker
    shown = v.view(st, "red")["port"]["to_report"]
    assert shown == [{"tile": by_value[c], "coins": c} for c in sorted(by_value)]
    assert "to_report" not in v.view(st, "blue")["port"]
    # the first tile of the lowest value is gone: the same report takes another of that value
    low = min(by_value)
    twins = sorted(t for t, n in values.items() if n == low)
    assert len(twins) > 1, "the shipped values have several tiles of the lowest value"
    ps.treasures.remove(twins[0])
    assert [a.to_json() for a in v.hand_reports(st, RED)] == offer  # the same choices
    after = v.apply(st, {"type": "draw_treasure", "tile": twins[0]})
    assert port_of(after) is not None and port_of(after).ships[RED].hold == [f"treasure:{twins[1]}"]
    # none of a value left by the companion's count: taken as reported (never refused: a
    # refusal would say the others hold them all), on a tile still in the stack
    for t in twins[1:]:
        ps.treasures.remove(t)
    after = v.apply(st, {"type": "draw_treasure", "tile": twins[0]})
    assert port_of(after) is not None
    (held,) = port_of(after).ships[RED].hold
    assert held.startswith("treasure:") and held[len("treasure:"):] not in twins
    assert port_of(after).reported == {held[len("treasure:"):]: low}


def port_voyage(color: Color) -> Voyage:
    return Voyage(color, step="treasure")


# --- random games with the modules on ----------------------------------------------------------


@pytest.mark.parametrize(
    ("modules", "claims"),
    [
        (("port",), "manual"),
        (("life_goals",), "auto"),
        (("port", "life_goals"), "manual"),
        (("port", "life_goals"), "auto"),
    ],
)
def test_random_games_with_modules_keep_every_invariant(
    modules: tuple[str, ...], claims: str
) -> None:
    rng = random.Random(hash(modules) % 1000 + len(claims))
    for i in range(GAMES):
        result = random_game(2 + i % 3, rng, modules=modules, goal_claims=claims)
        assert result.violations == [], result.violations[:5]
        assert result.final.phase == "over"


def test_a_treasure_never_cashed_counts_its_coins_at_the_end() -> None:
    st = port_game()
    assert port_of(st) is not None and port_of(st).data is not None
    port_of(st).ships[RED].treasures = ["t6"]
    port_of(st).ships[RED].hold = ["treasure:t5"]
    port_of(st).treasures = ["t1", "t2", "t3", "t4"]
    during = v.summary(st)["players"]["red"]["score"]["coins"]
    st.phase = "over"
    at_end = v.summary(st)["players"]["red"]["score"]["coins"]
    assert at_end == during + port_of(st).data.treasures["t6"]  # the one on the hold: nothing


def test_random_games_on_a_small_sea_keep_every_invariant() -> None:
    """A one-space Travel section and a one-space sea cemetery: deaths at sea and the third
    end trigger come early (PD1, PD2, PE2)."""
    values = v.module_defaults(["port", "life_goals"])
    values["port.sea_cemetery"] = [{"prestige": 3, "mark": None}]
    board_values = {k: i.value for k, i in board_data.shipped_items().items()}
    board_values["chronicle.sections"]["travel"] = [None]
    board = board_data.from_values(board_values)
    rng = random.Random(11)
    for i in range(2 * GAMES):
        result = random_game(
            2 + i % 3, rng, board=board, modules=("port", "life_goals"), module_values=values
        )
        assert result.violations == [], result.violations[:5]
        assert result.ended_by in ("graves", "chronicle", "sea")


def test_module_actions_are_told_in_words_without_secrets() -> None:
    st = v.new_game(["red", "blue"], modules=["life_goals"])
    st = v.apply(st, draw_with_rng(v.chance_spec(st), random.Random(2)))  # type: ignore[arg-type]
    # issue 18 item 7: the log's line must not go stale while players report their tiles
    # one by one on their phones (the play page says who has still to report)
    assert v.narrate.now_text(st) == (
        "Next: the silver life goals, face down: each player draws one, or the tablet deals "
        "them."
    )
    deal = {"type": "deal_goals", "tier": "silver", "hands": {"red": "writer", "blue": "farmer"}}
    told = " ".join(v.narrate.narrate(st, v.parse_action(deal), v.apply(st, deal)))
    assert "Silver life goals dealt, face down, to Red and Blue." in told
    assert "writer" not in told.lower() and "crivain" not in told
    port = port_game(fragment_values())
    port.members["red-1a"] = ("hold", RED)
    assert v.narrate.place_name(port.members["red-1a"], port.rules) == "Red's ship"


def test_voyage_options_are_told_step_by_step_for_the_play_page() -> None:
    st = port_game(fragment_values())
    st.current = 2
    only_cubes(st, {Space.TRAVEL: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st.p[RED].coins = 2
    st = v.apply(st, {"type": "take", "player": "red", "space": "travel", "cube": "green"})
    recruit = next(a for a in v.legal_actions(st) if a.to_json().get("captain") == "c2-1")
    assert options.choice(st, recruit)["steps"] == [
        "Hire a captain for 2 coins",
        "green per 1 extra move",
    ]
    st = v.apply(st, recruit)
    st = v.apply(st, {"type": "load", "player": "red", "cargo": []})
    sail = v.legal_actions(st)[0]
    assert options.choice(st, sail)["steps"] == ["Sail to time zone A", "no cube"]


def test_loading_the_ship_is_picked_piece_by_piece() -> None:
    """Issue 18: every load of up to three pieces was one option named whole ("Load the
    ship: grain, an ox, a plough"), so a farm holding many kinds of goods made a decision
    of dozens of buttons (1530 px on a tablet). Picked piece by piece, its first step has
    one choice per piece (and "Load nothing"), and each option's steps still name it alone."""
    st = port_game(fragment_values())
    st.current = 2
    only_cubes(st, {Space.TRAVEL: {Cube.GREEN: 1}, Space.CHURCH: {Cube.BROWN: 1}})
    st.p[RED].coins = 2
    st.p[RED].grain = 2
    for good in (Good.OX, Good.PLOUGH, Good.HORSE, Good.WAGON, Good.SCROLL):
        st.p[RED].goods[good] = 1
    st = v.apply(st, {"type": "take", "player": "red", "space": "travel", "cube": "green"})
    recruit = next(a for a in v.legal_actions(st) if a.to_json().get("captain") == "c2-1")
    st = v.apply(st, recruit)
    loads = v.legal_actions(st)
    assert len(loads) > 40 and all(a.type == "load" for a in loads)
    steps = [tuple(options.choice(st, a)["steps"]) for a in loads]
    assert len(set(steps)) == len(loads)  # every option reached by its own steps
    firsts = {s[0] for s in steps}
    assert "Load nothing" in firsts and "Load an ox" in firsts
    assert len(firsts) <= 8  # nothing, grain, five goods, a member
    by_cargo = {tuple(a.to_json()["cargo"]): s for a, s in zip(loads, steps, strict=True)}
    assert by_cargo[("grain", "ox", "plough")] == (
        "Load a sack of grain", "and an ox", "and a plough")
    assert by_cargo[("ox",)] == ("Load an ox", "nothing more")
