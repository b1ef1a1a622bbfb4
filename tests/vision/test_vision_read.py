"""Reading rendered tables against their ground truth, condition by condition."""

from __future__ import annotations

import numpy as np
import pytest

from vision import bench
from vision.layout import Layout
from vision.read import BoardReader
from vision.render import Scene, on_table, render
from vision.table import TableView, from_dict

# Fewer images than the bench (``companion vision-bench`` renders 500+); the floors here
# sit a little under what the bench measures so that a real regression fails.
FLOORS = {"ordinary": 0.97, "perspective": 0.95, "blur": 0.88, "noise": 0.95, "warm": 0.95,
          "cool": 0.92, "dim": 0.92, "bright": 0.95, "shadows": 0.95, "hands": 0.9}


@pytest.mark.parametrize("condition", list(FLOORS))
def test_accuracy_per_condition(layout: Layout, condition: str) -> None:
    result = bench.accuracy(layout, 4, seed=11, conditions=[condition])[condition]
    assert result["exact"] >= FLOORS[condition], result
    assert result["misread_under_hand"] == 0


def test_a_known_table_is_read_exactly(layout: Layout) -> None:
    view = from_dict({
        "space:harvest": {"brown": 2, "green": 1}, "space:family": {},
        "space:crafts": {"orange": 2, "pink": 1}, "space:market": {"green": 3},
        "space:travel": {"pink": 2, "brown": 1}, "space:council": {"plague": 1, "green": 1},
        "space:church": {"brown": 3}, "supply:red": {"orange": 1},
        "time:red": {"red": 4}, "time:blue": {"blue": 9},
        "prestige": {"red": 3, "blue": 27},
    })
    reading = BoardReader(layout).read(render(layout, view, Scene(seed=3)).image)
    assert reading.board_found and not reading.occluded
    for name, counts in view.cubes.items():
        assert reading.cubes[name] == counts, name
    assert reading.cubes["space:family"] == {}
    assert reading.tracks["time:red"] == {"red": 4}
    assert reading.tracks["time:blue"] == {"blue": 9}
    assert reading.tracks["prestige"] == {"red": 3, "blue": 27}
    assert reading.tracks["time:white"] == {}  # no white marker on the table


def test_a_hand_hides_what_it_covers_and_nothing_far_away(layout: Layout) -> None:
    view = from_dict({"space:harvest": {"brown": 2}, "space:church": {"pink": 2}})
    for skin in range(5):
        shot = render(layout, view, Scene(seed=20 + skin, hands=[(330.0, 170.0)],
                                          hand_skin=skin))
        reading = BoardReader(layout).read(shot.image)
        covered = {k.split("/", 1)[1].partition("#")[0] for k in shot.covered}
        assert covered and covered <= reading.occluded, (skin, covered, reading.occluded)
        assert "space:harvest" not in reading.cubes
        assert reading.cubes["space:church"] == {"pink": 2}


def _hand_over_half_a_farm(layout: Layout, calibrated: bool) -> None:
    from vision import calibration as vcal

    view = from_dict({"farm:red": ["red-1a", "red-1b", "red-1c", "red-1d"],
                      "goods:red": {"grain": 2, "coin": 1}, "space:harvest": {"brown": 1}})
    spot = on_table(layout, "goods:red")
    empty = [render(layout, TableView(), Scene(seed=7 + i)).image for i in range(3)]
    make = (vcal.capture_empty(vcal.default(), empty).reader if calibrated
            else lambda: BoardReader(layout))
    for skin in range(5):
        reader = make()
        for _ in range(3):
            reader.read(render(layout, view, Scene(seed=7)).image)
        shot = render(layout, view, Scene(seed=7, hands=[spot], hand_skin=skin))
        reading = reader.read(shot.image)
        assert {"farm:red", "goods:red"} <= reading.occluded, skin
        assert "farm:red" not in reading.figures, (skin, reading.figures)


def test_a_hand_over_half_a_farm_is_a_hand_whatever_its_skin(layout: Layout) -> None:
    """An arm reaching over the red farm's goods covers half of that small board: with the
    empty board captured (as docs/vision.md has a person do first), each skin tone is seen
    as a hand and the farm's regions are held back (the camera game's action 9 read such a
    farm as "red 2, white 9"). The board-wide white balance and the camera's noise are
    measured on the board, so they must not be measured on the arm."""
    _hand_over_half_a_farm(layout, calibrated=True)


@pytest.mark.xfail(strict=True, reason="known (2026-11-27): uncalibrated, the reference is "
                   "the layout's printed colours, which differ from the board by more than "
                   "a pale arm does; the calibration's empty board is what tells it")
def test_uncalibrated_a_hand_over_half_a_farm_is_a_hand(layout: Layout) -> None:
    """As above, before any calibration (the reader as shipped)."""
    _hand_over_half_a_farm(layout, calibrated=False)


def test_no_board_in_view(layout: Layout) -> None:
    reading = BoardReader(layout).read(np.full((720, 1280, 3), 90, np.uint8))
    assert not reading.board_found
    assert "space:harvest" in reading.occluded and not reading.cubes
    assert reading.to_json()["board_found"] is False


def test_empty_table_reads_empty(layout: Layout) -> None:
    reading = BoardReader(layout).read(render(layout, TableView(), Scene(seed=8)).image)
    assert all(v == {} for v in reading.cubes.values())
    assert all(v == {} for v in reading.tracks.values())


def test_four_markers_on_one_prestige_cell_are_not_a_hand(layout: Layout) -> None:
    # every family starts on 0; the discs overlap but each still shows enough of itself
    view = from_dict({"prestige": {c: 0 for c in ("red", "yellow", "blue", "white")}})
    reading = BoardReader(layout).read(render(layout, view, Scene(seed=1)).image)
    assert reading.occluded == set()
    assert reading.tracks["prestige"] == {"red": 0, "yellow": 0, "blue": 0, "white": 0}


def test_a_steady_table_is_not_reread_but_a_change_is_seen(layout: Layout) -> None:
    before = from_dict({"space:harvest": {"brown": 1}, "space:church": {"pink": 2},
                        "time:red": {"red": 1}})
    after = from_dict({"space:harvest": {"brown": 1}, "space:church": {"pink": 2, "green": 1},
                       "time:red": {"red": 2}})
    reader = BoardReader(layout)

    def frame(view: TableView, i: int, pieces: int) -> np.ndarray:
        return render(layout, view, Scene(seed=100 + i, camera=1, pieces=pieces)).image

    reader.read(frame(before, 0, 1))
    reader.read(frame(before, 1, 1))
    read_before = reader.regions_read
    for i in range(2, 6):
        reading = reader.read(frame(before, i, 1))
        assert reading.cubes["space:church"] == {"pink": 2}
    assert reader.regions_read == read_before  # nothing changed: nothing re-read
    # the church gets a green cube (its pink ones stay put) and red's time marker moves
    changed = render(layout, after, Scene(seed=200, camera=1, pieces=1)).image
    reading = reader.read(changed)
    assert reading.cubes["space:church"] == {"pink": 2, "green": 1}
    assert reading.tracks["time:red"] == {"red": 2}
    assert reading.cubes["space:harvest"] == {"brown": 1}
    assert 0 < reader.regions_read - read_before < 6


def test_figures_are_counted_by_colour_in_their_zones(layout: Layout) -> None:
    view = from_dict({"council:2": ["red-1a", "blue-2a"], "church:1": ["yellow-1a"],
                      "farm:red": ["red-1b", "red-1c", "red-1d"], "graves": ["white-2a"]})
    for seed in range(3):
        reading = BoardReader(layout).read(render(layout, view, Scene(seed=seed)).image)
        seen = {z: v for z, v in reading.figures.items() if v}
        assert seen == {"council:2": {"red": 1, "blue": 1}, "church:1": {"yellow": 1},
                        "farm:red": {"red": 3}, "graves": {"white": 1}}, seed
