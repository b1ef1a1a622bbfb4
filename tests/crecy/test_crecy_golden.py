"""Golden Crecy games: two records made once by seeded random tables (with their cards
answered on the way), frozen under ``tests/crecy/golden/``, and their text. A rule change
shows as a changed text or a record that no longer replays. Regenerate (read the diff!):
``CRECY_GOLDEN_WRITE=1 pytest tests/crecy/test_crecy_golden.py``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.crecy.game import GAME
from companion.sim import crecy_games

HERE = Path(__file__).resolve().parent / "golden"
GAMES = {"three-players": (11, 3), "two-players": (12, 2)}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game(name: str) -> None:
    record, text = HERE / f"{name}.jsonl", HERE / f"{name}.txt"
    if os.environ.get("CRECY_GOLDEN_WRITE") or not record.exists():
        played = crecy_games.play(*GAMES[name])
        lines = [played["header"], *played["record"]]
        record.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines),
                          "utf-8")
        text.write_text(GAME.render(played["header"], played["record"], True), "utf-8")
    header, *actions = [json.loads(x) for x in record.read_text("utf-8").splitlines()]
    st = GAME.replay(header, actions)
    assert GAME.is_over(st)
    assert GAME.render(header, actions, True) == text.read_text("utf-8")
