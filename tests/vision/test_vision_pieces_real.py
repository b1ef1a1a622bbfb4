"""Figures and items on the real table's hard frames (dim, blurred, JPEG), read against the
empty-board model: each case a rendered table the reader got wrong before its fix."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision import bench, calibration
from vision.layout import Layout
from vision.lens import Lens
from vision.read import Reading
from vision.render import FRAME, Scene, render
from vision.table import TableView

# the real-hard row's camera: dim, blur σ 2.2 px, JPEG 55, a light gradient
DIM = Scene(seed=12, camera=12, real=True, fov=70.0, k1=-0.18, k2=0.05, tilt=10.0,
            blur=2.2, noise=4.5, jpeg=55, level=0.55, light_deg=200.0, gradient=0.2,
            vignetting=0.15)


@pytest.fixture(scope="module")
def dim_calibration(layout: Layout) -> calibration.Calibration:
    lens = Lens.from_fov(FRAME, DIM.fov, DIM.k1, DIM.k2)
    empty = [render(layout, TableView(), replace(DIM, seed=100 + i)).image for i in range(3)]
    return calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)


def _read(layout: Layout, cal: calibration.Calibration, view: TableView, seeds: range
          ) -> list[Reading]:
    out = []
    for seed in seeds:
        shot = render(layout, view, replace(DIM, seed=seed, pieces=seed))
        assert not shot.covered
        reading = cal.reader().read(shot.image)
        assert all(reading.boards.values()), reading.refused
        out.append(reading)
    return out


def test_a_black_monk_in_dim_light_is_a_monk_alone_or_beside_a_figure(
        layout: Layout, dim_calibration: calibration.Calibration) -> None:
    # a black monk in dim light is the board darkened almost evenly: its blurred rim was
    # taken for a shadow, and what was left was too little to be a monk (missed alone,
    # or beside a red figure; 6 of the 20 zones wrong on 12 real-hard images)
    zones = {"craft:smithy": ["monk-0"], "travel:far-east": ["monk-1", "red-2a"],
             "council:1": ["red-2b", "monk-2"], "chronicle:crafts": ["monk-3"]}
    view = TableView(zones=zones)
    wrong = []
    for reading in _read(layout, dim_calibration, view, range(21, 24)):
        for z, pieces in zones.items():
            want = {("black" if p.startswith("monk") else p.partition("-")[0]):
                    sum(1 for q in pieces if q.partition("-")[0] == p.partition("-")[0])
                    for p in pieces}
            if reading.figures.get(z) != want:
                wrong.append((z, want, reading.figures.get(z)))
    assert len(wrong) <= 1, wrong


def test_a_shadow_on_the_empty_board_gone_since_is_no_white_figure(layout: Layout) -> None:
    # the empty board learnt with shadows lying on it (one frame, as the bench's rows): a
    # shadow gone since leaves the print brightened evenly, which read as white figures
    # standing on nothing (3 farms of 12 real-hard images, up to 4 figures; here up to
    # 5, at 3 of these seeds). White figures standing there still count (they are white
    # under the markers' paper). Two white figures on the pale white farm are left out:
    # counted one off at 3 of 12 such seeds, with this rule and without it.
    lens = Lens.from_fov(FRAME, DIM.fov, DIM.k1, DIM.k2)
    zones = {"farm:red": ["red-1a"], "farm:blue": [], "farm:yellow": ["white-2a"],
             "farm:white": ["white-1a", "white-1b"], "craft:smithy": ["white-3a"]}
    wrong = []
    for seed in (43, 50, 51):
        empty = render(layout, TableView(), replace(DIM, seed=seed, shadows=3)).image
        cal = calibration.capture_empty(calibration.set_lens(calibration.default(), lens),
                                        [empty])
        shot = render(layout, TableView(zones=zones), replace(DIM, seed=seed + 1000,
                                                               pieces=seed))
        reading = cal.reader().read(shot.image)
        for z, pieces in zones.items():
            want = {p.partition("-")[0]: len(pieces) for p in pieces}
            if z != "farm:white" and reading.figures.get(z) != want:
                wrong.append((seed, z, want, reading.figures.get(z)))
    assert not wrong, wrong


def test_the_palest_hand_seen_by_its_rims_hides_every_region_it_touches(
        layout: Layout) -> None:
    # the real-pale-hand row's image 9 (the bench's own stream): the palest arm over the
    # pale board differs from it only along its rims and shading, 20 mm inside its
    # edge; the harvest space it touches was read (a cube short) and counted as a misread
    # under a hand. A hand seen only in part hides twice the margin around it.
    name, i = "real-pale-hand", 9
    g = np.random.default_rng(100003 + sum(map(ord, name)) * 1009 + i)
    scene = replace(bench.scene_for(name, g, layout), seed=int(g.integers(1 << 30)))
    view = bench.random_view(layout, g, players=int(g.integers(2, 5)))
    shot = render(layout, view, scene)
    reading = bench.reader_for(name, layout, scene).read(shot.image)
    covered = {k.split("/", 1)[1].partition("#")[0] for k in shot.covered}
    assert "space:harvest" in covered
    read_under = [n for n in covered if n not in reading.occluded
                  and (n in reading.cubes or n in reading.figures or n in reading.items)]
    assert not read_under, read_under
