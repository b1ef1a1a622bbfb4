"""The ``companion`` command as a user runs it (real processes, real files)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SPACES = {
    "harvest": 3,
    "family": 3,
    "crafts": 2,
    "market": 2,
    "travel": 2,
    "council": 3,
    "church": 3,
}
GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def run(
    *args: str, stdin: str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
        env=env,
    )


def test_replay_json_has_the_contract_fields() -> None:
    out = run("replay", str(GOLDEN / "three-players.jsonl"), "--json")
    assert out.returncode == 0, out.stderr
    s = json.loads(out.stdout)
    for key in ("round", "over", "current_player", "pending", "players", "winner"):
        assert key in s
    assert s["over"] is True and s["winner"]
    red = s["players"]["red"]
    for key in ("prestige", "time", "coins", "grain", "goods", "cubes", "members", "score"):
        assert key in red
    assert set(red["score"]) >= {
        "travel",
        "council",
        "church",
        "chronicle",
        "customers",
        "coins",
        "total",
    }
    assert {"id", "generation", "where"} <= set(red["members"][0])


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    lines = (GOLDEN / "two-players.jsonl").read_text().splitlines()
    lines.insert(
        5, json.dumps({"type": "take", "player": "red", "space": "market", "cube": "plague"})
    )
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    out = run("replay", str(bad), "--json")
    assert out.returncode == 2 and "refused" in out.stderr


def test_simulate_json_and_records_replay(tmp_path: Path) -> None:
    out = run(
        "simulate",
        "--games",
        "4",
        "--seed",
        "5",
        "--players",
        "3",
        "--json",
        "--record",
        str(tmp_path),
    )
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    for key in (
        "games",
        "actions",
        "seconds",
        "actions_per_second",
        "games_per_second",
        "violations",
        "ended_by",
    ):
        assert key in r
    assert r["games"] == 4 and r["violations"] == 0 and sum(r["ended_by"].values()) == 4
    records = sorted(tmp_path.glob("*.jsonl"))
    assert len(records) == 4
    replayed = json.loads(run("replay", str(records[0]), "--json").stdout)
    assert replayed["over"] is True


def test_boxcheck_stores_answers_used_by_later_games(tmp_path: Path) -> None:
    overlay = tmp_path / "answers.json"
    listed = json.loads(run("boxcheck", "--overlay", str(overlay), "--list", "--json").stdout)
    unverified = [r["key"] for r in listed["values"] if not r["verified"]]
    assert "time_track.length" in unverified
    out = run(
        "boxcheck",
        "--overlay",
        str(overlay),
        "--set",
        "time_track.length=12",
        "--confirm",
        "mass.grain_costs",
    )
    assert out.returncode == 0, out.stderr
    rows = {
        r["key"]: r
        for r in json.loads(run("boxcheck", "--overlay", str(overlay), "--list", "--json").stdout)[
            "values"
        ]
    }
    assert rows["time_track.length"] == {**rows["time_track.length"], "value": 12, "verified": True}
    assert rows["mass.grain_costs"]["verified"] is True
    bad = run("boxcheck", "--overlay", str(overlay), "--set", "time_track.length=-3")
    assert bad.returncode == 2 and "time_track.length" in bad.stderr
    assert json.loads(overlay.read_text())["time_track.length"] == 12  # the bad answer lost nothing


def test_boxcheck_interactive_session(tmp_path: Path) -> None:
    overlay = tmp_path / "answers.json"
    # the boxes owned: a wrong name, then none besides Village; first question: confirm;
    # second: a wrong value then a right one; then quit
    out = run(
        "boxcheck", "--overlay", str(overlay),
        stdin='attic\n\ny\n"oops"\n' + json.dumps(SPACES) + "\nq\n",
    )
    assert out.returncode == 0, out.stderr
    saved = json.loads(overlay.read_text())
    assert saved["setup.2.spaces"] == SPACES and len(saved) == 2 and "not accepted" in out.stdout
    assert "no box is called 'attic'" in out.stdout
    assert json.loads((tmp_path / "answers-boxes.json").read_text()) == []


def test_boxcheck_asks_only_about_the_boxes_owned(tmp_path: Path) -> None:
    overlay = tmp_path / "answers.json"
    every = json.loads(run("boxcheck", "--overlay", str(overlay), "--list", "--json").stdout)
    keys = {r["key"] for r in every["values"]}
    assert every["boxes_answered"] is False and "port.treasures" in keys and "goals.prestige" in keys
    assert run("boxcheck", "--overlay", str(overlay), "--boxes", "port").returncode == 0
    listed = json.loads(run("boxcheck", "--overlay", str(overlay), "--list", "--json").stdout)
    keys = {r["key"] for r in listed["values"]}
    assert listed["boxes"] == ["port"] and "port.sea" in keys
    assert not any(k.startswith("goals.") for k in keys)
    ok = run("boxcheck", "--overlay", str(overlay), "--set", "port.treasures=[2,3,3,4,4,6]")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(overlay.read_text()) == {"port.treasures": [2, 3, 3, 4, 4, 6]}
    bad = run("boxcheck", "--overlay", str(overlay), "--set", "port.treasures=[2,3]")
    assert bad.returncode == 2 and "a list of 6 items" in bad.stderr
    other = run("boxcheck", "--overlay", str(overlay), "--confirm", "goals.prestige")
    assert other.returncode == 2 and "Objectifs de vie (life goals) box, which you have not said you own" in (
        other.stderr
    )
    wrong = run("boxcheck", "--overlay", str(overlay), "--boxes", "port,attic")
    assert wrong.returncode == 2 and "no box is called 'attic'" in wrong.stderr
