"""The camera adapter: frames -> settled readings -> observations (``docs/vision.md``).

A small state machine on its own thread (`CameraState`, changed only by
``_change_state``, which logs the change and tells the health panel)::

    no camera --open--> opening --board found--> calibrated --first settled reading-->
    streaming --frames stop--> lost --reopened--> opening …

A camera that cannot be opened is tried again after a back-off
(`companion.sensors.backoff`): ``reconnect_s``, doubling up to ``reconnect_cap_s``, each
cut by up to 20 % at random; back to ``reconnect_s`` once a frame is read.

Only settled, unoccluded regions are emitted (``vision.settle``): ``CubeCounts`` per cube
region, ``FigureCounts`` per figure zone (figures by colour, the black monks included),
``ItemCounts`` per farm's grain, coins and goods, ``MarkerCell`` per marker that moved (on
the prestige track with its laps counted: ``PrestigeLaps``; the first-player tokens as the
``first_player`` track, ``home`` and each farm's colour, ``vision/read_token.py``),
``Occluded`` whenever the set of regions under a hand changes (the ``first_player`` track
named as the reconciler's regions, ``first_player:home`` and ``first_player:<colour>``),
and, from the source ``<name>/uncertain``, whenever the set of regions read uncertain
(something unknown on them) changes (``Occluded.uncertain``): hidden as well, but no
hand seen there nor one that has just come, and ``Health`` on every state change and
every few seconds (frames per second, marker drift in pixels, occluded regions).
``crop(region)`` gives the last frame cut around a region, for a discrepancy shown on the tablet.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from enum import StrEnum

import cv2
import numpy as np

from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    Health,
    ItemCounts,
    MarkerCell,
    Occluded,
)
from vision.calibration import Calibration, default
from vision.geometry import project
from vision.read import BoardReader
from vision.settle import Commit, Settler
from vision.sources import Source, SourceError

from . import Emit
from .backoff import Backoff

log = logging.getLogger(__name__)
FIRST_PLAYER = "first_player"
# the reconciler's regions of the first-player track (docs/sensing.md, « Tracks »)
FIRST_PLAYER_REGIONS = frozenset(
    f"{FIRST_PLAYER}:{m}" for m in ("home", "red", "yellow", "blue", "white"))


def _regions(names: frozenset[str]) -> frozenset[str]:
    """Occluded names as the reconciler's regions: the ``first_player`` track is one
    region per marker there."""
    if FIRST_PLAYER not in names:
        return names
    return (names - {FIRST_PLAYER}) | FIRST_PLAYER_REGIONS


class CameraState(StrEnum):
    """The camera adapter's state (its words start the health panel's detail)."""

    NO_CAMERA = "no camera"
    OPENING = "opening"
    CALIBRATED = "calibrated"
    STREAMING = "streaming"
    LOST = "lost"


NO_CAMERA, OPENING, CALIBRATED, STREAMING, LOST = CameraState
HEALTH_OF = {NO_CAMERA: "down", OPENING: "connecting", CALIBRATED: "connecting",
             STREAMING: "up", LOST: "down"}


class PrestigeLaps:
    """A marker's score on a looping track from the cells it is seen on: the track has
    ``cells`` cells, and a marker seen more than half the track behind where it last
    settled has gone round once more (a score only grows by less than that in one move;
    the other way, a lap counted by a misread is taken back). ``laps`` gives the laps
    already made when the camera starts during a game."""

    def __init__(self, cells: int, laps: dict[str, int] | None = None) -> None:
        self.cells = cells
        self.laps = dict(laps or {})
        self.last: dict[str, int] = {}

    def score(self, colour: str, cell: int) -> int:
        """The score of ``colour``'s marker now seen on ``cell``."""
        was = self.last.get(colour)
        if was is not None and self.cells > 0:
            if cell < was - self.cells / 2:
                self.laps[colour] = self.laps.get(colour, 0) + 1
            elif cell > was + self.cells / 2 and self.laps.get(colour, 0) > 0:
                self.laps[colour] -= 1
        self.last[colour] = cell
        return self.laps.get(colour, 0) * self.cells + cell


class CameraAdapter:
    """Watches the table through one source; see the module docstring."""

    def __init__(self, source: Callable[[], Source], emit: Emit, name: str = "camera:0",
                 calibration: Calibration | None = None, settle_s: float = 0.6,
                 reconnect_s: float = 1.0, health_every_s: float = 5.0,
                 clock: Callable[[], float] = time.monotonic,
                 reconnect_cap_s: float = 4.0,
                 prestige_laps: dict[str, int] | None = None) -> None:
        self.name = name
        self._make_source = source
        self._emit = emit
        self.calibration = calibration or default()
        self.settle_s = settle_s
        self.reconnect_s = reconnect_s
        self.retry = Backoff(reconnect_s, max(reconnect_s, reconnect_cap_s))
        self.health_every_s = health_every_s
        self.clock = clock
        self.state: CameraState = NO_CAMERA
        self.errors = 0
        self._source: Source | None = None
        self._reader: BoardReader | None = None
        self._settler = Settler(settle_s)
        self._occluded: frozenset[str] = frozenset()  # under a hand or uncertain
        self._hands: frozenset[str] = frozenset()
        self._unsure: frozenset[str] = frozenset()
        # the source of the Occluded observations naming the regions read uncertain
        self.unsure_source = f"{name}/uncertain"
        self._next_try = -1e9  # clock time of the next attempt to open the camera
        self._last_health = -1e9
        self._frames: list[float] = []
        self._frame: np.ndarray | None = None
        self._boards: dict[str, np.ndarray] = {}  # board -> homography in self._frame
        self._drift = 0.0
        self._detail = ""
        self._kept = ""  # why the board's pose is kept (``geometry.pose_kept``), if it is
        # the farms the last frame did not place, by colour, with why (``unplaced_farms``)
        self._unplaced: dict[str, str] = {}
        self.farms_in_play: Callable[[], frozenset[str] | None] | None = None
        """The colours whose farms should be on the table (the runtime gives the game's
        players), or None when not known: then every farm not placed is named."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        cells = sum(1 for b in self.calibration.layout.boards.values() for r in b.regions
                    if r.name == "prestige")
        self.prestige = PrestigeLaps(cells, prestige_laps)

    # -- the Adapter protocol ---------------------------------------------------------
    def start(self) -> None:
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self._release()

    def health(self) -> Health:
        fps = self._fps()
        detail = f"{self.state}; drift {self._drift:.1f} px"
        if self._occluded:
            detail += f"; occluded: {', '.join(sorted(self._occluded))}"
        if self._detail:
            detail += f"; {self._detail}"
        if self._kept:
            detail += f"; board: {self._kept}"
        missing, fault = self._missing_farms()
        if missing:
            detail += f"; {missing}"
        if self.calibration.lens is None:
            # geometry as if the lens did not bend: regions near the frame's edges are
            # sampled off by a few pixels (docs/vision.md, "Lens")
            detail += "; no lens calibration (companion calibrate lens)"
        state = HEALTH_OF[self.state]
        if self.state == STREAMING and (self._detail or fault):
            state = "degraded"
        return Health(self.name, self.clock(), self.name, state, round(fps, 1), self.errors,
                      detail)

    def _missing_farms(self) -> tuple[str, bool]:
        """The health panel's words for the farms the last frame did not place ("" when
        none is missing), and whether that is a fault: a farm of a family in the game
        (its regions hidden from the reconciler). The game's families unknown, every
        farm not placed is named as a note (a two-player game leaves two farms off the
        table on purpose)."""
        if not self._unplaced:
            return "", False
        in_play = self.farms_in_play() if self.farms_in_play is not None else None
        if in_play is None:
            return ("farms not seen (fine if not in the game): "
                    + ", ".join(sorted(self._unplaced))), False
        missing = {c: why for c, why in self._unplaced.items() if c in in_play}
        if not missing:
            return "", False
        return ("not placed, its regions hidden: "
                + "; ".join(f"the {c} farm ({why})" for c, why in sorted(missing.items()))), True

    # -- the machine ------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.step():
                self._stop.wait(0.05)

    def step(self) -> bool:
        """One turn of the machine; returns True if a frame was read."""
        now = self.clock()
        if self.state in (NO_CAMERA, LOST):
            if now < self._next_try:
                return False
            self._next_try = now + self.retry.next()
            source = self._make_source()
            try:
                source.open()
            except SourceError as exc:
                if str(exc) != self._detail:
                    log.info("%s: %s; next try in %.1f s", self.name, exc, self._next_try - now)
                self._detail = str(exc)
                return False
            self._source = source
            self._reader = self.calibration.reader()
            self._settler = Settler(self.settle_s)
            self._change_state(OPENING)
        assert self._source is not None and self._reader is not None
        frame = self._source.read()
        if frame is None:
            self.errors += 1
            self._release()
            self._frames.clear()
            self._change_state(LOST, "no frame")
            return False
        self.retry.reset()
        self._next_try = now  # a camera lost after this frame is tried again at once
        self._frames.append(now)
        reading = self._reader.read(frame.image, frame.t)
        geometry = self._reader.tracker.geometry
        # the frame kept with where its boards are (for crops): a reader made at a reopen
        # knows no board until it has read its first frame
        with self._lock:
            self._frame = frame.image
            self._boards = dict(geometry.boards)
        if geometry.detected:
            self._drift = geometry.drift_px
        if not reading.board_found:
            why = reading.refused.get("main")
            self._detail = f"board not found: {why}" if why else "board not found"
            self._unplaced = {}  # no farm is placed without the main board: said once
            if self.state == STREAMING:
                self._health(force=True)
            return True
        self._detail = ""
        self._unplaced = unplaced_farms(reading.boards, reading.refused)
        # the board placed from a pose kept while the camera has not moved (too few of its
        # markers decoded for a new fit): said on the health panel, not a fault
        self._kept = geometry.kept.get("main", "")
        if self.state == OPENING:
            self._change_state(CALIBRATED)
        commits = self._settler.feed(reading)
        # a region a hand has left stays reported occluded until it has settled again
        # (its new value committed, or its old one steady): until then what was committed
        # before the hand is not what the table shows
        read = (reading.cubes.keys() | reading.tracks.keys() | reading.figures.keys()
                | reading.items.keys())
        held = {n for n in self._occluded
                if n in read and n not in reading.occluded
                and not self._settler.steady(n, reading.t)}
        # a region read with low confidence (something unknown on it) is as good as hidden:
        # the reconciler must not compare what was committed before with it. It is
        # reported apart from the hands (``unsure_source``): a hand's set changes at every
        # move, and a region left uncertain for long in the same set would make each move
        # look like a hand that has only just come (the reconciler waits for stillness).
        # A region read uncertain under no hand is in that set until it has settled
        unsure = frozenset((reading.uncertain | (held & self._unsure)) - reading.occluded)
        hands = frozenset((reading.occluded | held) - unsure)
        occluded = hands | unsure
        if (hands != self._hands and not hands) or (unsure != self._unsure and not unsure):
            self._emit_commits(commits)
            commits = []
        if hands != self._hands:
            self._hands = hands
            self._emit(Occluded(self.name, frame.t, _regions(hands)))
        if unsure != self._unsure:
            self._unsure = unsure
            self._emit(Occluded(self.unsure_source, frame.t, _regions(unsure),
                                uncertain=True))
        self._occluded = occluded
        self._emit_commits(commits)
        self._health()
        return True

    def _emit_commits(self, commits: list[Commit]) -> None:
        for commit in commits:
            if self.state == CALIBRATED:
                self._change_state(STREAMING)
            if commit.kind == "cubes":
                self._emit(CubeCounts(self.name, commit.t, commit.name, dict(commit.value)))
            elif commit.kind == "figures":
                self._emit(FigureCounts(self.name, commit.t, commit.name, dict(commit.value)))
            elif commit.kind == "items":
                self._emit(ItemCounts(self.name, commit.t, commit.name, dict(commit.value)))
            else:
                for colour, cell in sorted(commit.value.items()):
                    if commit.name == "prestige":
                        cell = self.prestige.score(colour, cell)
                    self._emit(MarkerCell(self.name, commit.t, commit.name, colour, cell))

    def _change_state(self, state: CameraState, why: str = "") -> None:
        """The one way the state changes: logged, and a Health observation sent at once."""
        if state != self.state:
            log.log(logging.WARNING if state is LOST else logging.INFO, "%s: %s -> %s%s",
                    self.name, self.state, state, f" ({why})" if why else "")
            self.state = state
            self._health(force=True)

    def _health(self, force: bool = False) -> None:
        now = self.clock()
        if force or now - self._last_health >= self.health_every_s:
            self._last_health = now
            self._emit(self.health())

    def _fps(self) -> float:
        now = self.clock()
        self._frames = [t for t in self._frames if now - t <= 5.0]
        if len(self._frames) < 2:
            return 0.0
        span = self._frames[-1] - self._frames[0]
        return (len(self._frames) - 1) / span if span > 0 else 0.0

    def _release(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            finally:
                self._source = None

    # -- for the tablet -----------------------------------------------------------------
    def last_frame(self) -> np.ndarray | None:
        """The last frame read (BGR), or None before the first one."""
        with self._lock:
            return self._frame

    def crop(self, region: str, margin_mm: float = 15.0) -> np.ndarray | None:
        """The last frame cut around a region (``space:market``, ``time:red``), or None if
        there is no frame or the region's board is not in view."""
        with self._lock:
            frame, boards = self._frame, self._boards
        if frame is None:
            return None
        for board in self.calibration.layout.boards.values():
            rects = [r.rect for r in board.regions if r.name == region]
            hom = boards.get(board.name)
            if not rects or hom is None:
                continue
            x0 = min(r[0] for r in rects) - margin_mm
            y0 = min(r[1] for r in rects) - margin_mm
            x1 = max(r[2] for r in rects) + margin_mm
            y1 = max(r[3] for r in rects) + margin_mm
            pts = project(hom, np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32),
                          self.calibration.lens)
            h, w = frame.shape[:2]
            a0, b0 = np.clip(pts.min(axis=0).astype(int), 0, [w, h])
            a1, b1 = np.clip(np.ceil(pts.max(axis=0)).astype(int), 0, [w, h])
            if a1 <= a0 or b1 <= b0:
                return None
            return frame[b0:b1, a0:a1].copy()
        return None

    def crop_png(self, region: str) -> bytes | None:
        """``crop`` as PNG bytes."""
        img = self.crop(region)
        if img is None:
            return None
        ok, buf = cv2.imencode(".png", img)
        return buf.tobytes() if ok else None


def unplaced_farms(boards: dict[str, bool], refused: dict[str, str]) -> dict[str, str]:
    """The farms a reading did not place, by colour, with why: the fit refused (its
    words) or its marker not seen at all (out of the camera's view, covered, or too
    blurred to decode)."""
    prefix = "farm:"
    return {name[len(prefix):]: refused.get(name) or "its marker is not seen"
            for name, found in boards.items() if name.startswith(prefix) and not found}


def camera_adapter(spec: str, emit: Emit, calibration_file: str | None = None,
                   name: str | None = None, settle_s: float = 0.6) -> CameraAdapter:
    """The adapter for a command-line camera spec (``0``, ``/dev/video0``, ``picamera``, a
    video file, a folder, ``sim``) with the calibration saved at ``calibration_file``
    (``<db>.camera.json``; the shipped layout if there is none yet).

    Raises vision.calibration.CalibrationError for a calibration file that is not one; a
    camera that is not there is not an error (the adapter waits for it).
    """
    from pathlib import Path

    from vision.calibration import load
    from vision.sources import open_source

    calibration = load(Path(calibration_file)) if calibration_file else default()

    def make() -> Source:
        try:
            return open_source(spec)
        except SourceError:
            return _Missing(spec)

    return CameraAdapter(make, emit, name or f"camera:{spec}", calibration, settle_s=settle_s)


class _Missing:
    """A source that is not there (yet): opening it fails, so the adapter retries."""

    def __init__(self, spec: str) -> None:
        self.name = f"camera:{spec}"
        self.spec = spec

    def open(self) -> None:
        raise SourceError(f"no camera, file or folder {self.spec!r}")

    def read(self) -> None:
        return None

    def close(self) -> None:
        return None
