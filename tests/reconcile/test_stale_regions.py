"""The changes of a camera game's moves that the camera never reported
(``companion.sim.stale_regions``): counted apart from the committed misreads."""

from __future__ import annotations

from companion.reconcile.observations import CubeCounts, MarkerCell
from companion.sim.stale_regions import StaleRegions
from vision.table import TableView


def _cubes(t: float, region: str, **counts: int) -> CubeCounts:
    return CubeCounts("camera:0", t, region, dict(counts))


def test_a_change_the_camera_never_committed_is_stale() -> None:
    stale = StaleRegions()
    start = TableView(cubes={"space:council": {"pink": 1, "green": 1}, "supply:red": {}})
    stale.committed(_cubes(0.0, "space:council", pink=1, green=1))
    stale.committed(_cubes(0.0, "supply:red"))
    took = TableView(cubes={"space:council": {"pink": 1}, "supply:red": {"green": 1}})
    stale.moved(5, start, took)
    stale.committed(_cubes(1.0, "space:council", pink=1))  # the supply never said
    gave = TableView(cubes={"space:council": {"pink": 1}, "supply:red": {}})
    stale.moved(6, took, gave)  # changed again: the first change was never reported
    assert stale.finish() == [(5, "supply:red", {"green": 1}, {})]
    assert stale.changes == 3
    assert stale.to_json()["stale_regions"] == 1


def test_a_change_reported_or_already_said_is_not_stale() -> None:
    stale = StaleRegions()
    before = TableView(cubes={"supply:red": {"green": 1}})
    stale.committed(_cubes(0.0, "supply:red", green=2))  # a misread that comes true
    stale.moved(3, before, TableView(cubes={"supply:red": {"green": 2}}))
    assert stale.finish() == []


def test_a_marker_committed_with_its_old_cell_is_not_reported() -> None:
    stale = StaleRegions()
    before = TableView(tracks={"prestige": {"red": 3, "blue": 5}})
    for colour, cell in (("red", 3), ("blue", 5)):
        stale.committed(MarkerCell("camera:0", 0.0, "prestige", colour, cell))
    stale.moved(9, before, TableView(tracks={"prestige": {"red": 3, "blue": 7}}))
    stale.moved(10, before, TableView(tracks={"prestige": {"red": 4, "blue": 5}}))
    # the track committed for red's move: blue read where it was, red where it is
    stale.committed(MarkerCell("camera:0", 1.0, "prestige", "blue", 5))
    stale.committed(MarkerCell("camera:0", 1.0, "prestige", "red", 4))
    assert [(n, k) for n, k, _v, _s in stale.finish()] == [(9, "prestige@blue")]
