"""Cubes in dim light: a cube that changes the board's colour by less than the board's
tolerance in levels is still a cube (each case from a bench image read wrong)."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout


def test_a_pink_cube_in_dim_light_on_a_grey_space_is_seen(layout: Layout) -> None:
    # real-hard's fourth image of seed 2 (light 0.56 of the ordinary, blur 2.1 px, JPEG
    # 58): a pink cube on the grey family space is RGB 97, 45, 68 where the board is
    # 70, 69, 66: 24-27 levels a channel, about the board's 22-level tolerance, so most
    # of it passed for the board and two pink cubes read one; on the travel space the
    # pink cube was missed
    _g, _scene, _players, view, shot, reader = bench._table(layout, "real-hard", 2, 3)
    reading = reader.read(shot.image)
    assert reading.cubes.get("space:family") == view.cubes["space:family"]
    assert reading.cubes.get("space:travel") == view.cubes["space:travel"]
