"""What a steady frame skips (issue 16, speed) reads the same: samples remapped region by
region equal one remap of every point, and the first-player tokens, read again only where
the table changed, still follow a token that moves."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.layout import Layout
from vision.read import BoardReader
from vision.read_parts import Samples
from vision.render import Scene, render
from vision.table import TableView, from_dict


def test_samples_remapped_region_by_region_equal_one_remap(layout: Layout) -> None:
    view = from_dict({"space:harvest": {"brown": 2}, "time:red": {"red": 3}})
    reader = BoardReader(layout)
    reader.read(render(layout, view, Scene(seed=5, camera=1, pieces=1)).image)
    plan = reader._plan
    assert plan is not None and plan.parts
    frame = render(layout, view, Scene(seed=6, camera=1, pieces=1)).image
    whole = cv2.remap(frame, plan.map1, plan.map2, cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)).reshape(-1, 3)
    lazy, filled = Samples(frame, plan), Samples(frame, plan)
    filled.fill()
    for a, b, _shape in plan.slices.values():
        assert np.array_equal(lazy[a:b], whole[a:b])
        assert np.array_equal(filled[a:b], whole[a:b])
    # the head (coarse grids, white rings) alone is remapped until a region asks
    fresh = Samples(frame, plan)
    assert fresh.tail is None and not fresh.got
    a, b, _shape = plan.slices[("main", "#coarse")]
    fresh[a:b]
    assert fresh.tail is None and not fresh.got


def test_a_steady_table_reads_nothing_again_and_remaps_no_region(
        layout: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    view = from_dict({"space:church": {"pink": 2}})
    reader = BoardReader(layout)
    frames = [render(layout, view, Scene(seed=10 + i, camera=1, pieces=1)).image
              for i in range(4)]
    reader.read(frames[0])
    reader.read(frames[1])
    before = reader.regions_read
    calls: list[int] = []
    real_fill = Samples.fill

    def fill(self: Samples) -> None:
        calls.append(1)
        real_fill(self)

    monkeypatch.setattr(Samples, "fill", fill)
    for f in frames[2:]:
        assert reader.read(f).cubes["space:church"] == {"pink": 2}
    assert reader.regions_read == before and not calls


def test_a_token_moved_on_a_steady_table_is_seen(layout: Layout) -> None:
    reader = BoardReader(layout)
    here = TableView(tokens={"first": "red", "next": "home"})
    there = TableView(tokens={"first": "blue", "next": "home"})
    for i in range(3):
        got = reader.read(render(layout, here, Scene(seed=20 + i, camera=1, pieces=1)).image)
        assert got.tracks["first_player"]["red"] == 1
    moved = reader.read(render(layout, there, Scene(seed=30, camera=1, pieces=1)).image)
    assert moved.tracks["first_player"]["blue"] == 1
    assert moved.tracks["first_player"]["red"] == 0
