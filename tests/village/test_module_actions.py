"""Port and Life goals actions: record forms, private outcomes, the virtual deal, and random
voyages that keep Port's invariants (every option applies, every non-option is refused
with nothing changed)."""

from __future__ import annotations

import random
import re

import pytest
from scenarios import scenario

from companion import village as v
from companion.bags import draw, draw_with_rng
from companion.village import narrate, options
from companion.village.actions import Action
from companion.village.errors import IllegalAction, MalformedAction
from companion.village.modules import goal_actions as ga
from companion.village.modules import life_goals as lg
from companion.village.modules import port as pt
from companion.village.modules import port_actions as pa
from companion.village.modules.module_data import shipped_values
from companion.village.modules.port_data import build_data
from companion.village.state import GameState
from companion.village.vocabulary import INFLUENCE, Color, Good

RED, BLUE = Color.RED, Color.BLUE
FULL = build_data(shipped_values("port"))


def test_deal_record_form_round_trips() -> None:
    deal = ga.DealGoals("silver", ((BLUE, "writer"), (RED, "farmer")))
    js = deal.to_json()
    assert js == {
        "type": "deal_goals",
        "tier": "silver",
        "hands": {"blue": "writer", "red": "farmer"},
    }
    assert ga.FIELD_PARSERS["hands"](js["hands"]) == deal.hands
    assert ga.public_form(deal) == {
        "type": "deal_goals",
        "tier": "silver",
        "players": ["blue", "red"],
        "hidden": ["hands"],
    }
    assert ga.public_form(ga.ClaimGoal(RED, "dealer")) is None  # a claim is public
    assert ga.ClaimGoal(RED, "dealer").to_json() == {
        "type": "claim_goal",
        "player": "red",
        "goal": "dealer",
    }


@pytest.mark.parametrize(
    "bad", [{}, {"red": "wizard"}, {"green": "writer"}, ["red"], {"red": {"silver": "writer"}}]
)
def test_a_malformed_deal_is_refused(bad: object) -> None:
    with pytest.raises(MalformedAction):
        ga.FIELD_PARSERS["hands"](bad)


@pytest.mark.parametrize("combo", [frozenset(), frozenset({"port"})])
def test_a_virtual_deal_is_a_legal_deal(combo: frozenset[str]) -> None:
    seats = (Color.RED, Color.BLUE, Color.YELLOW, Color.WHITE)
    for seed in range(20):
        gs = lg.new_goals(combo)
        for tier in lg.Tier:
            spec = ga.deal_spec(gs, seats, tier)
            assert spec.count == 4
            out = ga.deal_outcome(spec, draw(spec, seed))
            lg.deal_tier(gs, seats, tier, {Color(c): g for c, g in out["hands"].items()})  # type: ignore[attr-defined]
        assert lg.still_to_deal(gs, seats) == []
        assert len(gs.dealt()) == 8  # goals dealt exactly once


def test_the_virtual_deal_skips_hands_already_reported() -> None:
    seats = (RED, BLUE)
    gs = lg.new_goals(frozenset())
    lg.deal(gs, seats, {RED: lg.Hand("writer", "saint")})
    silver = ga.deal_spec(gs, seats, lg.Tier.SILVER)
    gold = ga.deal_spec(gs, seats, lg.Tier.GOLD)
    assert silver.slots == ("blue",) and "writer" not in silver.contents
    assert "saint" not in gold.contents


def test_port_fields_parse_and_the_treasure_draw_is_private() -> None:
    assert pa.FIELD_PARSERS["cargo"](["red-1a", "ox"]) == ("ox", "red-1a")
    with pytest.raises(MalformedAction):
        pa.FIELD_PARSERS["cargo"](["ox", "plough", "wagon", "horse"])
    with pytest.raises(MalformedAction):
        pa.FIELD_PARSERS["zone"]("")
    assert pa.Sail(RED, "B", (("green", 1),)).to_json() == {
        "type": "sail",
        "player": "red",
        "zone": "B",
        "pay": {"green": 1},
    }
    assert pa.public_form(pa.DrawTreasure("t3")) == {"type": "draw_treasure", "hidden": ["tile"]}


def test_treasures_are_hidden_from_the_others(three: GameState) -> None:
    ps = pt.new_port(three.players, FULL)
    ps.ships[RED].hold = ["treasure:t5"]
    ps.ships[RED].treasures = ["t2"]
    ps.treasures = ["t1", "t3", "t4", "t6"]
    mine, table = pt.view(ps, "red"), pt.view(ps, "table")
    assert mine["ships"]["red"]["hold"] == ["treasure:t5"]  # type: ignore[index]
    assert mine["ships"]["red"]["treasures"] == ["t2"]  # type: ignore[index]
    assert table["ships"]["red"]["hold"] == ["treasure:?"]  # type: ignore[index]
    assert table["ships"]["red"]["treasures"] == ["?"]  # type: ignore[index]
    assert "t5" not in str(pt.view(ps, "blue")) and "t2" not in str(table)


# --- random voyages -----------------------------------------------------------------------


def _random_table(three: GameState, rng: random.Random) -> GameState:
    st = scenario(three)
    red = st.p[RED]
    red.coins = rng.randint(0, 4)
    red.grain = rng.randint(0, 5)
    for g in Good:
        red.goods[g] = rng.randint(0, 2)
    for c in INFLUENCE:
        k = min(rng.randint(0, 4), st.supply[c])
        red.cubes[c] += k
        st.supply[c] -= k
    for m in ("red-2a", "red-2b"):
        if rng.random() < 0.5:
            st.members[m] = ("farm", None)
    return st


def _non_options(options: list[Action]) -> list[Action]:
    return [
        pa.Sail(RED, "J"),
        pa.Disembark(RED),
        pa.Anchor(RED),
        pa.IslandTake(RED),
        pa.ReturnPort(RED),
        pa.Load(RED, ("ox", "ox")),
        pa.Mission(RED, "C1"),
        pa.Recruit(BLUE, "c1-1"),
    ]


@pytest.mark.parametrize("seed", range(15))
def test_random_voyages_keep_the_port_invariants(three: GameState, seed: int) -> None:
    rng = random.Random(seed)
    st = _random_table(three, rng)
    ps = pt.new_port(st.players, FULL)
    for _voyage in range(10):
        if not pt.travel_possible(st, ps, FULL, RED):
            break
        pt.start_voyage(st, ps, RED)
        while ps.voyage is not None:
            if ps.voyage.step == "treasure":
                pt.apply_draw_treasure(ps, pa.DrawTreasure(rng.choice(pt.draw_treasure_spec(ps))))
                continue
            options = pt.voyage_options(st, ps, FULL)
            assert options, ps.voyage
            for bad in _non_options(options):
                if bad not in options:
                    before = (st.clone(), ps.clone())
                    with pytest.raises(IllegalAction):
                        pt.apply_voyage(st, ps, FULL, bad)
                    assert ps == before[1] and st.p == before[0].p
            # land and act on islands more often than a uniform pick would
            busy = [
                a
                for a in options
                if isinstance(a, pa.Disembark | pa.IslandSell | pa.IslandTake | pa.Mission)
            ]
            pick = rng.choice(busy if busy and rng.random() < 0.8 else options)
            pt.apply_voyage(st, ps, FULL, pick)
            assert pt.violations(st, ps, FULL) == []
            red = st.p[RED]
            assert red.coins >= 0 and red.grain >= 0
            assert all(n >= 0 for n in (*red.cubes.values(), *red.goods.values()))


# Developer text a player must never read: snake_case ids, dict or None reprs, "(s)" plurals,
# "1 coins"-style plurals.
_DEV_TEXT = re.compile(r"\b[a-z]+_[a-z_]+\b|\{'|\bNone\b|\bnull\b|\(s\)|\b1 [a-z]+s\b")


def test_module_options_narration_and_goals_speak_plain_words() -> None:
    found: dict[tuple[str, str], str] = {}
    kinds: set[str] = set()
    for seed in range(8):
        rng = random.Random(seed)
        seats = ["red", "blue", "white"][: 2 + seed % 2]
        st = v.start(v.make_header(seats, modules=["port", "life_goals"]))
        while st.phase != "over":
            spec = v.chance_spec(st)
            if spec is not None:
                action = v.parse_action(draw_with_rng(spec, rng))
            else:
                moves = v.legal_actions(st)
                for move in moves:
                    ch = options.choice(st, move)
                    text = " ".join([*ch["steps"], ch["cost_text"], ch["gain_text"]])
                    found.update({(move.type, m): text for m in _DEV_TEXT.findall(text)})
                    kinds.add(move.type)
                moves += [a for c in st.players for a in v.anytime_actions(st, c)]
                action = rng.choice(moves)
            after = v.apply_unchecked(st, action)
            for line in narrate.narrate(st, action, after):
                found.update({(action.type, m): line for m in _DEV_TEXT.findall(line)})
            for color in seats:
                hand = v.view(after, color)["life_goals"]["players"][color]
                for line in (x for lines in hand.get("missing", {}).values() for x in lines):
                    found.update({("missing", m): line for m in _DEV_TEXT.findall(line)})
            st = after
    assert {"recruit", "sail", "load", "disembark", "sell_exotic"} <= kinds  # Port was played
    assert found == {}
