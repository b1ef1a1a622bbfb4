"""The renderer: a table description in, an image with its ground truth out."""

from __future__ import annotations

import numpy as np
import pytest

from vision.layout import Layout
from vision.render import FRAME, Scene, render
from vision.table import TableError, TableView, from_dict


def test_flat_and_nested_descriptions_agree() -> None:
    flat = {"space:harvest": {"brown": 2, "pink": 0}, "time:red": {"red": 3},
            "prestige": {"red": 12}, "council:2": ["red-1a"]}
    nested = {"cubes": {"space:harvest": {"brown": 2}},
              "tracks": {"time:red": {"red": 3}, "prestige": {"red": 12}},
              "zones": {"council:2": ["red-1a"]}}
    assert from_dict(flat) == from_dict(nested)
    assert from_dict(flat).cubes == {"space:harvest": {"brown": 2}}


@pytest.mark.parametrize("bad", [{"space:harvest": {"purple": 1}},
                                 {"space:harvest": {"brown": -1}},
                                 {"time:red": {"red": "3"}}, {"council:1": "red-1a"}])
def test_descriptions_that_do_not_fit_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(TableError):
        from_dict(bad)


def test_same_seed_same_image_and_pieces_change_pixels(layout: Layout) -> None:
    view = from_dict({"space:market": {"green": 3}})
    a = render(layout, view, Scene(seed=4)).image
    b = render(layout, view, Scene(seed=4)).image
    c = render(layout, TableView(), Scene(seed=4)).image
    assert a.shape == (FRAME[1], FRAME[0], 3)
    assert np.array_equal(a, b)
    assert np.abs(a.astype(int) - c.astype(int)).max() > 100


def test_a_hand_covers_the_regions_under_it(layout: Layout) -> None:
    # fingertip over the harvest space (board at x 220 mm on the table; harvest x 46–156)
    shot = render(layout, TableView(), Scene(seed=1, hands=[(320.0, 160.0)]))
    assert "main/space:harvest" in shot.covered
    assert "main/space:church" not in shot.covered
    assert not render(layout, TableView(), Scene(seed=1)).covered


def test_light_level_and_colour_change_the_image(layout: Layout) -> None:
    base = render(layout, TableView(), Scene(seed=2)).image.astype(float)
    dim = render(layout, TableView(), Scene(seed=2, level=0.5)).image.astype(float)
    warm = render(layout, TableView(), Scene(seed=2, light=(1.1, 1.0, 0.7))).image.astype(float)
    assert 0.45 < dim.mean() / base.mean() < 0.55
    assert warm[..., 0].mean() < base[..., 0].mean() * 0.8  # blue (BGR) falls


def test_pieces_placed_region_by_region_stay_where_they_lay(layout: Layout) -> None:
    """``Scene.placing``: each region's pieces from its own number, so a move that leaves a
    region alone leaves its pieces where they lay (the camera game's table)."""
    view = from_dict({"space:market": {"green": 3}, "supply:red": {"brown": 2, "pink": 3},
                      "goods:red": {"coin": 2}})
    for real in (False, True):
        def draw(pieces: int, placing: dict[str, int], real: bool = real) -> np.ndarray:
            scene = Scene(seed=4, noise=0.0, pieces=pieces, placing=placing, real=real)
            return render(layout, view, scene).image
        a, b = draw(1, {}), draw(2, {})
        assert np.array_equal(a, b)  # the scene's own pieces number no longer moves them
        c = draw(1, {"space:market": 5})
        assert not np.array_equal(a, c)
