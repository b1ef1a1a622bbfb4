"""Golden playthroughs: frozen game records under ``tests/golden/``, with what the engine
makes of them (the text, per-step legal actions and views, perft counts), regenerated and
compared on every run.

When a rule changes on purpose, regenerate with ``python -m companion.tools.golden --write``
and read the diff before committing it (``companion/tools/golden.py`` says what each file
holds).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion import village as v
from companion.games.chance import ChanceSpec
from companion.store.record import parse_record
from companion.tools import golden
from companion.village.chance import _draw_outcome, _reveal_outcome
from companion.village.transcript import render
from companion.village.vocabulary import Color

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("name", list(golden.SCRIPTS))
def test_golden_playthrough(name: str) -> None:
    header, actions = parse_record((GOLDEN / f"{name}.jsonl").read_text("utf-8"))
    assert render(header, actions) == (GOLDEN / f"{name}.txt").read_text("utf-8")


def test_every_golden_file_is_what_the_tool_makes() -> None:
    assert golden.GOLDEN == GOLDEN
    assert golden.differences(GOLDEN) == [], "python -m companion.tools.golden --write"


def test_the_tool_finds_a_changed_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for f in GOLDEN.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    steps = tmp_path / "two-players.steps.jsonl"
    lines = steps.read_text("utf-8").splitlines(keepends=True)
    steps.write_text("".join(lines[:10] + lines[11:]), "utf-8")  # one step lost
    (tmp_path / "perft.json").unlink()
    assert golden.main(["--check", "--dir", str(tmp_path)]) == 1
    said = capsys.readouterr().err.splitlines()
    assert said == [f"would change: {tmp_path / n}" for n in ("two-players.steps.jsonl",
                                                              "perft.json")]


@pytest.mark.parametrize("name", list(golden.SCRIPTS))
def test_a_players_own_view_holds_only_what_is_theirs(name: str) -> None:
    """Where a player's view differs from the table's: their viewer name, their own
    customers, score and life goals, and the tiles of customers they have served; nothing
    of another player's."""
    header, actions = parse_record((GOLDEN / f"{name}.jsonl").read_text("utf-8"))
    st = v.start(header)
    lines = (GOLDEN / f"{name}.steps.jsonl").read_text("utf-8").splitlines()
    assert len(lines) == len(actions)
    for line, action in zip(lines, actions, strict=True):
        step = json.loads(line)
        for who, change in step["views"].items():
            if who == "table":
                continue
            own = {t for t in st.p[Color(who)].customers}
            for path in [*change["set"], *change.get("gone", [])]:
                head = path.split(".")
                assert (path == "viewer" or head[:2] == ["players", who]
                        or head[:3] == ["life_goals", "players", who]
                        or (head[0] == "customer_tiles" and head[1] in own)), (step["step"],
                                                                               who, path)
        st = v.apply(st, action)


def test_draws_are_counted_by_outcome() -> None:
    """Four monks alike and two members, two drawn: monk+monk, monk+a, monk+b, a+b."""
    spec = ChanceSpec("mass_draw", ("monk",) * 4 + ("red-1a", "red-1b"), 2, (),
                      outcome=_draw_outcome)
    outcomes = golden.chance_outcomes(spec)
    assert sorted(tuple(o["figures"]) for o in outcomes) == [
        ("monk", "monk"), ("monk", "red-1a"), ("monk", "red-1b"), ("red-1a", "red-1b")]
    with pytest.raises(golden.TooBig):
        golden.chance_outcomes(ChanceSpec("reveal_customers", tuple(f"c{i:02}" for i in range(24)),
                                          8, tuple(str(i) for i in range(8)),
                                          outcome=_reveal_outcome))


def test_perft_counts_agree_with_a_count_by_hand() -> None:
    positions = json.loads((GOLDEN / "perft.json").read_text("utf-8"))["positions"]
    first = positions[0]
    header, actions = parse_record((GOLDEN / f"{first['game']}.jsonl").read_text("utf-8"))
    st = v.start(header)
    for a in actions[: first["step"]]:
        st = v.apply(st, a)
    assert v.chance_spec(st) is None
    moves = v.legal_actions(st)

    def open_after(move: v.Action) -> int:
        after = v.apply(st, move)
        spec = v.chance_spec(after)
        return len(v.legal_actions(after)) if spec is None else len(golden.chance_outcomes(spec))

    by_hand = sum(open_after(m) for m in moves)
    assert first["counts"][:2] == [len(moves), by_hand]
    with pytest.raises(golden.TooBig):
        golden.perft(st, 3, budget=10)
