"""From a frame to a reading: cubes per region, a cell per marker per track, figures per
zone, and what a hand hides.

``BoardReader.read(frame, t)`` follows the boards (``geometry``), then samples only the
pixels that matter — the cube regions at 1 mm, 12×12 points per track cell, the figure
zones at 2 mm and a coarse 4 mm grid of every board for hands and motion — with one
``cv2.remap`` through sampling maps rebuilt only when a homography changes. A region whose
coarse pixels have not changed since it was last read keeps that reading (everything is
re-read every ``REFRESH`` frames and when the light changes). ``docs/vision.md`` explains
each step.

Hands: the coarse grid is compared with the empty board (the calibration's reference or,
uncalibrated, the layout's printed colours) after a board-wide white balance. A blob of
difference that reaches the board's edge (an arm comes from outside) or is larger than
any piece is a hand; regions under it, dilated, are occluded and not read. Motion: the
coarse grid against the previous frame's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from .colour import (
    L_WEIGHT,
    UNKNOWN,
    apply_gain,
    balance,
    gains,
    lut,
    lut_index,
    palette_lab,
    to_lab,
)
from .geometry import Geometry, MarkerTracker, project
from .layout import CUBE_COLOURS, FAMILY_COLOURS, ITEM_NAMES, MONK, Board, Layout, Region
from .lens import Lens

CUBE_STEP = 1.0  # mm between samples in a cube region
TRACK_GRID = 12  # samples per side of a track cell
COARSE_STEP = 4.0  # mm between samples of the hand / motion grid
HAND_EDGE_MM2 = 500.0  # a difference blob touching the board edge and at least this big
HAND_ANY_MM2 = 2500.0  # any difference blob at least this big
HAND_MARGIN_MM = 12.0
# brighter than the empty board by this much: something lies there (a shadow only darkens;
# a pale hand over a pale space differs from it in little else)
BRIGHTER = 1.12
MOTION_LEVEL = 28.0
ZONE_STEP = 2.0  # mm between samples in a figure zone
ITEM_STEP = 1.5  # mm between samples in an item region (grain, coins, goods tiles)
STEPS = {"cubes": CUBE_STEP, "zone": ZONE_STEP, "items": ITEM_STEP}  # sampled regions
FIGURE_MM2 = 150.0  # a standing figure seen from above (body and head), mm² (rough)
FIGURE_COLOURS = (*FAMILY_COLOURS, MONK)  # figures counted by colour; black: the monks
SATURATED = 245  # every channel at least this: the camera clipped a white
WHITE = 246
CHANGE_LEVEL = 30.0  # coarse change (0–255) that makes a region be read again
REFRESH = 30  # frames between two full readings of a steady table
SIDE_SHADE = 0.62  # a cube's side against its top, lit from above
AREA_FACTOR = 1.3  # a cube seen from above covers ~1.3 top faces (its sides show)
ROUND_UP = 0.4  # a component of x cube areas counts max(1, floor(x + ROUND_UP)) cubes
# With an empty-board model (``calibrate empty``): a sample is the board when each channel
# lies within BOARD_TOL of the empty board (its 3×3 neighbourhood, for a pixel of
# misregistration) under this frame's light; a shadow is the board darkened evenly.
BOARD_TOL = 22.0
SHADOW_MAX, SHADOW_MIN, SHADOW_SPREAD = 0.93, 0.22, 1.45
MINOR_CUBE = 0.45  # a colour covering less of a blob than this many cubes is not a cube
UNCERTAIN_BELOW = 0.5  # a cube reading whose confidence is lower is "uncertain"


def _max3(a: np.ndarray) -> np.ndarray:
    """The largest of the three channels (…×3): numpy's ``max(axis=-1)`` over an axis of
    three is several times slower than two ``maximum`` calls."""
    out: np.ndarray = np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])
    return out


def _min3(a: np.ndarray) -> np.ndarray:
    out: np.ndarray = np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])
    return out


_LUTS: dict[object, np.ndarray] = {}  # colour tables shared by readers of the same colours


@dataclass
class Reading:
    """What one frame shows. Region and track names are the sensing vocabulary."""

    t: float
    boards: dict[str, bool] = field(default_factory=dict)
    occluded: set[str] = field(default_factory=set)
    moving: set[str] = field(default_factory=set)
    cubes: dict[str, dict[str, int]] = field(default_factory=dict)
    tracks: dict[str, dict[str, int]] = field(default_factory=dict)
    figures: dict[str, dict[str, int]] = field(default_factory=dict)  # zone -> colour -> n
    items: dict[str, dict[str, int]] = field(default_factory=dict)  # goods:<c> -> item -> n
    confidence: dict[str, float] = field(default_factory=dict)
    hidden_markers: set[int] = field(default_factory=set)
    lens_calibrated: bool = False  # False: geometry as if the lens did not distort
    fit_px: dict[str, float] = field(default_factory=dict)  # board -> marker fit error, px
    uncertain: set[str] = field(default_factory=set)  # read, but not surely: no number given
    refused: dict[str, str] = field(default_factory=dict)  # board -> why it is not placed

    @property
    def board_found(self) -> bool:
        return self.boards.get("main", False)

    def to_json(self) -> dict[str, Any]:
        """The ``read-board --json`` form."""
        conf = list(self.confidence.values())
        return {
            "board_found": self.board_found,
            "boards": dict(sorted(self.boards.items())),
            "occluded": sorted(self.occluded),
            "moving": sorted(self.moving),
            "spaces": {r[6:]: v for r, v in sorted(self.cubes.items())
                       if r.startswith("space:")},
            "supplies": {r[7:]: v for r, v in sorted(self.cubes.items())
                         if r.startswith("supply:")},
            "tracks": dict(sorted(self.tracks.items())),
            "figures": {z: v for z, v in sorted(self.figures.items()) if v},
            "items": dict(sorted(self.items.items())),
            "confidence": round(float(min(conf)) if conf else 0.0, 3),
            "uncertain": sorted(self.uncertain),
            "lens_calibrated": self.lens_calibrated,
            "fit_px": dict(sorted(self.fit_px.items())),
            "refused": dict(sorted(self.refused.items())),
        }


@dataclass
class _Plan:
    """Where to sample in the frame, rebuilt when the geometry changes."""

    version: int
    map1: np.ndarray
    map2: np.ndarray
    slices: dict[tuple[str, str], tuple[int, int, tuple[int, int]]]  # (board, key)


def _cell_grid(rect: tuple[float, float, float, float], n: int) -> np.ndarray:
    """n×n points spread evenly over a rectangle (every track cell gets the same count)."""
    x0, y0, x1, y1 = rect
    xs = x0 + (np.arange(n, dtype=np.float32) + 0.5) * (x1 - x0) / n
    ys = y0 + (np.arange(n, dtype=np.float32) + 0.5) * (y1 - y0) / n
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx, gy], axis=-1)


def _white_ring(board: Board, out_mm: float = 1.8, per_side: int = 6) -> np.ndarray:
    """Points on the white paper around each marker of a board (its printed quiet zone is
    5 mm wide): a white reference for the light's colour, as an n×1×2 grid."""
    pts: list[tuple[float, float]] = []
    s = board.marker_mm
    for x, y in board.markers.values():
        for k in range(per_side):
            f = (k + 0.5) / per_side * (s + 2 * out_mm) - out_mm
            pts += [(x + f, y - out_mm), (x + f, y + s + out_mm),
                    (x - out_mm, y + f), (x + s + out_mm, y + f)]
    return np.array(pts, np.float32).reshape(-1, 1, 2)


def _grid(rect: tuple[float, float, float, float], step: float) -> np.ndarray:
    x0, y0, x1, y1 = rect
    xs = np.arange(x0 + step / 2, x1, step, dtype=np.float32)
    ys = np.arange(y0 + step / 2, y1, step, dtype=np.float32)
    gx, gy = np.meshgrid(xs, ys)
    return np.stack([gx, gy], axis=-1)


def count_blobs(labels: np.ndarray, names: tuple[str, ...], one: list[float],
                speck: float = 0.35, minor: float = 0.45) -> dict[str, int]:
    """Pieces of ``names`` in a grid of labels (0 the board, i+1 ``names[i]``, anything
    else unknown): what is not the board is grouped into blobs (a rim, an emblem or an edge
    of another colour stays within its piece); a blob's kinds are those covering, inside
    its rim, at least ``minor`` of one piece of theirs (else its largest), sharing the
    blob's area, each
    counting its share over one piece's area ``one[i]`` (in samples), at least one. A
    blob smaller than ``speck`` of a piece is noise."""
    k3 = np.ones((3, 3), np.uint8)
    fg = cv2.morphologyEx((labels != 0).astype(np.uint8), cv2.MORPH_OPEN, k3)
    k, lab, stats, _c = cv2.connectedComponentsWithStats(fg, connectivity=8)
    # a blob's kinds are voted by its inside: its rim mixes its colour with the board's
    inner = cv2.erode(fg, k3) > 0
    out: dict[str, int] = {}
    for i in range(1, k):
        total = float(stats[i, cv2.CC_STAT_AREA])
        here = lab == i
        votes = labels[here & inner]
        frac = votes.size / total  # the inside's share of the blob (of each piece in it)
        if not votes.size:
            votes, frac = labels[here], 1.0
        per = np.bincount(votes, minlength=len(names) + 1)[1:len(names) + 1]
        if not per.any():
            continue  # nothing of a known kind: not a piece
        major = [j for j in range(len(names)) if per[j] >= minor * one[j] * frac]
        if not major:
            major = [int(per.argmax())]
            if total < speck * one[major[0]]:
                continue
        share = float(per[major].sum())
        for j in major:
            x = total * float(per[j]) / share / one[j]
            out[names[j]] = out.get(names[j], 0) + max(1, int(np.floor(x + ROUND_UP)))
    return out


class BoardReader:
    """Reads frames of one table with one layout (and optional calibration)."""

    def __init__(self, layout: Layout, references: dict[str, np.ndarray] | None = None,
                 area_factor: float = AREA_FACTOR, tracker: MarkerTracker | None = None,
                 lens: Lens | None = None,
                 cube_refs: dict[str, np.ndarray] | None = None) -> None:
        self.layout = layout
        self.tracker = tracker or MarkerTracker(layout, lens=lens)
        self.area_factor = area_factor
        self.cube_lab = palette_lab(layout.cube_rgb, CUBE_COLOURS)
        self.marker_lab = palette_lab(layout.marker_rgb, FAMILY_COLOURS)
        self.figure_lab = np.concatenate([self.marker_lab, to_lab([layout.monk_rgb])])
        self.item_lab = palette_lab(layout.item_rgb, ITEM_NAMES)
        self.side_lab = to_lab([[int(v * SIDE_SHADE) for v in layout.cube_rgb[c]]
                                for c in CUBE_COLOURS])
        # the empty board under each cube region ("main/space:harvest"): float BGR, and its
        # 3×3 darkest and lightest, for a pixel of misregistration
        self._empty: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        for key, img in (cube_refs or {}).items():
            ref = img.astype(np.float32)
            k3 = np.ones((3, 3), np.uint8)
            self._empty[key] = (ref.reshape(-1, 3) + 1.0,
                                cv2.erode(ref, k3).reshape(-1, 3),
                                cv2.dilate(ref, k3).reshape(-1, 3))
        self.references = {n: references[n] if references and n in references
                           else self.printed_reference(b) for n, b in layout.boards.items()}
        self._captured = set(references or {}) & set(layout.boards)
        self._ignore = {n: self._marker_mask(b) for n, b in layout.boards.items()}
        self._tracks = {n: self._track_mask(b) for n, b in layout.boards.items()}
        # which colours are a track marker's (a disc on its track is not a hand)
        self._is_disc = lut(self.marker_lab, max_dist=20.0, l_weight=0.5) != UNKNOWN
        self._consts: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                      np.ndarray]] = {}
        self._plan: _Plan | None = None
        self._cube_areas: dict[tuple[str, str], tuple[float, float]] = {}
        self._previous: dict[str, np.ndarray] = {}
        # Regions whose coarse pixels have not changed since they were last read keep that
        # reading (a steady table costs little); everything is re-read every REFRESH frames.
        self._snap: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # board -> (coarse, gain)
        self._cache: dict[tuple[str, str], tuple[Any, float]] = {}
        self._changed: dict[str, np.ndarray | None] = {}
        self._frame_no = 0
        self._white: dict[str, np.ndarray] = {}  # board -> gain making its markers' paper white
        self.regions_read = 0  # cube regions and track boards actually read (not reused)
        self._luts: dict[tuple[str, tuple[int, int, int] | None, tuple[int, ...]], np.ndarray] = {}
        self.cube_area = (layout.cube_mm / CUBE_STEP) ** 2 * area_factor
        self.disc_mm2 = float(np.pi * (layout.disc_mm / 2) ** 2)

    # -- references -------------------------------------------------------------------
    @staticmethod
    def printed_reference(board: Board) -> np.ndarray:
        """The coarse grid of the empty board from the layout's printed colours (BGR)."""
        g = _grid((0, 0, *board.size_mm), COARSE_STEP)
        ref = np.empty((*g.shape[:2], 3), np.uint8)
        ref[:] = board.print_rgb[::-1]
        for r in board.regions:
            x0, y0, x1, y1 = r.rect
            inside = (g[..., 0] >= x0) & (g[..., 0] < x1) & (g[..., 1] >= y0) & (g[..., 1] < y1)
            ref[inside] = r.print_rgb[::-1]
        return ref

    def _coarse_consts(self, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                  np.ndarray, np.ndarray]:
        """Per board, computed once: 1/reference, the cells to compare (not markers, not
        the outer ring when the reference is the printed colours: that ring mixes board
        and table when blurred; a reference the camera captured has the same mixture, so
        an arm crossing a board's edge is seen there), the cells sampled for the white
        balance, and the track cells (rows, columns)."""
        hit = self._consts.get(name)
        if hit is None:
            ref = self.references[name].astype(np.float32) + 1.0
            keep = ~self._ignore[name]
            if name not in self._captured:
                keep[0, :] = keep[-1, :] = keep[:, 0] = keep[:, -1] = False
            sample = np.flatnonzero((~self._ignore[name]).ravel())[::3]
            rows, cols = np.nonzero(self._tracks[name])
            hit = (1.0 / ref, keep, sample, rows, cols)
            self._consts[name] = hit
        return hit

    @staticmethod
    def _track_mask(board: Board) -> np.ndarray:
        g = _grid((0, 0, *board.size_mm), COARSE_STEP)
        mask = np.zeros(g.shape[:2], bool)
        for r in board.regions:
            if r.kind == "track":
                x0, y0, x1, y1 = r.rect
                mask |= ((g[..., 0] >= x0) & (g[..., 0] < x1)
                         & (g[..., 1] >= y0) & (g[..., 1] < y1))
        return mask

    @staticmethod
    def _marker_mask(board: Board) -> np.ndarray:
        g = _grid((0, 0, *board.size_mm), COARSE_STEP)
        mask = np.zeros(g.shape[:2], bool)
        for x, y in board.markers.values():
            m = 6.0
            s = board.marker_mm
            mask |= ((g[..., 0] >= x - m) & (g[..., 0] < x + s + m)
                     & (g[..., 1] >= y - m) & (g[..., 1] < y + s + m))
        return mask

    # -- sampling ----------------------------------------------------------------------
    def _build_plan(self, geometry: Geometry) -> _Plan:
        chunks: list[np.ndarray] = []
        slices: dict[tuple[str, str], tuple[int, int, tuple[int, int]]] = {}
        at = 0
        for name, hom in geometry.boards.items():
            board = self.layout.boards[name]
            parts: list[tuple[str, np.ndarray]] = [
                ("#coarse", _grid((0, 0, *board.size_mm), COARSE_STEP)),
                ("#white", _white_ring(board))]
            for r in board.regions:
                if r.kind == "cubes":
                    parts.append((r.key, _grid(r.rect, CUBE_STEP)))
                elif r.kind == "track":
                    parts.append((r.key, _cell_grid(r.rect, TRACK_GRID)))
                elif r.kind in ("zone", "items"):
                    parts.append((r.key, _grid(r.rect, STEPS[r.kind])))
            for key, g in parts:
                pts = project(hom, g.reshape(-1, 2), self.tracker.lens)
                chunks.append(pts)
                slices[(name, key)] = (at, at + len(pts), g.shape[:2])
                at += len(pts)
        pts_all = (np.concatenate(chunks) if chunks else np.zeros((0, 2), np.float32))
        width = 1024  # remap refuses rows longer than 32767: fold the list into rows
        pad = (-len(pts_all)) % width
        pts_all = np.concatenate([pts_all, np.full((pad, 2), -10.0, np.float32)])
        m = pts_all.reshape(-1, width, 2).astype(np.float32)
        map1, map2 = cv2.convertMaps(m, None, cv2.CV_16SC2)  # type: ignore[call-overload]
        self._cube_areas = self._apparent_cube_areas(geometry)
        return _Plan(geometry.version, map1, map2, slices)

    def _apparent_cube_areas(self, geometry: Geometry
                             ) -> dict[tuple[str, str], tuple[float, float]]:
        """With a lens, the area (samples) one cube covers in each cube region as the camera
        sees it, as (top, sides): the sides that face the camera grow with the distance
        from the point under the camera (the camera's place comes from the board's pose).
        Without a lens the pose is unknown: ``cube_area`` (``area_factor`` top faces)."""
        lens = self.tracker.lens
        out: dict[tuple[str, str], tuple[float, float]] = {}
        if lens is None:
            return out
        s = self.layout.cube_mm
        for name, hom in geometry.boards.items():
            m = np.linalg.inv(lens.k) @ hom
            scale = (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1])) / 2
            r1, r2, t = m[:, 0] / scale, m[:, 1] / scale, m[:, 2] / scale
            if t[2] < 0:
                r1, r2, t = -r1, -r2, -t
            rot = np.column_stack([r1, r2, np.cross(r1, r2)])
            eye = -rot.T @ t  # the camera in board mm (z: its height, sign by convention)
            height = abs(float(eye[2]))
            if height <= 2 * s:
                continue
            for r in self.layout.boards[name].regions:
                if r.kind != "cubes":
                    continue
                cx, cy = (r.rect[0] + r.rect[2]) / 2, (r.rect[1] + r.rect[3]) / 2
                shift = float(np.hypot(cx - eye[0], cy - eye[1])) * s / (height - s)
                top = s * s * (height / (height - s)) ** 2
                # sides: on average over the cube's turn, 4/π of one side's length shows
                out[(name, r.key)] = (top / CUBE_STEP ** 2,
                                      s * shift * 4 / np.pi / CUBE_STEP ** 2)
        return out

    # -- reading -----------------------------------------------------------------------
    def read(self, frame: np.ndarray, t: float = 0.0) -> Reading:
        """Read one BGR frame taken at monotonic time ``t``."""
        geometry = self.tracker.update(frame)
        reading = Reading(t=t, hidden_markers=set(geometry.hidden),
                          lens_calibrated=self.tracker.lens is not None,
                          fit_px=dict(geometry.errors), refused=dict(geometry.refused))
        for name in self.layout.boards:
            reading.boards[name] = name in geometry.boards
        if self._plan is None or self._plan.version != geometry.version:
            self._plan = self._build_plan(geometry) if geometry.boards else None
            self._previous.clear()
            self._snap.clear()
            self._cache.clear()
        self._frame_no += 1
        for name, board in self.layout.boards.items():
            if name not in geometry.boards:
                reading.occluded.update(self._names(board))
        plan = self._plan
        if plan is None or plan.map1.size == 0:
            return reading
        samples = cv2.remap(frame, plan.map1, plan.map2, cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)).reshape(-1, 3)
        for name in geometry.boards:
            board = self.layout.boards[name]
            a, b, shape = plan.slices[(name, "#coarse")]
            coarse = samples[a:b].reshape(*shape, 3)
            hand, moving, norm, gain = self._hands_and_motion(name, coarse)
            self._changed[name] = self._changes(name, norm, gain)
            any_hand, any_motion = bool(hand.any()), bool(moving.any())
            if any_hand or any_motion:
                for r in board.regions:
                    if r.kind not in ("cubes", "track", "zone", "items"):
                        continue
                    if any_hand and self._touches(r, hand):
                        reading.occluded.add(r.key)
                    if any_motion and self._touches(r, moving):
                        reading.moving.add(r.key)
            self._read_cubes(board, samples, plan, reading)
            self._read_tracks(board, samples, plan, reading)
            a, b, _shape = plan.slices[(name, "#white")]
            white = np.percentile(samples[a:b].reshape(-1, 3), 75, axis=0)
            self._white[name] = (WHITE / np.maximum(white, 8.0)).astype(np.float32)
            self._read_figures(board, samples, plan, reading)
            self._read_items(board, samples, plan, reading)
        # track cells are reported as their track
        reading.occluded = {k.partition("#")[0] for k in reading.occluded}
        reading.moving = {k.partition("#")[0] for k in reading.moving}
        return reading

    def _lut(self, what: str, bg: tuple[int, int, int] | None, idx: tuple[int, ...]
             ) -> np.ndarray:
        """The colour table for a background and prototypes (built once, then cached).
        Without a background (``bg`` None: the empty-board model says what is the board)
        index 0 is never given; prototypes lie farther, lightness counts less."""
        key = (what, bg, idx)
        table = self._luts.get(key)
        shared = (key, self.cube_lab.tobytes(), self.marker_lab.tobytes(),
                  self.figure_lab.tobytes(), self.item_lab.tobytes())
        if table is None:
            table = _LUTS.get(shared)
        if table is None:
            # cube tables also know the figures' colours, so a figure is not a cube
            # and the darker sides of cubes (seen at an angle) as the same colour
            protos = (np.concatenate([self.cube_lab, self.marker_lab, self.side_lab])
                      if what == "cubes" else self.figure_lab if what == "figures"
                      else self.item_lab if what == "items" else self.marker_lab[list(idx)])
            if bg is None:
                table = lut(protos, max_dist=60.0, l_weight=0.5)
                table[table != UNKNOWN] += 1
            else:
                # a white disc differs from a pale cell mostly in lightness: weigh it fully
                table = lut(np.concatenate([to_lab([bg]), protos]),
                            l_weight=L_WEIGHT if what == "cubes" else 0.9)
            if what == "cubes":
                side = (table >= 10) & (table <= 14)
                table[side] -= 9
            if len(_LUTS) > 256:
                _LUTS.clear()
            _LUTS[shared] = table
        self._luts[key] = table
        return table

    @staticmethod
    def _names(board: Board) -> set[str]:
        return {r.name for r in board.regions if r.kind in ("cubes", "track", "zone", "items")}

    def _hands_and_motion(self, name: str, coarse: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        inv_ref, keep, sample, track_rows, track_cols = self._coarse_consts(name)
        cur = coarse.astype(np.float32)
        cur += 1.0
        ratio = cur * inv_ref
        gain = np.median(ratio.reshape(-1, 3)[sample], axis=0)
        ratio *= 1.0 / gain
        lum = ratio[..., 0] + ratio[..., 1] + ratio[..., 2]
        lum *= 1 / 3
        chroma = _max3(np.abs(ratio / lum[..., None] - 1.0))
        diff = (chroma > 0.09) | (lum < 0.45) | (lum > 1.7) | ((lum > BRIGHTER) & (chroma > 0.04))
        diff &= keep
        norm = cur / gain
        if len(track_rows):  # discs on their track: several on one cell must not look like a hand
            cells = np.clip(norm[track_rows, track_cols] - 1.0, 0, 255).astype(np.uint8)
            disc = self._is_disc[lut_index(cells)]
            diff[track_rows[disc], track_cols[disc]] = False
        hand = self._hand_blobs(diff)
        margin = max(1, round(HAND_MARGIN_MM / COARSE_STEP))
        if hand.any():
            hand = cv2.dilate(hand.astype(np.uint8), np.ones((2 * margin + 1,) * 2, np.uint8)) > 0
        prev = self._previous.get(name)
        self._previous[name] = norm
        if prev is None:
            moving = np.zeros(hand.shape, bool)
        else:
            moving = _max3(np.abs(norm - prev)) > MOTION_LEVEL
            moving &= keep
            if moving.any():
                moving = cv2.dilate(moving.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        return hand, moving, norm, gain

    def _changes(self, name: str, norm: np.ndarray, gain: np.ndarray) -> np.ndarray | None:
        """Where the board changed since its regions were last read; None = read all."""
        snap = self._snap.get(name)
        if (snap is None or self._frame_no % REFRESH == 0
                or float(np.abs(gain / snap[1] - 1).max()) > 0.05):
            self._snap[name] = (norm.copy(), gain)
            return None
        changed: np.ndarray = _max3(np.abs(norm - snap[0])) > CHANGE_LEVEL
        if changed.any():
            changed = cv2.dilate(changed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        return changed

    def _reuse(self, board: str, key: str, regions: list[Region]) -> tuple[Any, float] | None:
        """The cached reading of a region if nothing changed in it; else None."""
        changed = self._changed.get(board)
        hit = self._cache.get((board, key))
        if changed is None or hit is None:
            return None
        if changed.any() and any(self._touches(r, changed) for r in regions):
            return None
        return hit

    def _remember(self, board: str, key: str, regions: list[Region], value: Any,
                  conf: float) -> None:
        self._cache[(board, key)] = (value, conf)
        snap = self._snap.get(board)
        prev = self._previous.get(board)
        if snap is None or prev is None:
            return
        for r in regions:
            x0, y0, x1, y1 = r.rect
            c0, r0 = int(x0 // COARSE_STEP), int(y0 // COARSE_STEP)
            c1, r1 = int(np.ceil(x1 / COARSE_STEP)), int(np.ceil(y1 / COARSE_STEP))
            snap[0][r0:r1, c0:c1] = prev[r0:r1, c0:c1]

    @staticmethod
    def _hand_blobs(diff: np.ndarray) -> np.ndarray:
        n, labels, stats, _ = cv2.connectedComponentsWithStats(  # type: ignore[call-overload]
            diff.astype(np.uint8), 8)
        hand = np.zeros(diff.shape, bool)
        h, w = diff.shape
        cell = COARSE_STEP * COARSE_STEP
        for i in range(1, n):
            x, y, bw, bh, area = stats[i]
            edge = x <= 1 or y <= 1 or x + bw >= w - 1 or y + bh >= h - 1
            mm2 = area * cell
            if (edge and mm2 >= HAND_EDGE_MM2) or mm2 >= HAND_ANY_MM2:
                hand |= labels == i
        return hand

    @staticmethod
    def _touches(region: Region, mask: np.ndarray) -> bool:
        x0, y0, x1, y1 = region.rect
        c0, r0 = int(x0 // COARSE_STEP), int(y0 // COARSE_STEP)
        c1, r1 = int(np.ceil(x1 / COARSE_STEP)), int(np.ceil(y1 / COARSE_STEP))
        return bool(mask[r0:r1, c0:c1].any())

    def _read_cubes(self, board: Board, samples: np.ndarray, plan: _Plan,
                    reading: Reading) -> None:
        kernel = np.ones((3, 3), np.uint8)
        for r in board.regions:
            if r.kind != "cubes" or r.key in reading.occluded:
                continue
            hit = self._reuse(board.name, r.key, [r])
            if hit is not None:
                reading.confidence[r.name] = hit[1]
                if hit[0] is None:
                    reading.uncertain.add(r.name)
                else:
                    reading.cubes[r.name] = dict(hit[0])
                continue
            self.regions_read += 1
            a, b, shape = plan.slices[(board.name, r.key)]
            ref = np.array(r.print_rgb[::-1], np.float32)
            px = balance(samples[a:b], ref)
            labels = self._lut("cubes", r.print_rgb, ())[lut_index(px)].reshape(shape)
            empty = self._empty.get(f"{board.name}/{r.key}")
            if empty is not None and empty[0].shape[0] == labels.size:
                self._read_against_empty(board.name, r, samples[a:b], labels, empty, reading)
                continue
            counts: dict[str, int] = {}
            misfit = 0.0
            for i, colour in enumerate(CUBE_COLOURS, start=1):
                mask = (labels == i).astype(np.uint8)
                if not mask.any():
                    continue
                mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
                _k, _lab, stats, _c = cv2.connectedComponentsWithStats(mask, connectivity=8)
                n = 0
                for area in stats[1:, cv2.CC_STAT_AREA]:
                    x = float(area) / self.cube_area
                    if x < 0.15:
                        continue  # a speck: noise or the side of another cube
                    m = max(1, int(np.floor(x + ROUND_UP)))
                    n += m
                    misfit = max(misfit, abs(x - m) / m if m > 1 else max(0.0, x - 1.4))
                if n:
                    counts[colour] = n
            unknown = float(np.count_nonzero(labels == UNKNOWN)) / labels.size
            reading.cubes[r.name] = counts
            reading.confidence[r.name] = round(max(0.0, 1.0 - 2 * misfit - 5 * unknown), 3)
            self._remember(board.name, r.key, [r], dict(counts), reading.confidence[r.name])

    def _read_against_empty(self, board: str, r: Region, raw: np.ndarray, labels: np.ndarray,
                            empty: tuple[np.ndarray, np.ndarray, np.ndarray],
                            reading: Reading) -> None:
        """Count the cubes of a region as what differs from its empty board.

        Samples that are the board (printed borders, artwork, titles) or the board in
        shadow are never a cube. What differs is grouped into blobs; each blob's colours
        are those covering at least ``MINOR_CUBE`` of a cube (a lit edge or a shaded side
        read as another colour belongs to its cube), and its area, shared among them,
        gives the count. A reading that fits badly is uncertain: no number is given.
        """
        ref, lo, hi = empty
        cur = raw.astype(np.float32) + 1.0
        ratio = cur / ref
        gain = np.median(ratio, axis=0)  # this frame's light against the empty board's
        lo_g = lo * gain - BOARD_TOL
        hi_g = hi * gain + BOARD_TOL
        inside = (cur >= lo_g) & (cur <= hi_g)
        board_like = inside[:, 0] & inside[:, 1] & inside[:, 2]
        rel = ratio / gain
        rmax, rmin = _max3(rel), _min3(rel)
        shadow = (rmax < SHADOW_MAX) & (rmin > SHADOW_MIN) & (rmax < SHADOW_SPREAD * rmin)
        piece = (~board_like & ~shadow).reshape(labels.shape)
        cube = piece & (labels >= 1) & (labels <= len(CUBE_COLOURS))
        cube = cv2.morphologyEx(cube.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        k, lab, stats, _c = cv2.connectedComponentsWithStats(cube, connectivity=8)
        counts: dict[str, int] = {}
        misfit = 0.0
        top, sides = self._cube_areas.get(
            (board, r.key), (self.cube_area / self.area_factor,
                             self.cube_area * (1 - 1 / self.area_factor)))
        area_one = top + sides
        # a colour is a cube of its own only if it covers more than the sides of a cube can
        # (the shaded side of an orange cube reads brown)
        minor = max(MINOR_CUBE * area_one, 1.2 * sides)
        for i in range(1, k):
            total = float(stats[i, cv2.CC_STAT_AREA])
            if total < 0.3 * area_one:
                continue  # a speck
            per = np.bincount(labels[lab == i], minlength=len(CUBE_COLOURS) + 1)
            per = per[1:len(CUBE_COLOURS) + 1].astype(np.float32)
            major = [j for j in range(len(CUBE_COLOURS)) if per[j] >= minor]
            if not major:
                major = [int(per.argmax())]
            share = float(per[major].sum())
            for j in major:
                x = total * float(per[j]) / share / area_one
                m = max(1, int(np.floor(x + ROUND_UP)))
                counts[CUBE_COLOURS[j]] = counts.get(CUBE_COLOURS[j], 0) + m
                misfit = max(misfit, abs(x - m) / m if m > 1 else max(0.0, x - 1.4, 0.6 - x))
        # something that is neither the board, a shadow nor a cube colour (a coin, a
        # figure, a sleeve): as much of it as half a cube makes the reading uncertain
        strange = (piece & ((labels == UNKNOWN) | (labels > len(CUBE_COLOURS)))).astype(np.uint8)
        strange = cv2.morphologyEx(strange, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        unknown = float(np.count_nonzero(strange)) / area_one
        conf = round(max(0.0, 1.0 - 2 * misfit - unknown), 3)
        reading.confidence[r.name] = conf
        if conf < UNCERTAIN_BELOW:
            reading.uncertain.add(r.name)
            self._remember(board, r.key, [r], None, conf)
        else:
            reading.cubes[r.name] = counts
            self._remember(board, r.key, [r], dict(counts), conf)

    def _differs(self, board: str, r: Region, raw: np.ndarray) -> np.ndarray | None:
        """With the empty-board model: True where a sample of region ``r`` is neither the
        board (its print, one pixel of misregistration allowed, under this frame's light)
        nor the board in shadow; None without the model."""
        empty = self._empty.get(f"{board}/{r.key}")
        if empty is None or empty[0].shape[0] != len(raw):
            return None
        ref, lo, hi = empty
        cur = raw.astype(np.float32) + 1.0
        ratio = cur / ref
        gain = np.median(ratio, axis=0)
        inside = (cur >= lo * gain - BOARD_TOL) & (cur <= hi * gain + BOARD_TOL)
        board_like = inside[:, 0] & inside[:, 1] & inside[:, 2]
        rel = ratio / gain
        rmax, rmin = _max3(rel), _min3(rel)
        shadow = (rmax < SHADOW_MAX) & (rmin > SHADOW_MIN) & (rmax < SHADOW_SPREAD * rmin)
        out: np.ndarray = ~board_like & ~shadow
        return out

    def _piece_labels(self, what: str, board: str, r: Region, raw: np.ndarray) -> np.ndarray:
        """Each sample's piece colour (``what``: figures or items; 0 the board).

        With the empty-board model, what differs from the board is classified under the
        light that makes the markers' white paper white (light-invariant, whatever colour
        the region is printed); without it, the region is balanced against its printed
        colour and the board is a colour among the others."""
        differs = self._differs(board, r, raw)
        gain = self._white.get(board)
        if differs is None or gain is None:
            px = balance(raw, np.array(r.print_rgb[::-1], np.float32))
            px[_min3(raw) >= SATURATED] = WHITE
            labels: np.ndarray = self._lut(what, r.print_rgb, ())[lut_index(px)]
            return labels
        px = apply_gain(raw, gain)
        labels = self._lut(what, None, ())[lut_index(px)]
        return np.where(differs, labels, 0)

    def _read_figures(self, board: Board, samples: np.ndarray, plan: _Plan,
                      reading: Reading) -> None:
        """Figures standing in each zone, by colour: the families' and the black monks' (a
        count, not who: the camera cannot tell two red figures apart). With the empty-board
        model only what differs from the board counts (printed ink is not a monk)."""
        one = [FIGURE_MM2 / ZONE_STEP ** 2] * len(FIGURE_COLOURS)
        for r in board.regions:
            if r.kind != "zone" or r.key in reading.occluded:
                continue
            hit = self._reuse(board.name, r.key, [r])
            if hit is not None:
                reading.figures[r.name] = dict(hit[0])
                continue
            a, b, shape = plan.slices[(board.name, r.key)]
            raw = samples[a:b]
            labels = self._piece_labels("figures", board.name, r, raw)
            found = count_blobs(labels.reshape(shape), FIGURE_COLOURS, one)
            reading.figures[r.name] = found
            self._remember(board.name, r.key, [r], dict(found), 1.0)

    def _read_items(self, board: Board, samples: np.ndarray, plan: _Plan,
                    reading: Reading) -> None:
        """Grain sacks, coins and goods tiles on a farm, by kind (``count_blobs`` over the
        item colours, balanced against the region's print). With the empty-board model
        only what differs from the board counts."""
        one = [self.layout.item_area_mm2(k) / ITEM_STEP ** 2 for k in ITEM_NAMES]
        for r in board.regions:
            if r.kind != "items" or r.key in reading.occluded:
                continue
            hit = self._reuse(board.name, r.key, [r])
            if hit is not None:
                reading.items[r.name] = dict(hit[0])
                continue
            a, b, shape = plan.slices[(board.name, r.key)]
            raw = samples[a:b]
            labels = self._piece_labels("items", board.name, r, raw)
            found = count_blobs(labels.reshape(shape), ITEM_NAMES, one)
            reading.items[r.name] = found
            self._remember(board.name, r.key, [r], dict(found), 1.0)

    def _read_tracks(self, board: Board, samples: np.ndarray, plan: _Plan,
                     reading: Reading) -> None:
        cells = [r for r in board.regions if r.kind == "track"]
        if not cells:
            return
        hidden = any(r.key in reading.occluded for r in cells)
        hit = None if hidden else self._reuse(board.name, "#tracks", cells)
        if hit is not None:
            for track, (cached, conf) in hit[0].items():
                reading.tracks[track] = dict(cached)
                reading.confidence[track] = conf
            return
        results: dict[str, tuple[dict[str, int], float]] = {}
        self.regions_read += 1
        # all cells of the board at once: (cells, samples, 3)
        px = np.stack([samples[plan.slices[(board.name, r.key)][0]:
                               plan.slices[(board.name, r.key)][1]] for r in cells])
        refs = np.array([r.print_rgb[::-1] for r in cells], np.float32)
        gain = gains(px, refs)
        bal = np.clip(px.astype(np.float32) * gain[:, None, :], 0, 255).astype(np.uint8)
        # a white disc the camera saturated is white, whatever the gain would make of it
        bal[_min3(px) >= SATURATED] = WHITE
        index = lut_index(bal)
        per_sample_mm2 = np.array([(r.rect[2] - r.rect[0]) * (r.rect[3] - r.rect[1])
                                   for r in cells], np.float32) / TRACK_GRID ** 2
        tracks = sorted({r.name for r in cells})
        for track in tracks:
            colours = ([track.partition(":")[2]] if track.startswith("time:")
                       else list(FAMILY_COLOURS))
            idx = tuple(FAMILY_COLOURS.index(c) for c in colours)
            rows = np.array([i for i, r in enumerate(cells) if r.name == track])
            counts = np.zeros((len(cells), len(colours)), np.float32)
            for bg in {cells[i].print_rgb for i in rows}:
                group = np.array([i for i in rows if cells[i].print_rgb == bg])
                labels = self._lut("markers", bg, idx)[index[group]]
                for j in range(len(colours)):
                    counts[group, j] = np.count_nonzero(labels == j + 1, axis=1)
            areas = {c: counts[:, j] * per_sample_mm2 / self.disc_mm2
                     for j, c in enumerate(colours)}
            found: dict[str, int] = {}
            top: list[float] = []
            for colour in colours:
                arr = areas[colour]
                i = int(arr.argmax())
                if arr[i] >= 0.3:
                    cell_no = cells[i].cell
                    found[colour] = -1 if cell_no is None else int(cell_no)
                    top.append(min(1.0, float(arr[i])))
            track_hidden = any(cells[i].key in reading.occluded for i in rows)
            if track_hidden:
                found = {c: v for c, v in found.items()
                         if not any(cells[i].key in reading.occluded and cells[i].cell == v
                                    for i in rows)}
                if len(found) < len(colours):
                    reading.occluded.add(track)
            if found or not track_hidden:
                reading.tracks[track] = found
                reading.confidence[track] = round(min(top or [1.0]), 3)
                results[track] = (dict(found), reading.confidence[track])
        if not hidden:
            self._remember(board.name, "#tracks", cells, results, 1.0)
