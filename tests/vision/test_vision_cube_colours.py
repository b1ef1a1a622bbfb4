"""Cube colours on the real table: what the reader's own arithmetic must not do to them
(each case from a real-table render where the bench read a region wrong or uncertain)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision import calibration
from vision.colour import apply_gain, apply_gain_keeping_hue
from vision.layout import Layout
from vision.lens import Lens
from vision.render import FRAME, Scene, render
from vision.table import TableView, from_dict

# a dim, warm table lit from a low lamp (real-hard's fourth render): the markers' white
# paper needs a gain of about ×2, and a cube's face turned to the lamp is brighter than
# the paper lying flat
DIM = Scene(seed=21, camera=21, real=True, fov=90.0, k1=-0.3, k2=0.09, tilt=12.0,
            rotation=-0.5, blur=2.1, noise=4.5, jpeg=60, level=0.64,
            light=(1.02, 0.97, 0.85), light_deg=162.0, gradient=0.27, vignetting=0.24)
ORANGE = {"space:harvest": {"orange": 1}, "space:family": {"orange": 2},
          "space:crafts": {"orange": 1, "green": 1}, "space:market": {"orange": 1},
          "space:travel": {"orange": 1}, "space:council": {"orange": 1, "brown": 2},
          "space:church": {"orange": 2}}


def test_a_gain_that_overflows_keeps_the_colour_not_the_clip() -> None:
    # the lit face of an orange cube in a dim frame (RGB 154, 97, 34) under the white
    # paper's gain (×1.95, 2.10, 2.43): clipping red alone at 255 turns it yellow
    # (G/R 0.80, the yellow figures' 0.86); the colour is the ratio of the channels
    px = np.array([[34, 97, 154]], np.uint8)  # BGR
    gain = np.array([2.43, 2.10, 1.95], np.float32)
    clipped = apply_gain(px, gain)[0].astype(float)
    kept = apply_gain_keeping_hue(px, gain)[0].astype(float)
    assert clipped[1] / clipped[2] > 0.78  # the old arithmetic: yellow
    assert kept.max() <= 255 and kept[2] == 255
    assert abs(kept[1] / kept[2] - (97 * 2.10) / (154 * 1.95)) < 0.01
    # within range, the same as the plain gain
    low = np.array([[20, 40, 60]], np.uint8)
    assert np.array_equal(apply_gain_keeping_hue(low, gain), apply_gain(low, gain))


def test_orange_cubes_lit_by_a_low_lamp_in_a_dim_frame_are_orange(layout: Layout) -> None:
    lens = Lens.from_fov(FRAME, DIM.fov, DIM.k1, DIM.k2)
    empty = [render(layout, TableView(), replace(DIM, seed=100 + i)).image for i in range(2)]
    cal = calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)
    reader = cal.reader()
    wrong = []
    for seed in (1, 2):
        shot = render(layout, from_dict(ORANGE), replace(DIM, seed=seed, pieces=seed))
        reading = reader.read(shot.image)
        wrong += [(seed, n, reading.cubes.get(n), reading.confidence.get(n))
                  for n, want in ORANGE.items() if reading.cubes.get(n) != want]
    # 14 regions; before, the lit faces read yellow (a figure's colour): most uncertain
    assert len(wrong) <= 2, wrong
