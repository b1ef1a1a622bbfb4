"""What the reconciler needs from the camera (issue 16 item 5): figures by colour in every
zone, the farms' grain, coins and goods, and the prestige track's laps, through the real
renderer, reader, settler and adapter."""

from __future__ import annotations

import cv2
import numpy as np

from companion.reconcile.observations import FigureCounts, ItemCounts, MarkerCell, Observation
from companion.sensors.camera import CameraAdapter, PrestigeLaps
from vision.layout import load
from vision.read import BoardReader
from vision.render import Scene, render
from vision.sources import SimSource
from vision.table import TableView, from_dict

cv2.setNumThreads(1)
LAYOUT = load()
VIEW = from_dict({
    "space:harvest": {"brown": 2}, "time:red": {"red": 2}, "prestige": {"red": 7, "blue": 45},
    "council:2": ["red-1a", "blue-2a"], "travel:south": ["blue-1b"], "craft:office": ["red-2a"],
    "church:1": ["monk-1", "red-1c"], "farm:red": ["red-1b", "red-1d", "red-3a"],
    "goods:red": {"grain": 3, "coin": 2, "scroll": 1, "plough": 1},
    "goods:blue": {"wagon": 2, "horse": 1, "ox": 1, "coin": 1},
})
FIGURES = {"council:2": {"red": 1, "blue": 1}, "travel:south": {"blue": 1},
           "craft:office": {"red": 1}, "church:1": {"black": 1, "red": 1},
           "farm:red": {"red": 3}}


def test_the_reader_counts_figures_by_colour_and_items_on_the_farms() -> None:
    for seed in range(3):
        shot = render(LAYOUT, VIEW, Scene(seed=seed, perspective=0.03, blur=0.6, noise=2.0))
        reading = BoardReader(LAYOUT).read(shot.image)
        assert {z: v for z, v in reading.figures.items() if v} == FIGURES, seed
        assert reading.items["goods:red"] == VIEW.items["goods:red"], seed
        assert reading.items["goods:blue"] == VIEW.items["goods:blue"], seed
        assert reading.items["goods:white"] == {}, seed
        assert reading.to_json()["items"]["goods:red"] == VIEW.items["goods:red"]


def test_the_adapter_emits_settled_figures_and_items() -> None:
    t = [0.0]
    seen: list[Observation] = []
    cache: dict[int, np.ndarray] = {}

    def frame(n: int) -> np.ndarray:
        if n % 2 not in cache:
            cache[n % 2] = render(LAYOUT, VIEW, Scene(seed=n % 2, camera=1, pieces=1)).image
        return cache[n % 2]

    adapter = CameraAdapter(lambda: SimSource(frame, fps=10.0), seen.append, reconnect_s=0.0,
                            settle_s=0.4, clock=lambda: t[0])
    for _ in range(12):
        t[0] += 0.1
        adapter.step()
    figures = {o.zone: dict(o.counts) for o in seen if isinstance(o, FigureCounts)}
    items = {o.region: dict(o.counts) for o in seen if isinstance(o, ItemCounts)}
    assert {z: c for z, c in figures.items() if c} == FIGURES
    assert figures["council:1"] == {}  # an empty zone is said to be empty
    assert items["goods:red"] == VIEW.items["goods:red"]
    assert items["goods:blue"] == VIEW.items["goods:blue"]
    prestige = {o.marker: o.cell for o in seen if isinstance(o, MarkerCell)
                and o.track == "prestige"}
    assert prestige == {"red": 7, "blue": 45}


def test_prestige_laps_are_counted_from_the_cells_a_marker_is_seen_on() -> None:
    laps = PrestigeLaps(50)
    assert [laps.score("red", c) for c in (3, 20, 44, 49)] == [3, 20, 44, 49]
    assert laps.score("red", 2) == 52  # past the last cell: one lap more
    assert laps.score("red", 2) == 52
    assert laps.score("red", 20) == 70
    # more than half the track ahead: nearer as a marker seen back behind the start (a
    # lap counted by a misread is taken back)
    assert laps.score("red", 48) == 48
    assert laps.score("blue", 0) == 0
    started = PrestigeLaps(50, {"red": 1})  # a camera started during the game
    assert started.score("red", 4) == 54 and started.score("yellow", 4) == 4


def test_the_adapter_follows_a_marker_round_the_prestige_track() -> None:
    t = [0.0]
    seen: list[Observation] = []
    views = {cell: from_dict({"prestige": {"red": cell}}) for cell in (46, 3)}
    cache: dict[int, np.ndarray] = {}
    cells = [46] * 10 + [3] * 10

    def frame(n: int) -> np.ndarray:
        cell = cells[min(n, len(cells) - 1)]
        if cell not in cache:
            cache[cell] = render(LAYOUT, views[cell], Scene(seed=1, camera=1, pieces=1)).image
        return cache[cell]

    adapter = CameraAdapter(lambda: SimSource(frame, fps=10.0), seen.append, reconnect_s=0.0,
                            settle_s=0.4, clock=lambda: t[0])
    for _ in range(20):
        t[0] += 0.1
        adapter.step()
    scores = [o.cell for o in seen if isinstance(o, MarkerCell) and o.track == "prestige"]
    assert scores == [46, 53], scores


def test_an_empty_table_view_has_no_items() -> None:
    assert TableView().to_dict()["items"] == {}
