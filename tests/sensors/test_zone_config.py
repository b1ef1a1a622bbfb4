"""The zone map file: where it lives, save → load round trip on a real folder, bad zones
refused with a message naming the entry and what is allowed, a failed save losing nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.sensors import zone_config
from companion.sensors.zone_map import ZoneMap, ZoneMapError


def test_default_path_is_beside_the_database(tmp_path: Path) -> None:
    assert zone_config.default_path(tmp_path / "games.sqlite3") == tmp_path / "games.zones.json"


def test_save_then_load_round_trip(tmp_path: Path) -> None:
    zm = ZoneMap({1: {0: "farm:red", 1: "bag", 5: "council:2"}, 2: {0: "travel:north-west"}},
                 {3: "church:1"})
    path = zone_config.save(tmp_path / "games.zones.json", zm)
    assert zone_config.load(path) == zm
    assert json.loads(path.read_text()) == {
        "hubs": {"1": {"0": "farm:red", "1": "bag", "5": "council:2"},
                 "2": {"0": "travel:north-west"}},
        "default": {"3": "church:1"}}
    assert [p.name for p in tmp_path.iterdir()] == ["games.zones.json"]  # no temp left
    assert zone_config.load(zone_config.save(path, ZoneMap({}, {}))) == ZoneMap({}, {})


@pytest.mark.parametrize("zone", ["stock", "space:council", "council:5", "farm:green",
                                  "craft:mill", "travel:atlantis", "unmapped", "removed"])
def test_zones_a_reader_cannot_have_are_refused(tmp_path: Path, zone: str) -> None:
    path = tmp_path / "games.zones.json"
    zone_config.save(path, ZoneMap({1: {0: "farm:red"}}, {}))
    before = path.read_bytes()
    with pytest.raises(ZoneMapError) as err:
        zone_config.save(path, ZoneMap({1: {0: "farm:red", 4: zone}}, {}))
    msg = str(err.value)
    assert f"hub 1, reader 4: {zone!r}" in msg
    assert "farm:<colour>" in msg and "council:1…4" in msg and "bag" in msg
    assert path.read_bytes() == before  # the old file stays whole
    path.write_text(json.dumps({"hubs": {}, "default": {"2": zone}}))
    with pytest.raises(ZoneMapError, match=f"default, reader 2: {zone!r}"):
        zone_config.load(path)


def test_every_offered_zone_has_words_not_a_key() -> None:
    assert zone_config.label("farm:red") == "Red farm"
    assert zone_config.label("bag") == "Black bag's mouth"
    assert zone_config.label("council:2") == "Council level 2"
    assert zone_config.label("travel:north-west") == "Travel map, North-West"
    for zone, (_group, words) in zone_config.READER_ZONES.items():
        assert ":" not in words and words != zone


def test_load_reports_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "z.json"
    with pytest.raises(FileNotFoundError):
        zone_config.load(path)
    path.write_text("{not json")
    with pytest.raises(ZoneMapError, match="not JSON"):
        zone_config.load(path)
    path.write_text(json.dumps({"hubs": {"x": {}}}))
    with pytest.raises(ZoneMapError, match="'x' is not a hub id"):
        zone_config.load(path)


def test_a_failed_write_raises_and_leaves_nothing_behind(tmp_path: Path) -> None:
    old = zone_config.save(tmp_path / "games.zones.json", ZoneMap({1: {0: "bag"}}, {}))
    blocked = tmp_path / "blocked.zones.json"
    blocked.mkdir()  # the rename cannot replace a folder (even as root)
    with pytest.raises(OSError):
        zone_config.save(blocked, ZoneMap({1: {0: "farm:blue"}}, {}))
    with pytest.raises(OSError):
        zone_config.save(tmp_path / "missing" / "z.json", ZoneMap({}, {}))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blocked.zones.json",
                                                         "games.zones.json"]
    assert zone_config.load(old) == ZoneMap({1: {0: "bag"}}, {})
