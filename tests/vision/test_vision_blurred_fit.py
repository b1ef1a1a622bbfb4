"""Boards placed from blurred markers (the real-hard row's camera): with a marker of the
main board not decoded, its pose fitted through the lens (6 degrees of freedom), not a
free homography."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import calibration
from vision.layout import Layout
from vision.lens import Lens
from vision.render import FRAME, Scene, render
from vision.table import TableView

DIM = Scene(seed=12, camera=12, real=True, fov=70.0, k1=-0.18, k2=0.05, tilt=10.0,
            blur=2.6, noise=4.5, jpeg=55, level=0.55, light_deg=200.0, gradient=0.2,
            vignetting=0.15)


def test_the_main_board_is_placed_through_the_lens(layout: Layout) -> None:
    # three of its four markers decoded in a blurred frame (σ 2.6 px): a free homography
    # from their 12 corners put the main board's regions up to 7 px from where they truly
    # are; its pose through the lens, within 1.5 px. The farms are not asserted: placed
    # in that plane from their one marker each, they were 20 px off at worst before and
    # 15 px after (a farm's rotation rests on one 25 mm marker whose blurred corners lie
    # 1.7 px RMS from the true ones)
    lens = Lens.from_fov(FRAME, DIM.fov, DIM.k1, DIM.k2)
    cal = calibration.set_lens(calibration.default(), lens)
    worst: dict[str, float] = {}
    for seed in (60, 62, 63, 65):
        shot = render(layout, TableView(), replace(DIM, seed=seed))
        reader = cal.reader()
        reader.read(shot.image)
        for name, hom in reader.tracker.geometry.boards.items():
            pts = np.array([(x, y) for r in layout.boards[name].regions
                            for x in (r.rect[0], r.rect[2]) for y in (r.rect[1], r.rect[3])],
                           np.float32)[None]
            got = cv2.perspectiveTransform(pts, hom)[0]
            true = cv2.perspectiveTransform(pts, shot.homographies[name])[0]
            off = float(np.abs(got - true).max())
            key = "main" if name == "main" else "farms"
            worst[key] = max(worst.get(key, 0.0), off)
    assert worst["main"] <= 2.0, worst
