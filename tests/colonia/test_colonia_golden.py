"""Colonia's golden playthrough: a frozen record of a random 3-player game (an invented
box, `companion.sim.colonia_games`) rendered with its narration, and per step the pending
decision, the number of legal options and the table's view digest; a rule change shows as a
diff. ``COLONIA_GOLDEN=write`` rewrites the text and steps (the record stays frozen; it is
made only when missing)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from companion.colonia import legal
from companion.colonia.engine import apply
from companion.colonia.game import GAME
from companion.colonia.record import replay, start
from companion.sim.colonia_games import random_game
from companion.store.record import format_record, parse_record

GOLDEN = Path(__file__).parent.parent / "golden"
NAME = "colonia-three-players"


def _steps(header: dict, actions: list[dict]) -> str:
    st = start(header)
    lines = []
    for i, action in enumerate(actions, start=1):
        view = json.dumps(GAME.view(st, "table"), sort_keys=True)
        lines.append(json.dumps({"step": i, "pending": GAME.pending(st).to_json(),
                                 "options": len(legal.moves(st)),
                                 "table_view": hashlib.sha256(view.encode()).hexdigest()[:16],
                                 "action": action}, sort_keys=True))
        st = apply(st, action)
    return "\n".join(lines) + "\n"


def test_the_golden_playthrough_is_unchanged() -> None:
    record = GOLDEN / f"{NAME}.jsonl"
    if not record.exists():
        header, actions, _, problems = random_game(2026, 3)
        assert not problems
        record.write_text(format_record(header, actions), "utf-8")
    header, actions = parse_record(record.read_text("utf-8"))
    text = GAME.render(header, actions, narration=True)
    steps = _steps(header, actions)
    last = replay(header, actions)
    assert last.step == "over"
    files = {GOLDEN / f"{NAME}.txt": text, GOLDEN / f"{NAME}.steps.jsonl": steps}
    if os.environ.get("COLONIA_GOLDEN") == "write":
        for path, body in files.items():
            path.write_text(body, "utf-8")
    for path, body in files.items():
        assert path.read_text("utf-8") == body, f"{path.name} changed: read the diff"
