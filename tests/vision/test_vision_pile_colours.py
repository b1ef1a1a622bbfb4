"""A pile's colours bound its count from below: each colour that is a cube of its own (no
other colour's shaded sides) is at least one cube, so a pile whose area lies on the step
between as many cubes as colours and one fewer is not in doubt (`vision.read_cubes`;
each case from a bench image read uncertain)."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout
from vision.read_cubes import _pile_misfit
from vision.read_parts import UNCERTAIN_BELOW


def test_a_pile_on_the_step_below_its_colours_count_is_sure() -> None:
    # three colours, each a cube, in 2.32 cube areas: the step from two to three cubes
    # is no doubt, there cannot be fewer cubes than colours
    assert 1.0 - 2 * _pile_misfit(2.32, 3, colours=3) == 1.0
    # one colour in the same area: two or three cubes, in doubt as before
    assert 1.0 - 2 * _pile_misfit(2.32, 3, colours=1) < UNCERTAIN_BELOW
    # the step up from three to four is still a doubt with three colours
    assert 1.0 - 2 * _pile_misfit(3.28, 3, colours=3) < UNCERTAIN_BELOW


def test_a_brown_cube_larger_than_an_orange_ones_sides_is_no_side(layout: Layout) -> None:
    # real-ordinary's 28th image of seed 5: on the red farm's supply a green, a brown,
    # two pink and an orange cube; in one blob of 3.28 cube areas the brown covers 215
    # samples and the orange 113. Brown is what an orange side turned from the lamp
    # reads as, but one orange cube's sides show at most 77 samples here (the guard
    # against a cube's sides): 215 samples are a brown cube of their own, and the four
    # colours four cubes. (Table 33 of seed 1, an orange side of 54 samples read brown,
    # stays uncertain: test_vision_cube_piles.)
    view, _shot, reading = bench.case(layout, "real-ordinary", 5, 27)
    assert reading.cubes.get("supply:red") == view.cubes["supply:red"]


def test_three_colours_on_the_step_from_two_cubes_are_three(layout: Layout) -> None:
    # real-ordinary's tenth image of seed 5: on the red farm's supply a brown, a pink
    # and an orange cube in one blob of 2.33 cube areas, 0.03 above the step between
    # two and three cubes: read uncertain, where three colours are three cubes
    view, _shot, reading = bench.case(layout, "real-ordinary", 5, 9)
    assert reading.cubes.get("supply:red") == view.cubes["supply:red"]
