"""House rules: per-game options where the rulebook is silent, stored in the record header
and honoured by replay; records without them keep the documented reading."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenarios import only_cubes, scenario

import companion.village as v
from companion.village.actions import Train, UseWell
from companion.village.house import HOUSE_RULES, HouseRules
from companion.village.state import GameState
from companion.village.vocabulary import Cube, Good, Space


def with_rules(st: GameState, **rules: bool) -> GameState:
    out = scenario(st)
    out.house = replace(out.house, **rules)
    return out


def test_defaults_are_the_documented_reading_and_go_in_the_header() -> None:
    header = v.make_header(["red", "blue"])
    assert header["house_rules"] == {n: r["default"] for n, r in HOUSE_RULES.items()}
    assert v.start(header).house == HouseRules()
    old = {k: val for k, val in header.items() if k != "house_rules"}  # a record from before
    assert v.start(old).house == HouseRules()


def test_replay_honours_the_header() -> None:
    header = v.make_header(["red", "blue"], house_rules={"train_only": False})
    assert header["house_rules"]["train_only"] is False
    assert header["house_rules"]["well_coins"] is False
    assert v.start(header).house.train_only is False


@pytest.mark.parametrize("bad", [{"no_such_rule": True}, {"well_coins": "yes"}, ["well_coins"]])
def test_bad_house_rules_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        v.make_header(["red", "blue"], house_rules=bad)  # type: ignore[arg-type]
    header = v.make_header(["red", "blue"])
    header["house_rules"] = bad
    with pytest.raises(v.ReplayError):
        v.start(header)


def crafts_turn(st: GameState) -> GameState:
    only_cubes(st, {Space.CRAFTS: {Cube.BROWN: 1}, Space.HARVEST: {Cube.BROWN: 1}})
    return v.apply(
        st, {"type": "take", "player": st.current_color.value, "space": "crafts", "cube": "brown"}
    )


def test_train_only(three: GameState) -> None:
    on = crafts_turn(with_rules(three))
    off = crafts_turn(with_rules(three, train_only=False))
    c = on.current_color
    only_train = [a for a in v.legal_actions(on) if isinstance(a, Train) and a.good is None]
    assert only_train, "the documented reading: training alone is allowed"
    assert not [a for a in v.legal_actions(off) if isinstance(a, Train) and a.good is None]
    assert [a for a in v.legal_actions(off) if isinstance(a, Train) and a.good is not None]
    with pytest.raises(v.IllegalAction):
        v.apply(off, only_train[0])
    assert c == off.current_color


def test_well_coins(three: GameState) -> None:
    def ready(st: GameState) -> GameState:
        only_cubes(st, {Space.HARVEST: {Cube.BROWN: 1}})
        p = st.p[st.current_color]
        p.cubes[Cube.GREEN] = 2
        p.coins = 1
        return st

    off = ready(with_rules(three))
    on = ready(with_rules(three, well_coins=True))
    assert not [a for a in v.legal_actions(off) if isinstance(a, UseWell)]
    wells = [a for a in v.legal_actions(on) if isinstance(a, UseWell)]
    assert {a.pay for a in wells} == {(("coin", 1), ("green", 2))}
    assert {a.space for a in wells} == set(Space)
    c = on.current_color
    well = next(a for a in wells if a.space is Space.HARVEST)
    supply = on.supply[Cube.GREEN]
    after = v.apply(on, well)
    assert after.p[c].coins == 0 and after.p[c].cubes[Cube.GREEN] == 0
    assert after.supply[Cube.GREEN] == supply + 2
    assert after.phase == "action" and after.act_space is Space.HARVEST
    with pytest.raises(v.IllegalAction):
        v.apply(off, well)
    told = v.narrate.narrate(on, well, after)[0]
    assert "pays 1 coin and 2 green cubes at the well" in told


def final_market(three: GameState, sells: bool) -> GameState:
    """Final turns: the second seat ended the game and could serve stall 1; the first seat
    takes the market cube."""
    st = with_rules(three, final_seller_sells=sells)
    first, ender, last = st.players
    st.current = 0
    only_cubes(st, {Space.MARKET: {Cube.BROWN: 1}, Space.HARVEST: {Cube.BROWN: 1}})
    st.end_trigger, st.end_cause, st.final_queue = ender, "graves", [last]
    tile = st.market[0]
    assert tile is not None
    wants = st.data.customers[tile]
    for good, n in wants.goods:
        st.p[ender].goods[good] = n
    st.p[ender].grain = wants.grain
    st.p[ender].cubes[Cube.GREEN] = 1
    for c in (first, last):
        st.p[c].goods = dict.fromkeys(Good, 0)
        st.p[c].grain = 0
    return v.apply(st, {"type": "take", "player": first.value, "space": "market", "cube": "brown"})


def test_final_seller_sells(three: GameState) -> None:
    ender = three.players[1]
    usual = final_market(three, sells=True)
    assert v.pending(usual).kind == "market" and v.pending(usual).player == ender
    strict = final_market(three, sells=False)
    assert v.pending(strict).kind != "market"
    assert strict.p[ender].customers == []


def test_the_marks_are_in_the_code() -> None:
    from pathlib import Path

    root = Path(v.__file__).parent
    text = "\n".join(p.read_text("utf-8") for p in root.glob("*.py"))
    for name in HOUSE_RULES:
        assert f"# HOUSE RULE {name}:" in text, name
