"""A white disc's samples are a disc's, not a line (`vision.disc_thick`)."""

from __future__ import annotations

import numpy as np

from vision.disc_thick import thick


def _cell(rows: list[str]) -> np.ndarray:
    return np.array([[c == "W" for c in row] for row in rows]).reshape(1, -1)


def test_a_one_sample_ring_is_dropped_and_a_disc_kept() -> None:
    ring = _cell(["WWWW", "W..W", "W..W", "WWWW"])
    assert not thick(ring, 4).any()
    disc = _cell([".WW.", "WWWW", "WWWW", ".WW."])
    assert (thick(disc, 4) == disc).all()


def test_a_disc_beside_a_line_keeps_only_the_disc() -> None:
    got = thick(_cell(["WW.W", "WW.W", "...W", "...."]), 4)
    assert (got == _cell(["WW..", "WW..", "....", "...."])).all()
