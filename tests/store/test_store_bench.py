"""The benchmark script runs and reports what docs/event-store.md quotes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.bench import store as bench


def test_bench_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--events", "50", "--undo-every", "10", "--dir", str(tmp_path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["events"] == 50
    assert result["effective_actions"] == 40  # 45 actions, 5 of them undone
    assert (result["journal_mode"], result["synchronous"]) == ("wal", 2)
    assert result["appends_per_s"] > 0 and result["read_and_effective_ms"] >= 0
    assert list(tmp_path.iterdir()) == [], "the temporary database is removed"
