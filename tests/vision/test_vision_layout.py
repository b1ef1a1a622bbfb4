"""The layout file: complete, well-formed, and named with the companion's vocabulary."""

from __future__ import annotations

import json

import pytest

from companion.reconcile.observations import CUBE_COLOURS
from companion.village import zones
from companion.village.vocabulary import Color, Space
from vision import layout as layout_mod
from vision.layout import Layout, LayoutError


def test_every_action_space_and_farm_has_its_regions(layout: Layout) -> None:
    names = {r.name for b in layout.boards.values() for r in b.regions}
    for s in Space:
        assert zones.space(s) in names
    for c in Color:
        assert zones.time_track(c) in names
        assert zones.zone(zones.SUPPLY, c) in names
        assert zones.farm(c) in names
    assert "prestige" in names and "well" in names
    assert {f"council:{i}" for i in range(1, 5)} <= names
    assert {f"church:{i}" for i in range(1, 5)} <= names
    assert {f"chronicle:{s}" for s in ("council", "crafts", "travel", "church", "farm")} <= names
    assert "graves" in names


def test_the_camera_covers_the_travel_map_and_each_farms_goods(layout: Layout) -> None:
    from companion.sim.camera_game import load_record
    from companion.village import start

    header, _truth = load_record("two-players")
    names = {r.name for b in layout.boards.values() for r in b.regions}
    assert {zones.zone(zones.TRAVEL, c) for c in start(header).data.adjacency} <= names
    for c in Color:
        assert zones.zone(zones.GOODS, c) in names


def test_names_are_the_sensing_vocabulary(layout: Layout) -> None:
    assert layout_mod.CUBE_COLOURS == CUBE_COLOURS
    assert set(layout_mod.FAMILY_COLOURS) == {c.value for c in Color}
    for board in layout.boards.values():
        for r in board.regions:
            kind = r.name.partition(":")[0]
            if r.kind == "cubes":
                assert kind in zones.CUBE_REGION_KINDS, r.name
            elif r.kind == "track":
                assert kind in zones.TRACK_KINDS, r.name
            elif r.kind == "zone":
                assert kind in zones.PIECE_ZONE_KINDS, r.name
            elif r.kind == "items":
                assert kind in zones.ITEM_REGION_KINDS, r.name


def test_tracks_have_consecutive_cells_inside_their_board(layout: Layout) -> None:
    for board in layout.boards.values():
        cells: dict[str, list[int]] = {}
        for r in board.regions:
            x0, y0, x1, y1 = r.rect
            assert 0 <= x0 < x1 <= board.size_mm[0] and 0 <= y0 < y1 <= board.size_mm[1], r
            if r.kind == "track":
                assert r.cell is not None
                cells.setdefault(r.name, []).append(r.cell)
        for name, got in cells.items():
            assert sorted(got) == list(range(len(got))), name
    assert len([r for r in layout.boards["main"].regions if r.name == "prestige"]) == 50
    assert len([r for r in layout.boards["farm:red"].regions if r.name == "time:red"]) == 10


def test_marked_unverified_and_rejects_bad_rectangles() -> None:
    data = json.loads(layout_mod.SHIPPED.read_text("utf-8"))
    assert data["verified"] is False
    data["boards"]["main"]["regions"][0]["rect"] = [50, 50, 40, 60]
    with pytest.raises(LayoutError, match="bad rect"):
        layout_mod.parse(data)
    del data["boards"]
    with pytest.raises(LayoutError):
        layout_mod.parse(data)


def test_shipped_file_is_what_the_generator_makes() -> None:
    from vision.make_layout import layout as generated

    assert json.loads(layout_mod.SHIPPED.read_text("utf-8")) == json.loads(
        json.dumps(generated()))
