"""Random legal Crecy games: every invariant and every secret checked after every action
(`companion.sim.crecy_games`), and the checks themselves able to fail."""

from __future__ import annotations

from typing import Any

import pytest
from crecy_positions import at_actions

from companion.cli import main
from companion.crecy import views
from companion.sim import crecy_games


def test_random_games_break_no_invariant_and_show_no_secret() -> None:
    found = crecy_games.simulate(12, seed=3)
    assert found["violations"] == 0, found["first_violations"]
    assert found["ended"] == 12 and found["actions"] > 12 * 50


def test_the_invariants_can_fail() -> None:
    st = at_actions()
    assert crecy_games.violations(st) == []
    st.player("red").gold = -1
    st.reserve["green"] -= 1
    st.player("blue").hand.append("Extra")
    found = crecy_games.violations(st)
    assert "red: gold -1" in found and "extra pawns: 14, not 15" in found
    assert "friend cards: 76, not 75" in found


def test_a_view_that_shows_a_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = views._player

    def leaky(p: Any, mine: bool, everything: bool) -> dict[str, Any]:
        return real(p, True, everything)

    monkeypatch.setattr(views, "_player", leaky)
    result = crecy_games.play(5, 2)
    assert result["violation_count"] > 0
    assert "secret" in result["violations"][0]


def test_companion_simulate_game_crecy(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "crecy", "--games", "3", "--json"]) == 0
    assert '"violations": 0' in capsys.readouterr().out
