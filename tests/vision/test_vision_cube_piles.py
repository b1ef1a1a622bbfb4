"""Piles of cubes on the real table: a cube leaning on another hides part of it, so a
blob of touching and stacked cubes shows less than its cubes' areas (the camera game's
farm supplies of 5-9 cubes were read a cube short, 29 of its 50 committed misreads on
main; docs/history/vision-measured.md « Items and the camera game (tenth session) »). The pile rule is
the farm supplies' only: on the action spaces it counted blurred orange cubes two."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera_game import REAL_SEED, RenderedTable, calibrate_real
from vision.bench import scene_for
from vision.layout import CUBE_COLOURS, Layout
from vision.read_cubes import _pile_misfit, _share_pile
from vision.read_parts import UNCERTAIN_BELOW
from vision.render import render
from vision.table import TableView


def test_a_stacked_pair_is_two_cubes() -> None:
    # measured on the real table: a cube leaning on another shows 1.14-2.21 cube areas
    # with it (one cube alone 0.60-1.19): 1.45 rounded to the nearest count was one
    assert _share_pile([1.45]) == [2]
    assert _share_pile([1.05]) == [1]
    assert _share_pile([2.4]) == [3]


def test_a_blob_is_rounded_once_not_once_a_colour() -> None:
    # two touching cubes of two colours, 2.15 areas shared 1.25 / 0.90: one each
    assert _share_pile([1.25, 0.9]) == [1, 1]
    # a pile of three, two of them brown: the brown share gets the cube left over
    assert _share_pile([1.6, 0.9]) == [2, 1]
    # every colour that is a cube of its own counts at least one
    assert _share_pile([0.5, 0.5, 0.5]) == [1, 1, 1]


def test_a_pile_on_the_step_between_two_counts_is_uncertain() -> None:
    conf = [1.0 - 2 * _pile_misfit(x, m) for x, m in ((1.3, 2), (2.3, 3), (1.28, 1))]
    assert all(c < UNCERTAIN_BELOW for c in conf), conf
    assert 1.0 - 2 * _pile_misfit(1.6, 2) == 1.0
    assert 1.0 - 2 * _pile_misfit(0.95, 1) == 1.0


@pytest.mark.slow
def test_farm_supplies_of_four_to_nine_cubes_are_counted(layout: Layout) -> None:
    # the camera game's real table (``--real``), calibrated as it is there; supplies of
    # 4-9 cubes of the four colours a family holds, drawn where the tuning did not look
    # (pieces 4000+): the count of cubes in each supply (colours aside: brown and orange
    # are another reading's) right or uncertain, never more than 2 of 16 wrong (main
    # before this rule: 7 of 16)
    scene = scene_for("real-ordinary", np.random.default_rng(REAL_SEED), layout)
    table = RenderedTable.__new__(RenderedTable)
    table.real, table.camera, table.layout = scene, 1, layout
    table.placing = None  # each drawing lays the supplies anew from its own seed
    reader = calibrate_real(layout, table).reader()
    g = np.random.default_rng(4000)
    wrong: list[str] = []
    for k in range(8):
        cubes: dict[str, dict[str, int]] = {}
        for s in ("supply:red", "supply:yellow"):
            c: dict[str, int] = {}
            for _ in range(int(g.integers(4, 10))):
                colour = CUBE_COLOURS[int(g.integers(4))]
                c[colour] = c.get(colour, 0) + 1
            cubes[s] = c
        reading = reader.read(render(layout, TableView(cubes=cubes),
                                     table.scene(4000 + k, [])).image)
        for s, want in cubes.items():
            got = reading.cubes.get(s)
            if s not in reading.uncertain and sum((got or {}).values()) != sum(want.values()):
                wrong.append(f"{k} {s} {want} read {got}")
    assert len(wrong) <= 2, wrong


def test_a_pile_with_more_colours_than_its_area_holds_cubes_is_uncertain() -> None:
    # three colours sharing 1.58 cube areas: the area holds two cubes, so one colour is
    # another's side or rim; whichever it is, three is no count to give when one of
    # them is what another's sides read as (brown beside orange)
    assert 1.0 - 2 * _pile_misfit(1.58, 3, sided=True) < UNCERTAIN_BELOW
    assert 1.0 - 2 * _pile_misfit(2.45, 3, sided=True) == 1.0  # three, one mostly hidden
    # a pink cube mostly under a green one: no green side reads pink, so the two colours
    # are two cubes however little of the pink shows
    assert 1.0 - 2 * _pile_misfit(1.1, 2, sided=False) == 1.0


def test_a_shaded_sides_colour_in_a_small_heap_is_uncertain_not_a_cube(
        layout: Layout) -> None:
    # the bench's real-ordinary table 33 of seed 1: on the blue farm's supply an orange
    # cube lies against a plague cube; the orange's shaded side (54 samples, its core
    # RGB 106, 72, 26, as near brown's hue as orange's) was counted a brown cube half
    # hidden: three colours in a blob of 1.58 cube areas, read plague, orange and brown
    from vision import bench

    *_rest, view, shot, reader = bench._table(layout, "real-ordinary", 1, 33)
    reading = reader.read(shot.image)
    supply = "supply:blue"
    assert supply in reading.uncertain or reading.cubes.get(supply) == view.cubes[supply]
