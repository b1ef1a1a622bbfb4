"""The simulated table through every setup: games end, nothing wrong is applied, every
prompt holds the truth; the bench command prints its numbers."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from companion.sim.behaviour import NOISE
from companion.sim.play_styles import random_truth
from companion.sim.table import SETUPS
from companion.sim.table_game import play


@pytest.fixture(scope="module")
def game() -> tuple[dict, list[dict]]:
    """The first 140 actions of a random 2-player game (one round and more)."""
    header, truth = random_truth(2, random.Random(11))
    return header, truth[:140]


def check_a_game(setup: str, noise: str, game: tuple[dict, list[dict]]) -> None:
    header, truth = game
    c = play(header, truth, setup, NOISE[noise], random.Random(5))
    assert c.actions == sum(1 for a in truth if a["type"] != "reveal_customers")
    assert c.auto_correct + c.auto_wrong + c.prompted + c.manual == c.actions  # all in
    assert c.auto_wrong == 0
    assert c.prompt_had_truth <= c.prompts and c.none_right <= c.answers
    # the prompts shown without the truth and not rightly answered "none of these"
    assert len(c.untrue_at) <= c.prompts - c.prompt_had_truth
    assert len(c.wrong_at) == c.auto_wrong
    assert c.long_prompts == 0  # never more than five long sentences (asking.too_long)
    # every touch of the tablet is put down to one cause and one kind of action
    assert sum(c.touch_causes.values()) == c.touches
    assert sum(sum(k.values()) for k in c.touch_kinds.values()) == c.touches
    assert c.touch_causes["entry"] == c.manual
    assert c.touch_causes["discrepancy"] == c.acks
    assert all(k == "entry" or k == "discrepancy" or k.startswith("prompt:")
               for k in c.touch_causes)
    if noise == "none":  # an ideal table: every prompt holds the truth
        assert c.prompt_had_truth == c.prompts
    if setup == "camera-ideal" and noise != "heavy":  # heavy: only that nothing is wrong
        assert c.auto_correct / c.actions > 0.6
    if setup == "camera" and noise != "heavy":  # cubes and markers: figures are asked
        assert c.auto_correct / c.actions > 0.3
    if setup == "pad":
        assert c.taps > 0 and c.auto_correct > 0


@pytest.mark.parametrize(("setup", "noise"), [("camera", "ordinary"), ("pad", "ordinary"),
                                             ("camera-ideal", "ordinary")])
def test_a_game_through_a_setup(setup: str, noise: str, game: tuple[dict, list[dict]]) -> None:
    check_a_game(setup, noise, game)


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("noise", ["none", "ordinary", "heavy"])
def test_every_setup_at_every_level(setup: str, noise: str, game: tuple[dict, list[dict]]) -> None:
    check_a_game(setup, noise, game)


def test_heavy_noise_with_a_knocked_cube_raises_a_discrepancy(game: tuple[dict, list[dict]]) -> None:
    header, truth = game
    c = play(header, truth, "camera", NOISE["heavy"], random.Random(2))
    assert c.discrepancies >= 1 and c.auto_wrong == 0


def test_unknown_setup_is_refused(game: tuple[dict, list[dict]]) -> None:
    with pytest.raises(ValueError, match="unknown setup"):
        play(*game, "radar", NOISE["none"], random.Random(1))


def test_the_bench_command_prints_json() -> None:
    cmd = [sys.executable, "-m", "companion.cli", "reconcile-bench", "--games", "1",
           "--seed", "4", "--setup", "pad", "--noise", "all", "--players", "2", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ), check=True)
    result = json.loads(out.stdout)
    assert [r["noise"] for r in result["results"]] == ["none", "ordinary", "heavy"]
    assert result["machine"]["gc_threshold"] == [10_000, 20, 10]  # as the service sets it
    for r in result["results"]:
        assert {"actions", "auto_correct", "auto_wrong", "prompted", "prompt_had_truth",
                "long_prompts",
                "prompt_none_right", "discrepancies", "taps_per_action", "touches_per_action",
                "compute_ms_p50", "compute_ms_p95", "compute_ms_p99", "compute_ms_max",
                "compute_table_ms_p95",
                "prompt_without_truth", "prompt_without_truth_at", "auto_wrong_at"} <= set(r)
        assert r["prompt_without_truth"] == len(r["prompt_without_truth_at"])
        touches = sum(r["touches_by_cause"].values())
        assert touches == r["manual"] + r["answers"] + r["acknowledged"]
        assert touches == sum(sum(k.values()) for k in r["touches_by_kind"].values())
        assert len(r["auto_wrong_at"]) == r["auto_wrong"]
    bad = subprocess.run([*cmd[:-1], "--setup", "radar"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown setup" in bad.stderr
