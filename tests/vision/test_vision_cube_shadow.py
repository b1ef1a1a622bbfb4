"""A brown cube on a print of nearly its hue is a cube, not a shadow (`vision.cube_shadow`;
the case from a bench image read wrong)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.cube_shadow import cube_hued
from vision.layout import Layout


def test_a_brown_cube_on_the_ochre_harvest_space_is_seen(layout: Layout) -> None:
    # real-ordinary's third image of seed 3 (warm light): a lone brown cube on the harvest
    # space is RGB 124, 70, 34 where the board is 232, 196, 94: its ratios to the board
    # (0.53, 0.36, 0.37) lie within the shadow test's spread, and it was missed whole
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-ordinary", 3, 2)
    reading = reader.read(shot.image)
    assert reading.cubes.get("space:harvest") == view.cubes["space:harvest"]


def test_a_shadow_keeps_the_board_hue_and_a_brown_cube_does_not(layout: Layout) -> None:
    board = np.array([[94.0, 196.0, 232.0]] * 2, np.float32)  # BGR, under this light
    rel = np.array([[0.50, 0.51, 0.50],    # the shadow beside the cube
                    [0.37, 0.36, 0.53]],   # the cube's middle
                   np.float32)
    got = cube_hued(rel, board, np.ones(3, np.float32), layout.cube_rgb)
    assert got.tolist() == [False, True]
