"""A track's disc told by its change of the cell's colour where the board's tolerance in
levels does not see it (issue 16, sixteenth session; ``cube_tint.tinted_cells``)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.cube_tint import TINT, faint_cells, tinted_cells
from vision.layout import Layout


def test_a_yellow_disc_on_a_pale_cell_in_dim_warm_light_is_read(layout: Layout) -> None:
    # the bench's real-hard table 22 of seed 1 (warm light 1.09, 0.98, 0.74 at 0.51 of the
    # ordinary level, blur σ 2.45 px): the yellow time disc on cell 4 and the yellow
    # prestige disc differed from their empty cells by less than the tolerance in every
    # sample; both tracks came back without yellow
    *_rest, view, shot, reader = bench._table(layout, "real-hard", 1, 22)
    reading = reader.read(shot.image)
    assert reading.tracks["time:yellow"] == view.tracks["time:yellow"]
    assert reading.tracks["prestige"]["yellow"] == view.tracks["prestige"]["yellow"]


def test_a_cells_tint_is_averaged_within_the_cell_only() -> None:
    side = 4
    envelope = np.full((2, side * side, 3), 100.0, np.float32)
    cur = envelope.copy()
    # the last row of the first cell changes colour, the second cell not at all
    cur[0, -side:] += np.array([3 * TINT, 0, 0], np.float32)
    got = tinted_cells(cur, envelope, envelope, side)
    assert got[0, -side:].all()
    assert not got[1].any()  # nothing leaks into the next cell of the stack
    # an even change of level (a shadow gone, the lamp) is no change of colour
    assert not tinted_cells(envelope + 3 * TINT, envelope, envelope, side).any()


def test_a_plain_discs_blurred_rim_is_no_faint_disc(layout: Layout) -> None:
    # the bench's real-ordinary table 22 of seed 1 (a cool light, blur σ 0.9 px): the
    # blue prestige disc's rim, a pale mixture of blue and the cell within the tolerance,
    # took the disc's change of colour through the 3×3 average and was read as a white
    # disc on the blue one's cell, in a three-player game without white
    *_rest, view, shot, reader = bench._table(layout, "real-ordinary", 1, 22)
    reading = reader.read(shot.image)
    assert reading.tracks["prestige"] == view.tracks["prestige"]


def test_a_faint_sample_beside_a_plain_change_is_not_faint() -> None:
    side = 4
    tint = np.ones((1, side * side), bool)
    beyond = np.zeros((1, side * side), bool)
    beyond[0, 0] = True  # the corner sample differs beyond the tolerance
    got = faint_cells(tint, beyond, side).reshape(side, side)
    assert not got[:2, :2].any()  # the corner and the samples beside it
    assert got[2:, :].all() and got[:, 2:].all()
