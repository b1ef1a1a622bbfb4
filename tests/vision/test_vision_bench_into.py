"""``companion vision-bench --into FILE``: the rows of the conditions measured replace
theirs in the bench file; the other conditions' rows stay, and each measured row says on
which code and when."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.camera_cli import _into


def _row(exact: float, counted: int) -> dict[str, float]:
    return {"exact": exact, "images": 12, "misread_under_hand": 0,
            "cubes_tracks_counted": counted}


def test_measured_rows_replace_theirs_and_the_others_stay(tmp_path: Path) -> None:
    path = tmp_path / "vision-bench.json"
    path.write_text(json.dumps({
        "accuracy": {"ordinary": 0.99, "real-ordinary": 0.95},
        "accuracy_by_kind": {"ordinary": {"cubes_tracks": 0.99},
                             "real-ordinary": {"cubes_tracks": 0.95}},
        "conditions": {"ordinary": _row(0.99, 0), "real-ordinary": _row(0.95, 0)},
        "warp_ms": 2.8}))
    result = {"accuracy": {"real-ordinary": 0.99},
              "accuracy_by_kind": {"real-ordinary": {"cubes_tracks": 0.99}},
              "counted_by_kind": {"real-ordinary": {"cubes_tracks": 384}},
              "conditions": {"real-ordinary": {**_row(0.99, 384), "images": 24,
                                               "misread_under_hand": 1}},
              "committed_under_occlusion": 0}
    _into(path, result, ["real-ordinary"])
    got = json.loads(path.read_text())
    assert got["accuracy"] == {"ordinary": 0.99, "real-ordinary": 0.99}
    assert got["conditions"]["ordinary"] == _row(0.99, 0)
    assert got["counted_by_kind"] == {"real-ordinary": {"cubes_tracks": 384}}
    assert got["warp_ms"] == 2.8 and got["committed_under_occlusion"] == 0
    assert got["images"] == 36 and got["misread_under_hand"] == 1
    assert set(got["measured"]) == {"real-ordinary"}
    assert got["measured"]["real-ordinary"]["at"].endswith("UTC")


def test_a_file_that_is_no_json_object_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "vision-bench.json"
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="no JSON object"):
        _into(path, {"accuracy": {}, "accuracy_by_kind": {}, "counted_by_kind": {},
                     "conditions": {}}, [])
    assert path.read_text() == "[1, 2]"
