"""A colour taken apart into non-negative amounts of cube colours (`vision.cube_bleed`)."""

from __future__ import annotations

import numpy as np

from vision.cube_bleed import unmix

BROWN, PINK, ORANGE = (40, 72, 120), (168, 120, 232), (28, 140, 244)  # BGR


def test_a_mix_of_two_colours_is_taken_apart() -> None:
    seen = 0.3 * np.array(BROWN) + 0.1 * np.array(PINK)
    a, b = unmix(seen, [BROWN, PINK])
    assert abs(a - 0.3) < 1e-6 and abs(b - 0.1) < 1e-6


def test_no_amount_is_negative() -> None:
    # a dark sample with pink's blur and a blue no brown holds: no brown in it (least
    # squares alone would give brown a negative amount)
    amounts = unmix(np.array([32.0, 20.0, 31.0]), [BROWN, PINK])
    assert min(amounts) >= 0.0
    assert amounts[0] == 0.0 and amounts[1] > 0.1


def test_a_shaded_side_holds_its_cubes_colour() -> None:
    # an orange side turned from the lamp, 0.4 of its top, with a little pink blur
    seen = 0.4 * np.array(ORANGE) + 0.05 * np.array(PINK)
    assert unmix(seen, [ORANGE, PINK])[0] > 0.25


def test_no_colours_no_amounts() -> None:
    assert unmix(np.array([10.0, 10.0, 10.0]), []) == []
