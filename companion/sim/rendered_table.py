"""The table the rendered camera game shows: what the renderer draws for a game state, one
image per (table, hand) with the pieces of the regions a move left alone where they lay,
and the real table's camera calibrated as a person would (``companion.sim.camera_game``).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np

from companion import village as v
from companion.village.picture import picture
from vision import calibration as vcal
from vision.bench import CUBE_CALIBRATION, HAND_SKINS, camera_lens
from vision.calibration import Calibration
from vision.layout import Layout
from vision.render import Scene, render
from vision.table import TableView, from_dict

EMPTY_FRAMES = 3  # frames of the empty table ``calibrate empty`` learns from


def table_view(st: v.GameState, layout: Layout) -> TableView:
    """What the renderer draws for ``st``: ``picture(st)``'s cubes on the action spaces and
    supplies, time markers, prestige markers (cell modulo the layout's track length), the
    figures in the layout's zones, the grain, coins and goods on the farms, and the
    first-player tokens (the First marker with the round's first player, the Next marker
    home or with whoever took it)."""
    pic = picture(st)
    names = {r.name for b in layout.boards.values() for r in b.regions}
    cells = sum(1 for b in layout.boards.values() for r in b.regions if r.name == "prestige")
    cubes = {n: c for n, c in pic.cubes.items() if n in names}
    tracks: dict[str, dict[str, int]] = {
        n: {n.partition(":")[2]: cell} for n, (cell, _laps) in pic.time.items()}
    tracks["prestige"] = {c: cell % max(cells, 1) for c, cell in pic.prestige.items()}
    zones = {z: sorted(ms) for z, ms in pic.pieces.items() if ms and z in names}
    items = {n: dict(c) for n, c in pic.items.items() if n in names}
    view = from_dict({"cubes": cubes, "tracks": tracks, "zones": zones, "items": items})
    view.tokens = {"first": st.players[st.first].value,
                   "next": st.next_first.value if st.next_first else "home"}
    return view


def changed_regions(old: TableView, new: TableView) -> set[str]:
    """The regions whose pieces differ between two tables (cubes, markers, figures,
    items, first-player tokens): the ones a move touched."""
    out: set[str] = set()
    for a, b in ((old.cubes, new.cubes), (old.tracks, new.tracks), (old.zones, new.zones),
                 (old.items, new.items)):
        out |= {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}
    if old.tokens != new.tokens:
        out |= {f"first_player:{p}" for p in (*old.tokens.values(), *new.tokens.values())}
    return out


class RenderedTable:
    """The physical table as the camera sees it: one rendered image per (table, hand)."""

    def __init__(self, layout: Layout, st: v.GameState, camera: int = 1,
                 real: Scene | None = None) -> None:
        self.layout = layout
        self.camera = camera
        self.real = real  # the real table's scene (``Scene.real``), else the ideal renderer
        self.view = table_view(st, layout)
        self.version = 0  # bumped when pieces move (or are put right): drawn anew
        # region -> the version it was last drawn anew at (``Scene.placing``); a region
        # not named keeps 0, as does every region of the first table
        # None: every piece placed from the drawing's seed (each drawing lays them anew)
        self.placing: dict[str, int] | None = {}
        self.hands: list[tuple[float, float]] = []
        self.covered: set[str] = set()  # regions the hand covers in the last frame served
        self.render_s = 0.0
        self.render_cpu_s = 0.0
        self.renders = 0
        self._cache: dict[tuple[Any, ...], tuple[np.ndarray, set[str]]] = {}

    def show(self, st: v.GameState) -> None:
        """The table after a move: the regions it changed are drawn anew (their pieces at
        new spots), the others' pieces stay where they lay."""
        view = table_view(st, self.layout)
        self.version += 1
        for name in changed_regions(self.view, view):
            if self.placing is not None:
                self.placing[name] = self.version
        self.view = view

    def reseat(self) -> None:
        """The players put the cubes right: every piece is drawn again at a new spot."""
        self.version += 1
        if self.placing is not None:
            self.placing = {r.name: self.version for b in self.layout.boards.values()
                            for r in b.regions}

    def scene(self, seed: int, hands: list[tuple[float, float]]) -> Scene:
        """The scene of one drawing: fixed camera and light, noise and where the pieces lie
        from ``seed``, the hand's skin one of the bench's six in turn."""
        placing = None if self.placing is None else dict(self.placing)
        if self.real is None:
            return Scene(seed=seed, camera=self.camera, pieces=seed, hands=hands,
                         hand_skin=seed, placing=placing)
        return replace(self.real, seed=seed, camera=self.camera, pieces=seed, hands=hands,
                       skin=HAND_SKINS[seed % len(HAND_SKINS)], placing=placing)

    def frame(self, n: int) -> np.ndarray:
        key = (self.version, tuple(self.hands))
        hit = self._cache.get(key)
        if hit is None:
            started, cpu = time.perf_counter(), time.process_time()
            r = render(self.layout, self.view, self.scene(self.version, list(self.hands)))
            self.render_s += time.perf_counter() - started
            self.render_cpu_s += time.process_time() - cpu
            self.renders += 1
            covered = {k.partition("/")[2].partition("#")[0] for k in r.covered}
            self._cache = {key: (r.image, covered)}
            hit = self._cache[key]
        self.covered = hit[1]
        return hit[0]


def calibrate_real(layout: Layout, table: RenderedTable) -> Calibration:
    """The real table's camera calibrated as docs/vision.md has a person do it: the lens from
    12 photos of the ChArUco sheet, ``calibrate empty`` from ``EMPTY_FRAMES`` frames of the
    empty table, ``calibrate cubes`` from ``bench.CUBE_CALIBRATION``'s two frames (same
    camera, same light). Raises CalibrationError when a step cannot be done."""
    assert table.real is not None
    cal = vcal.set_lens(vcal.default(), camera_lens(table.real))
    cal = vcal.capture_empty(cal, [render(layout, TableView(), table.scene(100_000 + k, [])).image
                                   for k in range(EMPTY_FRAMES)])
    shots = []
    for k, placed in enumerate(CUBE_CALIBRATION):
        view = TableView(cubes={r: {c: n} for r, (c, n) in placed.items()})
        shots.append((render(layout, view, table.scene(100_010 + k, [])).image, placed))
    return vcal.learn_cubes_against_empty(cal, shots)
