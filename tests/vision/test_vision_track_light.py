"""Discs on the tracks in dim light: the light's colour on a cell is that on the cells
around it, not the cell's own median (each case from a bench image read wrong)."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout


def _track(layout: Layout, condition: str, image: int, track: str
           ) -> tuple[dict[str, int] | None, dict[str, int]]:
    """``track`` as the reader reads it on ``condition``'s image ``image`` of seed 1, and
    as the table holds it."""
    _g, _scene, _players, view, shot, reader = bench._table(layout, condition, 1, image)
    return reader.read(shot.image).tracks.get(track), view.tracks[track]


def test_a_disc_covering_most_of_its_cell_is_seen(layout: Layout) -> None:
    # real-hard's third image of seed 1 (light 0.52, blur 2.4 px): the blue disc covers a
    # third of its time-track cell, and the cell's median change from the empty board
    # leant to the disc's colour (gains 0.67, 0.49, 0.48 where its neighbours' are even):
    # under that "light" the disc was the board, and 12 of its 144 samples differed
    read, true = _track(layout, "real-hard", 2, "time:blue")
    assert read == true


def test_a_blue_discs_blurred_rim_is_no_white_disc(layout: Layout) -> None:
    # real-ordinary's seventh image of seed 1: under the light of the cells around it, the
    # rim of the blue disc on cell 23 of the prestige track (blue blurred into the pale
    # print) differs from the cell and reads white, as much as a third of a disc. A white
    # disc is the palest thing on a cell: never darker than the print under the same light
    read, true = _track(layout, "real-ordinary", 6, "prestige")
    assert read == true


def test_a_ring_of_pale_samples_around_two_discs_is_no_white_disc(layout: Layout) -> None:
    # real-ordinary's twenty-fourth image of seed 1: red and yellow discs on cell 24 of
    # the prestige track; the samples on their edges (the discs mixed with the pale print)
    # read white, a ring one sample wide, 0.45 of a disc, and a white disc was invented
    read, true = _track(layout, "real-ordinary", 23, "prestige")
    assert read == true


def test_a_lone_white_discs_own_edge_samples_count_in_hard_light(layout: Layout) -> None:
    # real-hard's third image of seed 1: the white disc on cell 2 of the white farm's
    # time track shows 13 white samples (0.30 of a disc), one outside any 2 x 2 block of
    # them; with no other disc on the cell they are all the white disc's
    read, true = _track(layout, "real-hard", 2, "time:white")
    assert read == true
