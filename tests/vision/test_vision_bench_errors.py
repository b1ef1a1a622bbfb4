"""The bench's listing of the cube regions and tracks not read exactly."""

import pytest

from vision.bench_errors import cube_confusions, failures, region_kind, track_confusions
from vision.layout import load
from vision.read_parts import Reading
from vision.table import TableView


def test_cube_differences_pair_into_confusions() -> None:
    assert cube_confusions({"brown": 3, "orange": 1}, {"orange": 3, "brown": 1}) == [
        "brown→orange", "brown→orange"]
    assert cube_confusions({"pink": 1, "green": 2}, {"green": 2}) == ["pink missed"]
    assert cube_confusions({"orange": 5}, {"orange": 5, "brown": 2}) == [
        "brown invented", "brown invented"]


def test_track_differences_one_per_colour() -> None:
    assert track_confusions({"blue": 7, "red": 2}, {"red": 4, "white": 1}) == [
        "blue missed", "red off by 2", "white invented"]


def test_failures_say_how_each_region_failed() -> None:
    layout = load()
    truth = TableView(cubes={"space:harvest": {"brown": 2}, "space:market": {"pink": 1}},
                      tracks={"time:red": {"red": 3}})
    reading = Reading(t=0.0, boards={b: b != "farm:blue" for b in layout.boards})
    reading.cubes = {r.name: {} for _b, r in layout.cube_regions()}
    reading.tracks = {n: {} for n in layout.track_names()}
    reading.cubes["space:harvest"] = {"orange": 2}
    reading.uncertain.add("space:market")
    reading.occluded.add("time:red")
    got = {f["region"]: (f["kind"], f["how"], f["confusions"])
           for f in failures(layout, reading, truth, set())}
    assert got["space:harvest"] == ("space", "wrong", ["brown→orange", "brown→orange"])
    assert got["space:market"] == ("space", "uncertain", [])
    assert got["time:red"] == ("time track", "hidden", [])
    assert got["supply:blue"][1] == "not placed"
    assert region_kind("prestige") == "prestige"
    # a region truly under a hand is the occlusion figures' business, not listed
    covered = {"main/space:harvest"}
    assert "space:harvest" not in {f["region"] for f in failures(layout, reading, truth,
                                                                  covered)}


def test_one_listing_holds_cubes_tracks_figures_and_items_with_crops(tmp_path) -> None:
    # the one command (`companion vision-bench --errors`, `python -m vision.bench_errors`;
    # `python -m vision.bench_failures` the same) lists every kind of region, and with
    # --crops writes a picture of each wrong one
    from vision import bench_errors, bench_failures

    layout = load()
    got = bench_errors.errors(layout, 1, seed=1, conditions=["real-hard"], views=2,
                              crops=tmp_path)["real-hard"]
    assert {"failures", "confusions", "listing", "pieces"} <= set(got)
    assert set(got["pieces"]["confusion"]) == {"figures", "items"}
    assert {w["view"] for w in got["pieces"]["wrong"]} <= {0, 1}
    wrong = len(got["listing"]) + len(got["pieces"]["wrong"])
    assert wrong > 0  # real-hard's first image of seed 1 is not read wholly right
    pictures = list(tmp_path.glob("real-hard_0.*.png"))
    assert 0 < len(pictures) <= wrong
    text = bench_errors.report({"real-hard": got})
    assert "cube regions and tracks not exact" in text
    assert "figure zones and item regions wrong" in text
    assert bench_failures.main.__doc__ and "bench_errors" in bench_failures.main.__doc__


def test_the_listing_says_each_images_light() -> None:
    # which light each wrong region was read in (dim, warm or cool, shadows, blur, JPEG):
    # the causes are grouped by it (fifteenth session)
    from vision import bench_errors

    layout = load()
    light = bench_errors.image_light(layout, "real-hard", 1, 0)
    assert light["blur"] == pytest.approx(1.81, abs=0.01)
    assert light["level"] == pytest.approx(0.58, abs=0.01) and light["jpeg"] == 56
    assert light["shadows"] == 2 and light["fov"] == 90.0
    got = bench_errors.errors(layout, 1, seed=1, conditions=["real-hard"], views=1)
    assert got["real-hard"]["light"][0] == light
    text = bench_errors.report(got)
    assert "image   0: 90° lens" in text and "blur 1.81 px" in text
