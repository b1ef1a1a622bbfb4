"""Host side of the hub line protocol and the zone map file (unit tests of one module each)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.sensors.hub_protocol import BadLine, command, crc8, frame, parse_line
from companion.sensors.zone_config import load as load_zone_map
from companion.sensors.zone_map import UNMAPPED, ZoneMapError, parse_zone_map


def test_crc8_check_value_matches_the_firmware() -> None:
    assert crc8(b"123456789") == 0xF4  # CRC-8/SMBUS; firmware/tests checks the same
    assert command("START") == b"START*%02X\r\n" % crc8(b"START")


def test_good_lines_parse() -> None:
    line = parse_line(frame("7 SEEN 2 04A1B2C3D4E5F6")[:-2])
    assert (line.seq, line.type, line.args) == (7, "SEEN", ("2", "04A1B2C3D4E5F6"))
    assert line.reader(4) == 2
    with pytest.raises(BadLine):
        line.reader(2)
    hello = parse_line(frame("0 HELLO village-hub proto=1 fw=0.1.0 board=uno id=1 readers=3 "
                             "status=OFO rate=20")[:-2])
    assert hello.params["status"] == "OFO" and hello.params["id"] == "1"
    assert parse_line(frame("9 HB 1000 10,F,3")[:-2]).args == ("1000", "10,F,3")
    assert parse_line(frame("9 HB 1000 10,F,3 0,2,0")[:-2]).args[2] == "0,2,0"
    full = parse_line(frame("9 FULL 2 6")[:-2])
    assert (full.type, full.reader(3), full.args[1]) == ("FULL", 2, "6")


@pytest.mark.parametrize("raw", [
    b"", b"garbage", b"7 SEEN 2 04A1B2C3D4E5F6", b"7 SEEN 2 04A1B2C3D4E5F6*ZZ",
    b"\xff\xfe*00",
])
def test_unframed_lines_are_bad(raw: bytes) -> None:
    with pytest.raises(BadLine):
        parse_line(raw)


@pytest.mark.parametrize("body", [
    "7 SEEN 2 04A1", "7 SEEN x 04A1B2C3", "7 SEEN 2 04a1b2c3", "7 SEEN 2 04A1B2C3 9",
    "300 HB 1 2", "x HB 1 2", "7 HB 1 2,?", "7 HB 1 2,3 0", "7 HB 1 2,3 0,x", "7 FLY 1", "7 SYNC", "7 FAULT",
    "7 FULL", "7 FULL 1", "7 FULL 1 x", "7 FULL 1 2 3",
    "0 HELLO other-device proto=1 readers=1 status=O",
    "0 HELLO village-hub proto=1 readers=2 status=O", "0 HELLO village-hub proto=1 readers=1",
    "0 HELLO village-hub proto=1 readers=1 status=O junk",
])
def test_checksummed_but_malformed_lines_are_bad(body: str) -> None:
    with pytest.raises(BadLine):
        parse_line(frame(body)[:-2])


def test_wrong_checksum_is_bad() -> None:
    good = frame("1 GONE 0 A1B2C3D4")[:-2]
    bad = good[:-2] + b"%02X" % (int(good[-2:], 16) ^ 1)
    with pytest.raises(BadLine, match="checksum"):
        parse_line(bad)


def test_zone_map_file(tmp_path: Path) -> None:
    p = tmp_path / "zones.json"
    p.write_text(json.dumps({"hubs": {"1": {"0": "farm:red", "3": "bag"}},
                             "default": {"0": "council:1"}}))
    zm = load_zone_map(p)
    assert zm.zone(1, 0) == "farm:red" and zm.zone(1, 3) == "bag"
    assert zm.zone(1, 1) == UNMAPPED
    assert zm.zone(2, 0) == "council:1" and zm.zone(None, 0) == "council:1"


@pytest.mark.parametrize("data", [
    [], {"hubs": []}, {"hubs": {"x": {}}}, {"hubs": {"1": {"a": "bag"}}},
    {"hubs": {"1": {"0": 3}}}, {"other": {}}, {"default": {"0": ""}},
])
def test_bad_zone_maps_are_refused(data: object) -> None:
    with pytest.raises(ZoneMapError):
        parse_zone_map(data)


def test_zone_map_not_json(tmp_path: Path) -> None:
    p = tmp_path / "zones.json"
    p.write_text("{")
    with pytest.raises(ZoneMapError):
        load_zone_map(p)
