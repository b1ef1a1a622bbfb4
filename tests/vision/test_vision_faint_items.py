"""Items too faint for the board's tolerance (``vision.read_faint``), and the bench's list of
what its figure and item rows got wrong (``vision.bench_failures``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vision import bench, calibration, read_faint
from vision.bench_failures import confusions, failures
from vision.layout import Layout
from vision.lens import Lens
from vision.render import FRAME, Scene, render
from vision.table import TableView

# the real-hard row's camera: dim, blur σ 2.2 px, JPEG 55, a light gradient
DIM = Scene(seed=12, camera=12, real=True, fov=70.0, k1=-0.18, k2=0.05, tilt=10.0,
            blur=2.2, noise=4.5, jpeg=55, level=0.55, light_deg=200.0, gradient=0.2,
            vignetting=0.15)
COINS = {"goods:red": {"coin": 1}, "goods:yellow": {"coin": 2}, "goods:blue": {"coin": 1},
         "goods:white": {"coin": 2}}


@pytest.fixture(scope="module")
def dim_calibration(layout: Layout) -> calibration.Calibration:
    lens = Lens.from_fov(FRAME, DIM.fov, DIM.k1, DIM.k2)
    empty = [render(layout, TableView(), replace(DIM, seed=100 + i)).image for i in range(3)]
    return calibration.capture_empty(calibration.set_lens(calibration.default(), lens), empty)


def _items(layout: Layout, cal: calibration.Calibration, items: dict[str, dict[str, int]],
           seeds: range, shadows: int = 0) -> list[tuple[str, dict[str, int], object]]:
    """(region, wanted, read) for every item region read otherwise than wanted."""
    wrong = []
    for seed in seeds:
        shot = render(layout, TableView(items=items),
                      replace(DIM, seed=seed, pieces=seed, shadows=shadows))
        reading = cal.reader().read(shot.image)
        assert all(reading.boards.values()), reading.refused
        for region in COINS:
            want = items.get(region, {})
            if reading.items.get(region) != want:
                wrong.append((region, want, reading.items.get(region)))
    return wrong


def test_a_grey_coin_on_a_dark_farm_in_dim_light_is_counted(
        layout: Layout, dim_calibration: calibration.Calibration) -> None:
    # a grey coin on the green farm in dim light differs from the print by 10–20 levels a
    # channel, under the board's tolerance (22): it was missed (58 coins missed over the
    # 192 item regions of the real-hard row, 12 tables × 4 contents). Its change of
    # colour over a coin's area is found.
    wrong = _items(layout, dim_calibration, COINS, range(31, 34))
    assert len(wrong) <= 2, wrong  # of 12 regions


def test_the_faint_rule_finds_no_item_on_an_empty_farm_under_moving_shadows(
        layout: Layout, dim_calibration: calibration.Calibration) -> None:
    # a shadow changes the board's level, not its colour; noise and misregistration
    # change its colour at random or along an edge: none of it is an item (a region a
    # shadow's edge hides as under a hand is not read: not an item either)
    wrong = _items(layout, dim_calibration, {}, range(41, 45), shadows=3)
    assert not [w for w in wrong if w[2] is not None], wrong


def test_without_the_faint_rule_those_coins_are_missed(
        layout: Layout, dim_calibration: calibration.Calibration,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the rule is what finds them: the same frames with it switched off miss most coins
    monkeypatch.setattr(read_faint, "FAINT_CHROMA", 1e9)
    wrong = _items(layout, dim_calibration, COINS, range(31, 34))
    assert len(wrong) >= 6, wrong


def test_confusions_pair_a_missing_piece_with_one_too_many() -> None:
    assert confusions({"horse": 2, "coin": 1}, {"horse": 1, "wagon": 1, "coin": 1}) == [
        "horse->wagon"]
    assert confusions({"coin": 2}, {}) == ["coin->-", "coin->-"]
    assert confusions({}, {"white": 1}) == ["-->white"]
    assert confusions({"ox": 2, "grain": 1}, {"ox": 1, "coin": 2}) == [
        "grain->coin", "ox->coin"]
    assert confusions({"red": 1}, {"red": 1}) == []


def test_more_views_widen_every_row_and_leave_the_first_image_alone(
        layout: Layout) -> None:
    one = bench.accuracy(layout, 1, seed=3, conditions=["real-ordinary"])["real-ordinary"]
    two = bench.accuracy(layout, 1, seed=3, conditions=["real-ordinary"],
                         views=2)["real-ordinary"]
    # cubes and tracks on every view (one view of a few dozen tables flattered: seed 1's
    # view 0 read 99.7 %, its views 1-3 97.3 %); the images wholly right: view 0's
    assert two["cubes_tracks_counted"] == 2 * one["cubes_tracks_counted"]
    assert two["images_all_right"] == one["images_all_right"]
    assert two["board_found"] == one["board_found"] == 1
    assert two["piece_images"] == 2 and one["piece_images"] == 1
    assert two["figures_counted"] == 2 * one["figures_counted"]
    assert two["items_counted"] == 2 * one["items_counted"]


def test_the_failure_list_says_region_want_got_and_why(layout: Layout) -> None:
    got = failures(layout, 1, seed=3, conditions=["real-hard"])["real-hard"]
    assert set(got) == {"wrong", "confusion"}
    for w in got["wrong"]:
        assert {"image", "view", "kind", "region", "want", "got", "why"} <= set(w)
        assert w["got"] != w["want"] or w["why"] == "hidden"
        assert w["why"]
