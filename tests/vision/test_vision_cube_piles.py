"""Piles of cubes on the real table: a cube leaning on another hides part of it, so a
blob of touching and stacked cubes shows less than its cubes' areas. The camera game's
farm supplies of 5-9 cubes are read a cube short (27 of its 50 committed misreads on
the real table, tenth session; docs/vision.md « Items and the camera game »)."""

from __future__ import annotations

import numpy as np
import pytest

from companion.sim.camera_game import REAL_SEED, RenderedTable, calibrate_real
from vision.bench import scene_for
from vision.layout import CUBE_COLOURS, Layout
from vision.render import render
from vision.table import TableView


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason="a pile of 5-9 cubes is counted from its area, "
                   "rounded as if no cube hid another: a cube short (docs/vision.md, "
                   "« Items and the camera game (tenth session) »)")
def test_farm_supplies_of_four_to_nine_cubes_are_counted(layout: Layout) -> None:
    # the camera game's real table (``--real``), calibrated as it is there; supplies of
    # 4-9 cubes of the four colours a family holds (pieces 4000+, where no rule was
    # tried): the number of cubes in each supply (colours aside: brown and orange are
    # another reading's) right or uncertain, at most 2 of 16 wrong (main: 7 of 16)
    scene = scene_for("real-ordinary", np.random.default_rng(REAL_SEED), layout)
    table = RenderedTable.__new__(RenderedTable)
    table.real, table.camera, table.layout = scene, 1, layout
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
