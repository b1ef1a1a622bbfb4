"""Cubes told from the board: the empty-board model learnt by ``calibrate empty`` from
several frames; printed borders, artwork and shadows never count; a reading that fits
badly is uncertain, never a number."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision import bench, calibration
from vision.layout import Layout
from vision.lens import Lens
from vision.render import FRAME, Scene, on_table, render
from vision.table import TableView, from_dict

CAMERA = Scene(seed=12, camera=12, real=True, fov=70.0, k1=-0.18, k2=0.05, tilt=6.0,
               blur=0.9, noise=2.5, jpeg=85, light_deg=200.0, gradient=0.1, vignetting=0.15)
VIEW = {"space:harvest": {"brown": 2}, "space:family": {}, "space:crafts": {"orange": 1},
        "space:market": {"green": 1, "pink": 1}, "space:travel": {},
        "space:council": {"plague": 1}, "space:church": {"pink": 2},
        "supply:red": {"brown": 1}, "supply:blue": {}}


def _calibrated(layout: Layout, frames: int = 3) -> calibration.Calibration:
    lens = Lens.from_fov(FRAME, CAMERA.fov, CAMERA.k1, CAMERA.k2)
    empty = [render(layout, TableView(), replace(CAMERA, seed=100 + i)).image
             for i in range(frames)]
    return calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)


def test_borders_artwork_and_shadows_are_not_cubes(layout: Layout) -> None:
    cal = _calibrated(layout)
    wrong = []
    for seed in (1, 2, 3):
        shot = render(layout, from_dict(VIEW), replace(CAMERA, seed=seed, pieces=seed))
        reading = cal.reader().read(shot.image)
        wrong += [(seed, n, reading.cubes.get(n)) for n, want in VIEW.items()
                  if reading.cubes.get(n) != want]
    # 27 regions; each empty one read empty (nothing invented from the printed borders)
    assert not [w for w in wrong if not VIEW[w[1]]], wrong
    assert len(wrong) <= 2, wrong


def test_several_frames_make_the_model_and_it_is_saved(layout: Layout, tmp_path: Path) -> None:
    cal = _calibrated(layout, frames=2)
    assert "main/space:harvest" in cal.cube_refs and "farm:red/supply:red" in cal.cube_refs
    assert cal.cube_refs["main/space:harvest"].shape == (70, 110, 3)  # the 1 mm grid
    path = tmp_path / "cal.json"
    calibration.save(path, cal)
    again = calibration.load(path)
    assert np.array_equal(again.cube_refs["main/space:church"], cal.cube_refs["main/space:church"])
    moved = calibration.move_region(again, "main", "space:church", (306, 126, 410, 190))
    assert "main/space:church" not in moved.cube_refs
    assert "main/space:harvest" in moved.cube_refs


def test_something_unknown_makes_a_reading_uncertain(layout: Layout) -> None:
    cal = _calibrated(layout)
    shot = render(layout, from_dict(VIEW), replace(CAMERA, seed=4, pieces=4))
    img = shot.image.copy()
    r = layout.boards["main"].region("space:family")
    centre = shot.to_frame("main", np.array([((r.rect[0] + r.rect[2]) / 2,
                                              (r.rect[1] + r.rect[3]) / 2)], np.float32))[0]
    cv2.circle(img, (int(centre[0]), int(centre[1])), 16, (200, 60, 130), -1)  # a violet coin
    reading = cal.reader().read(img)
    assert "space:family" in reading.uncertain
    assert "space:family" not in reading.cubes
    assert "space:family" in reading.to_json()["uncertain"]


def test_the_palest_hand_over_the_pale_council_space_hides_it(layout: Layout) -> None:
    cal = _calibrated(layout)
    tip = on_table(layout, "space:council")
    assert tip is not None
    for seed in (5, 6):
        scene = replace(CAMERA, seed=seed, pieces=seed, hands=[tip], skin=bench.PALE_SKIN)
        shot = render(layout, from_dict(VIEW), scene)
        assert "main/space:council" in shot.covered
        reading = cal.reader().read(shot.image)
        assert "space:council" in reading.occluded, seed
        assert "space:council" not in reading.cubes


def test_the_real_table_bench_row_holds_its_floor(layout: Layout) -> None:
    # the bench measures 90 % over 50 images (docs/vision.md); before issue 16's work the
    # same row read 19 %. A floor a little under, on 3 images, so a regression fails.
    row = bench.accuracy(layout, 3, seed=5, conditions=["real-ordinary"])["real-ordinary"]
    assert row["exact"] >= 0.8, row
    assert row["board_found"] == 3
    # figures and items by soft area, the ox tile told from a shadow: 0.9785 and 0.8333 on
    # these 3 images (0.957 and 0.5833 counting differing samples, the ox a shadow)
    assert row["figures_exact"] >= 0.97, row
    assert row["items_exact"] >= 0.75, row


def test_no_reading_commits_under_a_hand_on_the_real_table(layout: Layout) -> None:
    # four sequences (hand in, resting while the cubes under it change, out), skins in
    # turn; the fourth's arm crosses the edge of a farm, over a time track's cell
    result = bench.occlusion_sequences(layout, 4, seed=1, real=True)
    assert result["commits"] > 50
    assert result["committed_under_occlusion"] == 0, result



def test_a_dim_blurred_jpeg_frame_is_not_taken_for_a_hand(layout: Layout) -> None:
    # dim light, blur σ 2.2 px, JPEG 55 (the real-hard row's camera): the camera's noise
    # and the compression pass a fixed 0.09 change of colour on the dark farms; held
    # back as under a hand, their regions were never read (12 regions here before)
    dim = replace(CAMERA, level=0.55, blur=2.2, noise=4.5, jpeg=55, gradient=0.2)
    lens = Lens.from_fov(FRAME, dim.fov, dim.k1, dim.k2)
    empty = [render(layout, TableView(), replace(dim, seed=100 + i)).image for i in range(3)]
    cal = calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)
    held = []
    for seed in (7, 8):
        shot = render(layout, from_dict(VIEW), replace(dim, seed=seed, pieces=seed))
        assert not shot.covered
        reading = cal.reader().read(shot.image)
        assert all(reading.boards.values()), reading.refused
        held += sorted(reading.occluded)
    assert len(held) <= 1, held


def test_markers_on_their_tracks_in_a_dim_blurred_frame(layout: Layout) -> None:
    # balanced against each cell's print, blurred discs in dim light read as the cell:
    # the tracks came back empty (3 of 5 here before); told as what differs from the
    # empty cell, coloured under the markers' white paper, they are found
    dim = replace(CAMERA, level=0.55, blur=2.2, noise=4.5, jpeg=55, gradient=0.2)
    lens = Lens.from_fov(FRAME, dim.fov, dim.k1, dim.k2)
    empty = [render(layout, TableView(), replace(dim, seed=100 + i)).image for i in range(3)]
    cal = calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)
    tracks = {"time:red": {"red": 3}, "time:yellow": {"yellow": 6}, "time:blue": {"blue": 0},
              "time:white": {"white": 8},
              "prestige": {"red": 12, "yellow": 27, "blue": 40, "white": 5}}
    view = TableView(cubes=from_dict(VIEW).cubes, tracks=tracks)
    reading = cal.reader().read(render(layout, view, replace(dim, seed=9, pieces=9)).image)
    wrong = {t: reading.tracks.get(t) for t, want in tracks.items()
             if reading.tracks.get(t) != want}
    assert not wrong, wrong


def test_a_shadow_on_the_empty_board_gone_since_is_not_a_cube(layout: Layout) -> None:
    # the empty board was learnt with a soft shadow over the council and church spaces (a
    # person beside the table); during the game it has gone: that board, brighter than
    # the learnt one, is no cube and nothing unknown (the church space was uncertain)
    lens = Lens.from_fov(FRAME, CAMERA.fov, CAMERA.k1, CAMERA.k2)
    shots = [render(layout, TableView(), replace(CAMERA, seed=100 + i)) for i in range(3)]
    r = layout.boards["main"].region("space:council")
    centre = shots[0].to_frame("main", np.array([((r.rect[0] + r.rect[2]) / 2,
                                                  (r.rect[1] + r.rect[3]) / 2)], np.float32))[0]
    ys, xs = np.mgrid[0:FRAME[1], 0:FRAME[0]]
    dist = np.hypot(xs - centre[0], ys - centre[1])
    shade = (1.0 - 0.4 * np.clip((160 - dist) / 60, 0, 1))[..., None]  # soft, 40 % deep
    empty = [np.clip(s.image * shade, 0, 255).astype(np.uint8) for s in shots]
    cal = calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)
    shot = render(layout, from_dict(VIEW), replace(CAMERA, seed=3, pieces=3))
    reading = cal.reader().read(shot.image)
    for name in ("space:council", "space:church"):
        assert reading.cubes.get(name) == VIEW[name], (name, reading.cubes.get(name),
                                                       reading.confidence.get(name))



def test_a_web_of_brighter_lines_is_no_hand_but_a_pale_patch_is(layout: Layout) -> None:
    # the hand grid (4 mm cells) where a shadow lay while the empty board was learnt: 30 %
    # brighter now, and the printed lines misregistered by a pixel tinted. Those lines
    # form a web of 1-cell-wide lines over 120 × 100 mm; a pale hand is a solid patch
    from vision.read import BoardReader

    ref = (BoardReader.printed_reference(layout.boards["main"]) * 0.6).astype(np.uint8)
    reader = BoardReader(layout, references={"main": ref})
    web = ref.astype(np.float32)
    web[40:65, 60:90] *= 1.3
    web[40:65:4, 60:90, 2] *= 1.1  # lines every 16 mm, a little redder than the board
    web[40:65, 60:90:4, 2] *= 1.1
    hand, _moving, _norm, _gain = reader._hands_and_motion("main", np.clip(web, 0, 255)
                                                           .astype(np.uint8))
    assert not hand.any()
    pale = ref.astype(np.float32)
    pale[40:65, 60:90] *= 1.3
    pale[40:65, 60:90, 2] *= 1.1
    hand, _moving, _norm, _gain = BoardReader(layout, references={"main": ref})._hands_and_motion(
        "main", np.clip(pale, 0, 255).astype(np.uint8))
    assert hand[50, 75]



def test_a_region_left_out_of_the_empty_model_is_held_back(layout: Layout) -> None:
    # a farm whose marker is covered in every frame of the empty table (a cup on it) is
    # left out of the empty-board model; read by the older rule, the red farm's supply's
    # printed border counted as five brown cubes and more (real-ordinary's ninth image of
    # seed 1, whose red farm's marker was once decoded in none of the empty frames)
    _g, scene, _players, _view, shot, _reader = bench._table(layout, "real-ordinary", 1, 8)
    farm = layout.boards["farm:red"]
    ((x, y),) = farm.markers.values()
    m = farm.marker_mm
    frames = []
    for k in (0, 1000, 2000):
        empty = render(layout, TableView(), replace(scene, hands=[], seed=scene.seed + 1 + k,
                                                    camera=scene.seed))
        square = np.array([(x - 3, y - 3), (x + m + 3, y - 3), (x + m + 3, y + m + 3),
                           (x - 3, y + m + 3)], np.float32)
        img = empty.image.copy()
        cv2.fillConvexPoly(img, empty.to_frame("farm:red", square).astype(np.int32),
                           (150, 180, 200))
        frames.append(img)
    cal = calibration.set_lens(calibration.default(), bench.camera_lens(scene))
    cal = calibration.capture_empty(cal, frames)
    assert calibration.not_learned(cal) == ["farm:red"]
    reading = cal.reader().read(shot.image)
    assert reading.boards["farm:red"]
    assert "supply:red" in reading.uncertain
    assert "supply:red" not in reading.cubes
