"""A cube's blurred rim, a mixture of the cube and the board, is no strange thing that
makes its region uncertain; a coin beside a cube still is (`vision.cube_rim`)."""

from __future__ import annotations

import numpy as np

from vision import bench
from vision.cube_rim import cube_rims
from vision.layout import CUBE_COLOURS, Layout


def _pink_cube_on_green(layout: Layout, beside: tuple[int, int, int]
                        ) -> tuple[np.ndarray, ...]:
    """A 12×20 region: the green farm's print, a pink cube on columns 2-7, and ``beside``
    (RGB) on columns 9-11 (flat BGR samples under the markers' white)."""
    board = np.array([150, 212, 180], np.float32)  # BGR, a pale green print
    pink = np.array(layout.cube_rgb["pink"][::-1], np.float32)
    shape = (12, 20)
    lit = np.tile(board, (shape[0] * shape[1], 1)).reshape(*shape, 3)
    lit[:, 2:8] = pink
    lit[:, 8] = 0.5 * pink + 0.5 * board  # the blur between them
    lit[:, 9:12] = np.array(beside[::-1], np.float32)
    labels = np.zeros(shape, np.uint8)
    labels[:, 2:8] = CUBE_COLOURS.index("pink") + 1
    labels[:, 8:12] = 255
    cube = (labels == CUBE_COLOURS.index("pink") + 1).astype(np.uint8)
    strange = labels == 255
    under = np.tile(board, (shape[0] * shape[1], 1))
    return strange, cube, labels, lit.reshape(-1, 3), under


def test_the_blur_between_a_cube_and_the_board_is_its_rim(layout: Layout) -> None:
    board_rgb = (180, 212, 150)
    strange, cube, labels, lit, under = _pink_cube_on_green(layout, board_rgb)
    rim = cube_rims(strange, cube, labels, lit, under, layout.cube_rgb)
    assert rim[:, 8].all()


def test_a_grey_coin_beside_a_cube_is_no_rim(layout: Layout) -> None:
    strange, cube, labels, lit, under = _pink_cube_on_green(layout, (150, 150, 150))
    rim = cube_rims(strange, cube, labels, lit, under, layout.cube_rgb)
    assert not rim[:, 9:12].any()


def test_four_lone_cubes_rims_through_a_wide_lens_leave_the_supply_read(
        layout: Layout) -> None:
    # real-ordinary's twentieth image of seed 11 (a 90° lens): on the yellow farm's
    # supply two pink, a green and an orange cube lie apart; each pink cube's blur into
    # the pale green print (RGB ~190, 205, 165 under the markers' white) reads as a
    # white or yellow figure, 136 samples after the 3×3 opening where half a cube is 111,
    # and the supply was read uncertain
    view, _shot, reading = bench.case(layout, "real-ordinary", 11, 19)
    assert reading.cubes.get("supply:yellow") == view.cubes["supply:yellow"]
