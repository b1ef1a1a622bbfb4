"""The renderer's real table (``Scene(real=True)``): lens, printed borders, lit cubes, JPEG."""

from __future__ import annotations

import cv2
import numpy as np

from vision import bench
from vision.layout import Layout
from vision.render import Scene, render
from vision.table import TableView, from_dict


def _real(**kw: object) -> Scene:
    base: dict[str, object] = {"seed": 3, "real": True, "fov": 70.0, "k1": -0.3, "k2": 0.08,
                               "tilt": 8.0, "blur": 0.0, "noise": 0.0}
    base.update(kw)
    return Scene(**base)  # type: ignore[arg-type]


def test_the_lens_bends_the_board_and_the_truth_follows_it(layout: Layout) -> None:
    shot = render(layout, TableView(), _real())
    assert shot.lens is not None
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    det = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50),
                                  params)
    corners, ids, _ = det.detectMarkers(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    found = {int(i): c.reshape(4, 2) for c, i in zip(corners, ids.ravel(), strict=True)}
    main = layout.boards["main"]
    bent = 0.0
    for mid in (0, 1, 2, 3):
        want = shot.to_frame("main", np.array(main.marker_corners(mid), np.float32))
        # where the lens put them: within a pixel of what the image shows
        assert np.abs(found[mid] - want).max() < 1.5, mid
        ideal = cv2.perspectiveTransform(
            np.array([main.marker_corners(mid)], np.float32), shot.homographies["main"])[0]
        bent = max(bent, float(np.abs(ideal - want).max()))
    assert bent > 10  # barrel distortion moves the board's corners by many pixels


def test_regions_have_dark_printed_borders_and_artwork(layout: Layout) -> None:
    shot = render(layout, TableView(), _real())
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY).astype(float)
    r = layout.boards["main"].region("space:council")
    x0, y0, x1, y1 = r.rect
    edge = np.array([(x, y0) for x in np.linspace(x0 + 10, x1 - 10, 40)], np.float32)
    inside = np.array([(x, (y0 + y1) / 2) for x in np.linspace(x0 + 10, x1 - 10, 40)],
                      np.float32)

    def values(pts: np.ndarray) -> np.ndarray:
        p = shot.to_frame("main", pts).round().astype(int)
        return gray[p[:, 1], p[:, 0]]

    assert np.median(values(edge)) < 0.6 * np.median(values(inside))
    flat = render(layout, TableView(), Scene(seed=3, blur=0.0, noise=0.0)).image
    fgray = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(float)
    p = cv2.perspectiveTransform(inside[None], render(layout, TableView(), Scene(
        seed=3, blur=0.0, noise=0.0)).homographies["main"])[0].round().astype(int)
    # artwork: the inside of a space varies more than the ideal renderer's flat print
    assert values(inside).std() > 2 * fgray[p[:, 1], p[:, 0]].std()


def test_cubes_are_lit_from_one_side_and_cast_a_shadow(layout: Layout) -> None:
    # the harvest space lies up and left of the camera's foot: the cube shows its lower
    # and right sides; a lamp up and left leaves them in shade
    view = from_dict({"space:harvest": {"green": 1}})
    lit = render(layout, view, _real(light_deg=225.0)).image.astype(float)
    empty = render(layout, TableView(), _real(light_deg=225.0)).image.astype(float)
    diff = np.abs(lit - empty).max(axis=2) > 25
    assert diff.sum() > 60
    cube = lit[diff]
    green = cube[:, 1] > cube[:, 2] + 20  # the cube's faces (BGR: green above red)
    lum = cube[green].mean(axis=1)
    # a lit face and a shaded one: two levels of the same green
    assert np.percentile(lum, 95) > 1.6 * np.percentile(lum, 5)
    shadow = cube[~green]  # board pixels that changed: darker (the cast shadow)
    assert len(shadow) > 20
    assert shadow.mean() < 0.8 * empty[diff][~green].mean()


def test_jpeg_and_a_pale_hand(layout: Layout) -> None:
    clean = render(layout, TableView(), _real()).image
    jpeg = render(layout, TableView(), _real(jpeg=50)).image
    assert 0.5 < np.abs(clean.astype(int) - jpeg.astype(int)).mean() < 6
    pale = render(layout, TableView(), _real(hands=[(400.0, 250.0)],
                                             skin=bench.PALE_SKIN)).image
    assert pale.reshape(-1, 3).max(axis=0).min() > 200  # a very pale hand shows


def test_the_bench_reports_real_conditions_beside_the_ideal_ones(layout: Layout) -> None:
    names = bench.condition_names()
    assert {"ordinary", "real-ordinary", "real-hard", "real-hands", "real-pale-hand",
            "real-uncalibrated"} <= set(names)
    row = bench.accuracy(layout, 1, seed=2, conditions=["real-ordinary"])["real-ordinary"]
    assert set(row) >= {"exact", "images", "images_all_right", "board_found",
                        "misread_under_hand"}
    assert row["board_found"] == 1
