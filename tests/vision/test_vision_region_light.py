"""A zone mostly covered by figures: its light is the board's, not the figures' colour
(`vision/region_light.py`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import bench
from vision.layout import Layout
from vision.region_light import region_gain
from vision.render import render
from vision.table import TableView

# four figures drawn apart in church window 1 (34 × 40 mm): this region's own stream
# places them without overlap (other numbers find no room for four and draw none)
FOUR_APART = {"church:1": 2}


def test_a_window_full_of_figures_reads_its_figures_and_no_white_ones(layout: Layout
                                                                       ) -> None:
    # the camera game of the fourteenth session (seed 1, actions 37-38): church window 1
    # holding four figures read two white figures more. Its light, the median of its
    # samples' ratios to the empty board, was the figures' colour (B, G, R 0.60, 0.99,
    # 1.13), and under it the glass left uncovered was taken for white figures
    contents = [["red-1a", "red-1b", "red-1c", "red-1d"],
                ["blue-1a", "blue-1b", "blue-1c", "blue-1d"],
                ["yellow-1a", "yellow-1b", "yellow-1c", "red-2a"]]
    wrong = []
    for seed in (0, 1):
        g = np.random.default_rng(seed)
        scene = replace(bench.scene_for("real-ordinary", g, layout), seed=seed)
        reader = bench.reader_for("real-ordinary", layout, scene, cubes=False)
        for pieces in contents:
            shot = render(layout, TableView(zones={"church:1": pieces}),
                          replace(scene, pieces=seed, placing=FOUR_APART))
            got = reader.read(shot.image).figures.get("church:1")
            if got != bench.figure_counts(pieces):
                wrong.append((seed, pieces, got))
    assert not wrong, wrong


def test_the_light_has_the_boards_colour_and_the_regions_level() -> None:
    board = np.array([0.9, 1.0, 1.1], np.float32)
    # 40 % of the samples the board in a shadow of 0.7, 60 % a red figure's ratios
    glass = np.tile(board * 0.7, (40, 1))
    figure = np.tile(np.array([0.6, 0.99, 1.13], np.float32), (60, 1))
    gain = region_gain(np.concatenate([glass, figure]), board)
    assert np.allclose(gain, board * 0.7, atol=1e-3)
    # nothing board-coloured left (the region covered): the board's light
    assert np.allclose(region_gain(figure, board), board)
    # without the board's light: the median, as before
    assert np.allclose(region_gain(figure, None), figure[0])
