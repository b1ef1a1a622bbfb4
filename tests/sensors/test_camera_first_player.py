"""The camera's ``first_player`` track (issue 15): the first-player tokens read from the
frames, settled, and emitted as ``MarkerCell`` observations the reconciler keeps as
``first_player:<colour>`` and ``first_player:home``; tokens not seen where they can be
told apart are reported occluded under those names."""

from __future__ import annotations

import cv2
import numpy as np

from companion.reconcile.observations import MarkerCell, Observation, Occluded
from companion.reconcile.observed import ObservedTable
from companion.sensors.camera import CameraAdapter
from vision.layout import load
from vision.render import Scene, render
from vision.sources import SimSource
from vision.table import TableView

cv2.setNumThreads(1)
LAYOUT = load()


def _run(views: list[TableView]) -> list[Observation]:
    t = [0.0]
    seen: list[Observation] = []
    cache: dict[int, np.ndarray] = {}

    def frame(n: int) -> np.ndarray:
        k = min(n // 10, len(views) - 1)
        if k not in cache:
            cache[k] = render(LAYOUT, views[k], Scene(seed=1, camera=1, pieces=1)).image
        return cache[k]

    adapter = CameraAdapter(lambda: SimSource(frame, fps=10.0), seen.append, reconnect_s=0.0,
                            settle_s=0.4, clock=lambda: t[0])
    for _ in range(10 * len(views)):
        t[0] += 0.1
        adapter.step()
    return seen


def test_the_adapter_emits_who_holds_the_first_player_token() -> None:
    seen = _run([TableView(tokens={"first": "red", "next": "home"}),
                 TableView(tokens={"first": "red", "next": "blue"})])
    cells = [(o.marker, o.cell) for o in seen
             if isinstance(o, MarkerCell) and o.track == "first_player"]
    first, second = cells[:5], cells[5:]
    assert dict(first) == {"home": 1, "red": 1, "yellow": 0, "blue": 0, "white": 0}
    assert dict(second) == {"home": 0, "red": 0, "yellow": 0, "blue": 1, "white": 0}
    table = ObservedTable(settle=0.5)
    for o in seen:
        table.observe(o)
    table.tick(100.0)
    got = table.settled(100.0)
    assert got["first_player:blue"] == 1 and got["first_player:red"] == 0
    assert got["first_player:home"] == 0


def test_a_token_not_seen_hides_the_first_player_regions() -> None:
    seen = _run([TableView(tokens={"first": "red", "next": "home"}),
                 TableView(tokens={"first": "red", "next": "nowhere"})])
    hidden = [o.regions for o in seen if isinstance(o, Occluded) and o.regions]
    assert hidden and {"first_player:home", "first_player:red"} <= hidden[-1]
    table = ObservedTable(settle=0.5)
    for o in seen:
        table.observe(o)
    table.tick(100.0)
    assert "first_player:home" not in table.settled(100.0)
