"""Settling: commit only steady, unoccluded, still readings; never under a hand."""

from __future__ import annotations

from vision import bench
from vision.layout import Layout
from vision.read import Reading
from vision.settle import Settler


def _r(t: float, harvest: dict[str, int], occluded: set[str] | None = None,
       moving: set[str] | None = None) -> Reading:
    return Reading(t=t, cubes={"space:harvest": harvest}, occluded=occluded or set(),
                   moving=moving or set())


def test_commits_after_the_settle_time_only_once() -> None:
    s = Settler(0.5)
    assert s.feed(_r(0.0, {"brown": 1})) == []
    assert s.feed(_r(0.3, {"brown": 1})) == []
    out = s.feed(_r(0.5, {"brown": 1}))
    assert [(c.name, c.value) for c in out] == [("space:harvest", {"brown": 1})]
    assert s.feed(_r(1.5, {"brown": 1})) == []  # same value: not again


def test_a_change_restarts_the_clock() -> None:
    s = Settler(0.5)
    s.feed(_r(0.0, {"brown": 1}))
    s.feed(_r(0.4, {"brown": 2}))
    assert s.feed(_r(0.6, {"brown": 2})) == []
    assert [c.value for c in s.feed(_r(0.9, {"brown": 2}))] == [{"brown": 2}]


def test_occlusion_and_motion_restart_the_clock() -> None:
    for blocked in ({"occluded": {"space:harvest"}}, {"moving": {"space:harvest"}}):
        s = Settler(0.5)
        s.feed(_r(0.0, {"pink": 1}))
        s.feed(_r(0.3, {"pink": 1}, **blocked))  # type: ignore[arg-type]
        assert s.feed(_r(0.6, {"pink": 1})) == []
        assert s.feed(_r(0.8, {"pink": 1})) == []
        assert [c.value for c in s.feed(_r(1.1, {"pink": 1}))] == [{"pink": 1}]


def test_rendered_sequences_commit_nothing_under_a_hand(layout: Layout) -> None:
    result = bench.occlusion_sequences(layout, 2, seed=3)
    assert result["committed_under_occlusion"] == 0, result
    assert result["commits"] >= 16  # the table before, and again after the hand left
