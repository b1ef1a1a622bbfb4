"""Two cubes of one colour, one leaning on the other, are told from a lone cube by the
blob's length (`vision.cube_pairs`; each case from a bench image read wrong)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.layout import Layout


def test_a_pink_cube_leaning_on_a_pink_one_is_two(layout: Layout) -> None:
    # real-ordinary's twenty-first image of seed 5: on the harvest space a pink cube
    # leans on another, 1.53 cubes of area (lone cubes reach 1.35 there): by area one
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 5, 20)
    reading = reader.read(shot.image)
    assert reading.cubes.get("space:harvest") == view.cubes["space:harvest"]


def test_a_green_cube_leaning_on_a_green_one_is_two(layout: Layout) -> None:
    # real-ordinary's fifth image of seed 5: the same on the harvest space with greens
    # (1.58 cubes of area), beside a pink cube half under a third green one
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 5, 4)
    reading = reader.read(shot.image)
    assert reading.cubes.get("space:harvest") == view.cubes["space:harvest"]


def _square(side: int, shift: int = 0) -> np.ndarray:
    mask = np.zeros((40, 40), bool)
    mask[5:5 + side, 5:5 + side + shift] = True
    return mask


def test_a_lone_cube_with_its_sides_is_not_long() -> None:
    from vision.cube_pairs import elongation, is_pair

    # a cube 10 samples wide whose sides reach 4 samples further (away from the camera)
    top, sides = 100.0, 4 * 10 * 4 / np.pi
    assert elongation(_square(10, 4), top, sides) < 1.2
    assert not is_pair(_square(10, 4), 1.3, top, sides)


def test_two_cubes_overlapping_by_a_quarter_are_long() -> None:
    from vision.cube_pairs import elongation, is_pair

    # two 10-sample squares, the second 7.5 samples along: the lean the renderer draws
    mask = _square(10)
    mask[5:15, 12:23] = True
    top, sides = 100.0, 0.0
    assert elongation(mask, top, sides) > 1.6
    assert is_pair(mask, 1.5, top, sides)
    assert not is_pair(mask, 1.1, top, sides)  # as long, but no more than a cube's area
