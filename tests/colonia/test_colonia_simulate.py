"""Random Colonia games keep every invariant, and the invariants catch what they guard."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from colonia_kit import ready

from companion.cli import main
from companion.colonia.invariants import violations
from companion.colonia.state import Order
from companion.sim.colonia_games import random_game, simulate


def test_random_games_break_no_invariant_and_replay() -> None:
    result = simulate(12, seed=3)
    assert result["violations"] == 0, result["examples"]
    assert result["actions"] > 12 * 150


def test_every_player_count_reaches_the_end() -> None:
    for n in range(2, 7):
        _, _actions, last, problems = random_game(n, n)
        assert last.step == "over" and not problems and last.week == 6


@pytest.mark.parametrize("broken", ["material", "good", "member", "money"])
def test_the_invariants_catch_a_broken_count(broken: str) -> None:
    st = ready(["red", "blue", "green"])
    assert violations(st) == []
    red = st.seat("red")
    if broken == "material":
        st = replace(st, bag=(17, 18, 18, 18, 18))
    elif broken == "good":
        st = st.with_seat(replace(red, goods=(1, 0, 0, 0, 0)))
    elif broken == "member":
        st = replace(st, columns=((Order("red", 2),), (), (), (), ()))
    else:
        st = st.with_seat(replace(red, money=(-1, 0, 0, 0)))
    assert len(violations(st)) == 1


def test_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "colonia", "--games", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "colonia" and out["violations"] == 0


def test_the_bench_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--game", "colonia", "--seconds", "0.4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "colonia" and out["engine_steps"] > 0 and out["ratio"] > 0
