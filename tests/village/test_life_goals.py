"""Life goals (seed 003 « Les Objectifs de vie »): the removal table, the deal, the nine
gold conditions, the silver item lists and claims. Rule numbers LS…LE as in
``shared/design/port-and-life-goals.md``."""

from __future__ import annotations

import pytest
from scenarios import scenario

from companion.village.data import BoardDataError
from companion.village.errors import IllegalAction
from companion.village.modules import life_goals as lg
from companion.village.modules.life_goals import goals_of
from companion.village.modules.module_data import shipped_items, shipped_values
from companion.village.modules.port import PortState, new_port
from companion.village.modules.port_data import build_data as build_port
from companion.village.state import BAG, FARM, GameState
from companion.village.vocabulary import Color, Good, Section

BLUE, YELLOW, RED = Color.BLUE, Color.YELLOW, Color.RED
DATA = lg.build_data(shipped_values("life_goals"))


def _port(st: GameState) -> PortState:
    return new_port(st.players, build_port(shipped_values("port")))


# --- LS3: the removal table ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("combo", "silver_out", "gold_out"),
    [
        (frozenset(), {"brewer", "explorer"}, {"innkeeper", "missionary"}),
        (frozenset({"inn"}), {"explorer"}, {"missionary"}),
        (frozenset({"port"}), {"brewer"}, {"innkeeper", "travelling_merchant"}),
        (frozenset({"inn", "port"}), set(), {"travelling_merchant"}),
    ],
)
def test_removal_table_by_combination(
    combo: frozenset[str], silver_out: set[str], gold_out: set[str]
) -> None:
    silver, gold = lg.pools(combo)
    assert set(lg.SILVER) - set(silver) == silver_out
    assert set(lg.GOLD) - set(gold) == gold_out


def test_pools_are_large_enough_for_four_players() -> None:
    assert tuple(map(len, lg.pools(frozenset()))) == (6, 7)
    assert tuple(map(len, lg.pools(frozenset({"port"})))) == (7, 7)
    with pytest.raises(ValueError, match="unknown expansion"):
        lg.pools(frozenset({"colonia"}))


def test_the_inn_cannot_be_switched_on() -> None:
    with pytest.raises(ValueError, match="not supported"):
        lg.new_goals(frozenset({"inn"}))


# --- LS4/LS5: the deal --------------------------------------------------------------------


def test_a_deal_gives_each_player_one_silver_and_one_gold() -> None:
    gs = lg.new_goals(frozenset())
    seats = (BLUE, YELLOW, RED)
    lg.deal(gs, seats, {BLUE: lg.Hand("writer", "saint"), YELLOW: lg.Hand("farmer", "dealer")})
    assert lg.still_to_deal(gs, seats) == [RED]  # hand play: each reports their own
    lg.deal(gs, seats, {RED: lg.Hand("knight", "historian")})
    assert lg.still_to_deal(gs, seats) == []
    assert gs.dealt() == {"writer", "saint", "farmer", "dealer", "knight", "historian"}


@pytest.mark.parametrize(
    ("hand", "rule"),
    [
        (lg.Hand("explorer", "saint"), "LS3"),  # explorer is removed without Port
        (lg.Hand("writer", "missionary"), "LS3"),
        (lg.Hand("saint", "writer"), "LS3"),  # tiers swapped
        (lg.Hand("farmer", "dealer"), "already dealt"),
    ],
)
def test_a_bad_deal_is_refused_and_changes_nothing(hand: lg.Hand, rule: str) -> None:
    gs = lg.new_goals(frozenset())
    seats = (BLUE, RED)
    lg.deal(gs, seats, {BLUE: lg.Hand("farmer", "dealer")})
    before = gs.clone()
    with pytest.raises(IllegalAction, match=rule):
        lg.deal(gs, seats, {RED: hand})
    assert gs == before


def test_a_player_is_dealt_once() -> None:
    gs = lg.new_goals(frozenset())
    lg.deal(gs, (BLUE, RED), {BLUE: lg.Hand("farmer", "dealer")})
    with pytest.raises(IllegalAction, match="already dealt their silver goal"):
        lg.deal(gs, (BLUE, RED), {BLUE: lg.Hand("writer", "saint")})


def test_a_half_bad_deal_records_nobody() -> None:
    gs = lg.new_goals(frozenset())
    with pytest.raises(IllegalAction):
        lg.deal(
            gs, (BLUE, RED), {BLUE: lg.Hand("farmer", "dealer"), RED: lg.Hand("farmer", "saint")}
        )
    assert gs.hands == {}


def test_goals_are_hidden_from_others_until_claimed() -> None:
    gs = lg.new_goals(frozenset())
    lg.deal(gs, (BLUE, RED), {BLUE: lg.Hand("farmer", "dealer")})
    assert lg.visible_hand(gs, BLUE, "blue")["gold"] == "dealer"
    assert "gold" not in lg.visible_hand(gs, BLUE, "red")
    assert "silver" not in lg.visible_hand(gs, BLUE, "table")
    gs.claimed[BLUE] = frozenset({"dealer"})
    assert lg.visible_hand(gs, BLUE, "red") == {"dealt": True, "claimed": ["dealer"]}


# --- LG1–LG9: the gold conditions -----------------------------------------------------------


def _met(st: GameState, goal: str, color: Color = BLUE, port: PortState | None = None) -> bool:
    return lg.met(st, color, goal, DATA, port)


def test_minister_needs_council_level_4_and_the_next_first_player_marker(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-1a"] = ("council", 4)
    assert not _met(st, "minister")
    assert lg.missing(st, BLUE, "minister", DATA) == ["the next-first-player marker"]
    st.next_first = BLUE
    assert _met(st, "minister")
    st.members["blue-1a"] = ("council", 3)
    assert not _met(st, "minister")


def test_master_craftsman_counts_buildings_and_the_crafts_chronicle(three: GameState) -> None:
    st = scenario(three)
    for m, b in (("blue-1a", "smithy"), ("blue-1b", "office"), ("blue-1c", "office")):
        st.members[m] = ("craft", b)
    assert not _met(st, "master_craftsman")
    st.members["blue-1d"] = ("chronicle", Section.CRAFTS)
    st.chronicle[Section.CRAFTS].append("blue-1d")
    assert _met(st, "master_craftsman")
    st.members["yellow-1a"] = ("craft", "smithy")  # another family's member does not count
    st.members["blue-1a"] = FARM
    assert not _met(st, "master_craftsman")


def test_historian_needs_four_different_chronicle_sections(three: GameState) -> None:
    st = scenario(three)
    for m, s in (
        ("blue-1a", Section.FARM),
        ("blue-1b", Section.FARM),
        ("blue-1c", Section.CHURCH),
        ("blue-1d", Section.COUNCIL),
    ):
        st.members[m] = ("chronicle", s)
        st.chronicle[s].append(m)
    assert not _met(st, "historian")  # 4 members, 3 sections
    st.members["blue-2a"] = ("chronicle", Section.TRAVEL)
    st.chronicle[Section.TRAVEL].append("blue-2a")
    assert _met(st, "historian")


def test_saint_needs_the_three_rightmost_windows(three: GameState) -> None:
    st = scenario(three)
    for m, w in (("blue-1a", 2), ("blue-1b", 3), ("blue-1c", 4)):
        st.members[m] = ("church", w)
    assert lg.missing(st, BLUE, "saint", DATA) == ["a member on church window 1"]
    st.members["blue-1d"] = ("church", 1)
    assert _met(st, "saint")


def test_travelling_merchant_needs_a_member_in_the_city_and_two_customers(three: GameState) -> None:
    st = scenario(three)
    city = DATA.merchant_city
    st.p[BLUE].cities.append(city)  # a travel marker is not a member
    st.p[BLUE].customers.extend(["c01", "c02"])
    assert not _met(st, "travelling_merchant")
    st.members["blue-1a"] = ("travel", city)
    assert _met(st, "travelling_merchant")
    st.p[BLUE].customers.pop()
    assert lg.missing(st, BLUE, "travelling_merchant", DATA) == ["1 more customer served"]


def test_disciple_needs_a_fourth_generation_member_on_a_window(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-3a"] = ("church", 4)
    st.members["blue-4a"] = BAG
    assert not _met(st, "disciple")
    st.members["blue-4a"] = ("church", 1)
    assert _met(st, "disciple")


def test_dealer_needs_six_customers(three: GameState) -> None:
    st = scenario(three)
    st.p[BLUE].customers.extend(f"c0{i}" for i in range(1, 6))
    assert not _met(st, "dealer")
    st.p[BLUE].customers.append("c06")
    assert _met(st, "dealer")


def test_missionary_needs_two_mission_churches(three: GameState) -> None:
    st = scenario(three)
    st.members["blue-1a"] = ("mission", "C1")
    assert not _met(st, "missionary")
    st.members["blue-1b"] = ("mission", "B1")
    assert _met(st, "missionary")


def test_innkeeper_is_never_met_without_the_inn(three: GameState) -> None:
    assert not _met(scenario(three), "innkeeper")


# --- LA6/LA7: silver items ----------------------------------------------------------------


def test_silver_items_are_minima_and_nothing_is_spent(three: GameState) -> None:
    st = scenario(three)
    wants = DATA.silver_items["aristocrat"]
    st.p[BLUE].coins = wants["coin"] - 1
    assert not _met(st, "aristocrat")
    st.p[BLUE].coins = wants["coin"] + 2  # more still counts (LA5)
    gs = lg.new_goals(frozenset())
    lg.deal(gs, st.players, {BLUE: lg.Hand("aristocrat", "saint")})
    prestige = st.p[BLUE].prestige
    lg.claim(st, gs, BLUE, "aristocrat", DATA)
    assert st.p[BLUE].coins == wants["coin"] + 2  # LA4: nothing returned
    assert st.p[BLUE].prestige == prestige + DATA.prestige[lg.Tier.SILVER]


def test_cargo_on_the_hold_does_not_count_for_a_farm_goal(three: GameState) -> None:
    st = scenario(three)
    ps = _port(st)
    wants = DATA.silver_items["carter"]
    for item, n in wants.items():
        st.p[BLUE].goods[Good(item)] = n
    assert _met(st, "carter", port=ps)
    st.p[BLUE].goods[Good.WAGON] -= 1
    ps.ships[BLUE].hold.append("wagon")
    assert not _met(st, "carter", port=ps)


def test_explorer_counts_only_the_hold_tile(three: GameState) -> None:
    st = scenario(three)
    ps = _port(st)
    ps.ships[BLUE].cocoa, ps.ships[BLUE].tea, ps.ships[BLUE].treasures = 1, 1, ["t1"]
    assert not _met(st, "explorer", port=ps)
    ps.ships[BLUE].hold = ["tea", "treasure:t2", "cocoa"]  # in any order (LA7)
    assert _met(st, "explorer", port=ps)


# --- LA2–LA3: claims ----------------------------------------------------------------------


def test_claims(three: GameState) -> None:
    st = scenario(three)
    gs = lg.new_goals(frozenset())
    lg.deal(gs, st.players, {BLUE: lg.Hand("writer", "dealer"), RED: lg.Hand("farmer", "saint")})
    st.p[BLUE].customers.extend(f"c0{i}" for i in range(1, 7))
    before_st, before_gs = st.clone(), gs.clone()
    for goal, rule in (("saint", "LS4/LS5"), ("writer", "LA2"), ("sorcerer", "not a life goal")):
        with pytest.raises(IllegalAction, match=rule):
            lg.claim(st, gs, BLUE, goal, DATA)
    assert gs == before_gs and st.p == before_st.p
    assert lg.claimable(st, gs, BLUE, DATA) == ["dealer"]
    lg.claim(st, gs, BLUE, "dealer", DATA)
    assert st.p[BLUE].prestige == DATA.prestige[lg.Tier.GOLD]
    with pytest.raises(IllegalAction, match="LA3"):
        lg.claim(st, gs, BLUE, "dealer", DATA)
    assert lg.claimable(st, gs, BLUE, DATA) == []


def test_auto_claiming_claims_the_moment_a_condition_holds(three: GameState) -> None:
    st = scenario(three)
    hands = {BLUE: lg.Hand("writer", "dealer"), RED: lg.Hand("farmer", "disciple")}
    by_hand, auto = lg.new_goals(frozenset()), lg.new_goals(frozenset(), auto=True)
    for gs in (by_hand, auto):
        lg.deal(gs, st.players, hands)
    st.members["red-4a"] = ("church", 2)
    assert lg.auto_claim(st, by_hand, st.players, DATA) == []
    assert lg.auto_claim(st, auto, st.players, DATA) == [(RED, "disciple")]
    assert lg.auto_claim(st, auto, st.players, DATA) == []  # once only


# --- data -----------------------------------------------------------------------------------


def test_every_goal_value_is_marked_unverified_with_its_source() -> None:
    items = shipped_items("life_goals")
    assert all(not i.verified and i.source and i.question for i in items.values())


def test_malformed_goal_data_is_named() -> None:
    values = shipped_values("life_goals")
    values["goals.silver.items"]["writer"] = {"gold bar": 1}
    with pytest.raises(BoardDataError, match="writer"):
        lg.build_data(values)
    del values["goals.prestige"]
    with pytest.raises(BoardDataError, match=r"lacks \['goals.prestige'\]"):
        lg.build_data(values)


def _to_the_end_with(goal: str, claims: str, seed: int = 1) -> GameState:
    """A random two-player game to its end, Red's silver goal forced to ``goal`` (the deal
    is drawn as usual, then Red's tile is swapped: goals change no decision, so the game
    plays out the same whatever Red holds)."""
    import random
    from typing import Any

    import companion.village as v
    from companion import bags
    from companion.sim.random_games import play_out

    def red_holds_goal(st: GameState, rng: random.Random) -> v.Action | dict[str, Any]:
        spec = v.chance_spec(st)
        if spec is None:
            return rng.choice(v.legal_actions(st))
        outcome = bags.draw_with_rng(spec, rng)
        if outcome["type"] == "deal_goals" and outcome["tier"] == "silver":
            hands = outcome["hands"]
            other = next((c for c, g in hands.items() if g == goal), None)
            if other is not None:
                hands[other] = hands["red"]
            hands["red"] = goal
        return outcome

    st = v.new_game(["red", "blue"], modules=["life_goals"], goal_claims=claims)
    return play_out(st, red_holds_goal, random.Random(seed), limit=None)[0]


def test_a_goal_met_by_the_last_move_can_still_be_claimed() -> None:
    """Seed 003 LA2: « À n'importe quel moment du jeu (même en fin de partie) »: a goal met
    at the end is claimed after the last move, by hand or automatically."""
    import companion.village as v
    from companion.village.modules.goal_actions import ClaimGoal

    st = _to_the_end_with("writer", "manual")
    assert st.phase == "over" and goals_of(st) is not None
    claim = ClaimGoal(Color.RED, "writer")
    assert claim in v.anytime_actions(st, Color.RED)
    before = st.p[Color.RED].prestige
    after = v.apply(st, claim)
    assert after.p[Color.RED].prestige > before and after.phase == "over"
    assert "writer" in goals_of(after).claimed[Color.RED]
    auto = _to_the_end_with("writer", "auto")
    assert "writer" in goals_of(auto).claimed.get(Color.RED, frozenset())
