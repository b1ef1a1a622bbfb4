"""From a frame to a reading: cubes per region, a cell per marker per track, figures per
zone, and what a hand hides.

``BoardReader.read(frame, t)`` follows the boards (``geometry``), then samples only the
pixels that matter — the cube regions at 1 mm, 12×12 points per track cell, the figure
zones at 2 mm and a coarse 4 mm grid of every board for hands and motion — through
sampling maps rebuilt only when a homography changes (``Samples``: the coarse grids every
frame, a region's points only when it is read). A region whose coarse pixels have not
changed since it was last read keeps that reading, as do the first-player tokens
(everything is re-read every ``REFRESH`` frames and when the light changes).
``docs/vision.md`` explains each step.

Hands: the coarse grid is compared with the empty board (the calibration's reference or,
uncalibrated, the layout's printed colours) after a board-wide white balance. A blob of
difference that reaches the board's edge (an arm comes from outside) or is larger than
any piece is a hand; regions under it, dilated, are occluded and not read. Motion: the
coarse grid against the previous frame's.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from .colour import (
    L_WEIGHT,
    UNKNOWN,
    lut,
    lut_index,
    palette_lab,
    to_lab,
)
from .disc_beside_goods import is_disc_and_goods
from .disc_edge import cell_boxes, is_disc_blur
from .geometry import Geometry, MarkerTracker, project
from .goods_blob import goods_boxes, is_goods
from .layout import CUBE_COLOURS, FAMILY_COLOURS, ITEM_NAMES, Board, Layout, Region
from .lens import Lens
from .marker_white import MarkerWhites
from .read_parts import (
    _LUTS,
    AREA_FACTOR,
    BRIGHTER,
    CHANGE_LEVEL,
    COARSE_STEP,
    CUBE_STEP,
    FILL_SHARE,
    FOLD,
    HAND_ANY_MM2,
    HAND_EDGE_MM2,
    HAND_FILL,
    HAND_MARGIN_MM,
    MOTION_LEVEL,
    NOISE_K,
    REFRESH,
    SIDE_SHADE,
    STEPS,
    TRACK_GRID,
    Reading,
    Samples,
    Whites,
    _cell_grid,
    _grid,
    _max3,
    _Plan,
    _white_ring,
    count_blobs,
    fold_maps,
    median0,
    per_channel,
)
from .read_pieces import PieceReading
from .read_token import TRACK as TOKEN_TRACK
from .read_token import TokenReader

__all__ = ["BoardReader", "Reading", "count_blobs"]


class BoardReader(PieceReading):
    """Reads frames of one table with one layout (and optional calibration)."""

    def __init__(self, layout: Layout, references: dict[str, np.ndarray] | None = None,
                 area_factor: float = AREA_FACTOR, tracker: MarkerTracker | None = None,
                 lens: Lens | None = None,
                 cube_refs: dict[str, np.ndarray] | None = None,
                 cube_scale: dict[str, float] | None = None) -> None:
        self.layout = layout
        self.cube_scale = dict(cube_scale or {})  # colour -> apparent area (calibrate cubes)
        self.tracker = tracker or MarkerTracker(layout, lens=lens)
        self.tokens = TokenReader(layout)  # the first-player tokens (vision/read_token.py)
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
        # boards the empty-board model holds: a board left out of it while others are in is
        # held back (its printed borders would pass for cubes under the older rule)
        self._modelled = {k.partition("/")[0] for k in self._empty}
        self.references = {n: references[n] if references and n in references
                           else self.printed_reference(b) for n, b in layout.boards.items()}
        self._captured = set(references or {}) & set(layout.boards)
        self._ignore = {n: self._marker_mask(b) | TokenReader.hand_mask(b)
                        for n, b in layout.boards.items()}
        self._tracks = {n: self._track_mask(b) for n, b in layout.boards.items()}
        self._track_keys = {r.key for b in layout.boards.values() for r in b.regions
                            if r.kind == "track"}
        # which colours are a track marker's (a disc on its track is not a hand)
        self._is_disc = lut(self.marker_lab, max_dist=20.0, l_weight=0.5) != UNKNOWN
        self._cell_boxes: dict[str, list[tuple[int, int, int, int, int, int]]] = {}
        self._goods_boxes: dict[str, list[tuple[int, int, int, int]]] = {}
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
        self._changed_any: dict[str, bool] = {}
        # (board, grid rows, columns) -> its regions' boxes on the coarse grid (4×n)
        self._boxes: dict[tuple[str, int, int], np.ndarray] = {}
        self._frame_no = 0
        # board -> gain making its markers' paper white: as its white ring shows it (the
        # cubes', tracks', figures' and tokens' rules were set under it), and as the
        # markers' prints fitted through the blur show it (items: their colours are the
        # layout's, known beforehand)
        self._white = Whites()
        self._paper = Whites()
        self._marker_whites = MarkerWhites()
        # board -> this frame's light against the empty board's over most of the board
        # (its median level): a cube region darker than that lies in a shadow
        self._light: dict[str, float] = {}
        self._board_light: dict[str, np.ndarray] = {}  # the same, per channel (BGR)
        self._token: tuple[frozenset[str], dict[str, int] | None] | None = None
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
        """The sampling maps: every board's coarse grid and white ring first (the head,
        read every frame), then the regions, each with its own maps too."""
        head: list[tuple[str, str, np.ndarray]] = []
        rest: list[tuple[str, str, np.ndarray]] = []
        for name in geometry.boards:
            board = self.layout.boards[name]
            head += [(name, "#coarse", _grid((0, 0, *board.size_mm), COARSE_STEP)),
                     (name, "#white", _white_ring(board))]
            for r in board.regions:
                if r.kind == "cubes":
                    rest.append((name, r.key, _grid(r.rect, CUBE_STEP)))
                elif r.kind == "track":
                    rest.append((name, r.key, _cell_grid(r.rect, TRACK_GRID)))
                elif r.kind in ("zone", "items"):
                    rest.append((name, r.key, _grid(r.rect, STEPS[r.kind])))
        chunks: list[np.ndarray] = []
        slices: dict[tuple[str, str], tuple[int, int, tuple[int, int]]] = {}
        parts: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
        at = 0
        head_rows = 0
        for group in (head, rest):
            for name, key, g in group:
                pts = project(geometry.boards[name], g.reshape(-1, 2), self.tracker.lens)
                chunks.append(pts)
                slices[(name, key)] = (at, at + len(pts), g.shape[:2])
                if group is rest:
                    parts[(at, at + len(pts))] = fold_maps(pts)
                at += len(pts)
            if group is head:  # the regions start on a row of their own
                pad = (-at) % FOLD
                chunks.append(np.full((pad, 2), -10.0, np.float32))
                at += pad
                head_rows = at // FOLD
        pts_all = (np.concatenate(chunks) if chunks else np.zeros((0, 2), np.float32))
        for name in geometry.boards:
            # a board's track cells, read together, are remapped together too (one remap
            # for the dozens of cells of a farm's time track, not one a cell)
            spans = [plan for (board, key), plan in slices.items()
                     if board == name and key in self._track_keys]
            if spans:
                a0, b0 = min(a for a, _b, _s in spans), max(b for _a, b, _s in spans)
                slices[(name, "#tracks")] = (a0, b0, (b0 - a0, 1))
                parts[(a0, b0)] = fold_maps(pts_all[a0:b0])
        map1, map2 = fold_maps(pts_all.astype(np.float32))
        self._cube_areas = self._apparent_cube_areas(geometry)
        return _Plan(geometry.version, map1, map2, slices, head_rows, parts)

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
    def forget_steady_boards(self) -> None:
        """Read every region of the next frame whole, as if the table had changed
        everywhere: no board's coarse snapshot is compared against (a bench showing the
        reader an unrelated table under the same pose)."""
        self._snap.clear()

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
            self._token = None
        self._frame_no += 1
        for name, board in self.layout.boards.items():
            if name not in geometry.boards:
                reading.occluded.update(self._names(board))
        plan = self._plan
        if plan is None or plan.map1.size == 0:
            return reading
        samples = Samples(frame, plan)
        stir = False  # a hand or motion over a token region
        hand_on_token = False
        for name in geometry.boards:
            board = self.layout.boards[name]
            if self._modelled and name not in self._modelled:
                reading.uncertain.update(self._names(board))
                continue
            a, b, shape = plan.slices[(name, "#coarse")]
            coarse = samples[a:b].reshape(*shape, 3)
            hand, moving, norm, gain = self._hands_and_motion(name, coarse)
            changed = self._changes(name, norm, gain)
            self._changed[name] = changed
            self._changed_any[name] = changed is None or bool(changed.any())
            self._light[name] = float(gain.mean())
            self._board_light[name] = gain
            if changed is None or float(changed.mean()) > FILL_SHARE:
                samples.fill()  # every region (or most) is read: one remap
            any_hand, any_motion = bool(hand.any()), bool(moving.any())
            if any_hand or any_motion:
                # a hand or motion over a token region: the tokens are read again
                busy = hand | moving
                tokens = self.tokens.regions.get(name, [])
                stir |= any(self._touches(r, busy) for r in tokens)
                # a hand over a token: the track under a hand, not only uncertain
                hand_on_token |= any_hand and any(self._touches(r, hand) for r in tokens)
                on_hand = self._touching(board, hand) if any_hand else None
                on_move = self._touching(board, moving) if any_motion else None
                for i, r in enumerate(board.regions):
                    if r.kind not in ("cubes", "track", "zone", "items"):
                        continue
                    if on_hand is not None and on_hand[i]:
                        reading.occluded.add(r.key)
                    if on_move is not None and on_move[i]:
                        reading.moving.add(r.key)
            a, b, _shape = plan.slices[(name, "#white")]
            self._white.see(name, samples[a:b])
            self._paper.see(name, samples[a:b], self._fitted_whites(frame, geometry, name))
            self._read_cubes(board, samples, plan, reading)
            self._read_tracks(board, samples, plan, reading)
            self._read_figures(board, samples, plan, reading)
            self._read_items(board, samples, plan, reading)
        if any(self.tokens.regions.values()):  # a layout older than the tokens: none read
            token = self._read_tokens(frame, geometry, stir)
            if hand_on_token:
                reading.occluded.add(TOKEN_TRACK)
            if token is None and self.tokens.ever:
                reading.uncertain.add(TOKEN_TRACK)
            elif token is not None:
                reading.tracks[TOKEN_TRACK] = token
        # track cells are reported as their track
        reading.occluded = {k.partition("#")[0] for k in reading.occluded}
        reading.moving = {k.partition("#")[0] for k in reading.moving}
        return reading

    def _fitted_whites(self, frame: np.ndarray, geometry: Geometry, name: str
                       ) -> Callable[[], list[np.ndarray]]:
        """What fits the board's markers not hidden in this frame through the blur
        (``MarkerWhites``), when a reading asks: their whites."""
        def fitted() -> list[np.ndarray]:
            return [f.white for f in self._marker_whites.whites(
                frame, self.layout.boards[name], geometry.boards[name], self.tracker.lens,
                geometry.version, geometry.hidden)]
        return fitted

    def _read_tokens(self, frame: np.ndarray, geometry: Geometry, stir: bool
                     ) -> dict[str, int] | None:
        """The first-player tokens' track (``TokenReader.read``), or the last one read while
        no token region has changed on any board found (as for the other regions) and
        no hand nor motion touches one (``stir``)."""
        found = frozenset(geometry.boards)
        boards = [b for b, regions in self.tokens.regions.items() if regions and b in found]
        if not stir and self._token is not None and self._token[0] == found and all(
                (changed := self._changed.get(b)) is not None
                and not any(self._touches(r, changed) for r in self.tokens.regions[b])
                for b in boards):
            return None if self._token[1] is None else dict(self._token[1])
        token = self.tokens.read(frame, geometry, self.tracker.lens, self._white,
                                 self._board_light)
        self._token = (found, None if token is None else dict(token))
        return token

    def _lut(self, what: str, bg: tuple[int, int, int] | None, idx: tuple[int, ...]
             ) -> np.ndarray:
        """The colour table for a background and prototypes (built once, then cached).
        Without a background (``bg`` None: the empty-board model says what is the board)
        index 0 is never given; prototypes lie farther, lightness counts less."""
        key = (what, bg, idx)
        table = self._luts.get(key)
        if table is not None:
            return table
        shared = (key, self.cube_lab.tobytes(), self.marker_lab.tobytes(),
                  self.figure_lab.tobytes(), self.item_lab.tobytes())
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
        flat = ratio.reshape(-1, 3)[sample]
        gain = median0(flat)
        # then again over the half of the board that agrees best with that first light: an
        # arm over half of a small farm pulls the first median its way, and the whole farm
        # would look tinted (docs/vision.md « Hands »)
        off = _max3(np.abs(per_channel(np.divide, flat, gain) - 1.0))
        half = len(off) // 2
        if half:
            gain = median0(flat[off <= np.partition(off, half)[half]])
        ratio = per_channel(np.multiply, ratio, 1.0 / gain)
        lum = ratio[..., 0] + ratio[..., 1] + ratio[..., 2]
        lum *= 1 / 3
        # (channel by channel: numpy's broadcast over a last axis of three is slow)
        chroma = np.abs(ratio[..., 0] / lum - 1.0)
        for c in (1, 2):
            np.maximum(chroma, np.abs(ratio[..., c] / lum - 1.0), out=chroma)
        # the camera's noise is in levels, not a fraction of the light: measured on this
        # frame (the board is mostly empty), it sets the least change of colour that counts
        # in each cell; in a dim frame or on a dark board, noise and JPEG alone pass 0.09
        level = cur[..., 0] + cur[..., 1] + cur[..., 2]
        level *= 1 / 3
        noise = float(median0(chroma.ravel()[sample] * level.ravel()[sample]))
        floor = NOISE_K * noise / level
        diff = (chroma > np.maximum(0.09, floor)) | (lum < 0.45) | (lum > 1.7)
        # brighter with a slight change of colour (a pale hand), only as a solid patch: a
        # shadow lying on the board when it was learnt, gone since, leaves it brighter, and
        # the printed lines misregistered by a pixel pass this test in thin webs
        bright = ((lum > BRIGHTER) & (chroma > np.maximum(0.04, 0.5 * floor))).astype(np.uint8)
        diff |= cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
        diff &= keep
        norm = per_channel(np.divide, cur, gain)
        spare = None
        if len(track_rows):  # discs on their track: several on one cell must not look like a hand
            cells = np.minimum(np.maximum(norm[track_rows, track_cols] - 1.0, 0),
                               255).astype(np.uint8)
            disc = self._is_disc[lut_index(cells)]
            diff[track_rows[disc], track_cols[disc]] = False
            spare = self._cell_boxes.get(name)
            if spare is None:
                spare = self._cell_boxes[name] = cell_boxes(self.layout.boards[name],
                                                            COARSE_STEP, diff.shape)
        goods = self._goods_boxes.get(name)
        if goods is None:
            goods = self._goods_boxes[name] = goods_boxes(self.layout.boards[name],
                                                          COARSE_STEP, diff.shape)
        hand, faint = self._hand_blobs(diff, spare, goods)
        margin = max(1, round(HAND_MARGIN_MM / COARSE_STEP))
        if hand.any():
            solid = hand & ~faint
            hand = cv2.dilate(solid.astype(np.uint8), np.ones((2 * margin + 1,) * 2, np.uint8)) > 0
            if faint.any():
                # a hand seen only by its rims and shading (the palest over a pale board)
                # may reach farther than they do
                wide = 2 * margin
                hand |= cv2.dilate(faint.astype(np.uint8), np.ones((2 * wide + 1,) * 2,
                                                                   np.uint8)) > 0
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
        if self._changed_any[board] and any(self._touches(r, changed) for r in regions):
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
            r0, r1, c0, c1 = _coarse_box(r)
            snap[0][r0:r1, c0:c1] = prev[r0:r1, c0:c1]

    @staticmethod
    def _hand_blobs(diff: np.ndarray,
                    spare: list[tuple[int, int, int, int, int, int]] | None = None,
                    goods: list[tuple[int, int, int, int]] | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
        """The blobs of ``diff`` that are hands (one reaching the board's edge, or any
        large one), and those of them seen only in part: a web of rims and shading that
        fills less than ``HAND_FILL`` of its convex hull (a pale hand over a pale board,
        its inside like the board). A blob reaching the edge but under ``HAND_ANY_MM2``
        that lies within one of the track cells ``spare`` and spans its centre is a
        disc's (`vision.disc_edge`), no hand; nor is a blob within a farm's goods region
        ``goods`` clear of the board's edge (`vision.goods_blob`), nor the two joined
        (`vision.disc_beside_goods`)."""
        _n, labels, stats, _ = cv2.connectedComponentsWithStats(  # type: ignore[call-overload]
            diff.astype(np.uint8), 8)
        hand = np.zeros(diff.shape, bool)
        faint = np.zeros(diff.shape, bool)
        h, w = diff.shape
        cell = COARSE_STEP * COARSE_STEP
        # the blobs large enough to be a hand, found at once (a steady frame has dozens of
        # specks of noise and none of them)
        x, y, bw, bh = (stats[1:, k] for k in range(4))
        mm2 = stats[1:, cv2.CC_STAT_AREA] * cell
        edge = (x <= 1) | (y <= 1) | (x + bw >= w - 1) | (y + bh >= h - 1)
        big = (edge & (mm2 >= HAND_EDGE_MM2)) | (mm2 >= HAND_ANY_MM2)
        for i in np.flatnonzero(big) + 1:
            blob = labels == i
            if spare and mm2[i - 1] < HAND_ANY_MM2 and (is_disc_blur(blob, spare) or (
                    goods and is_disc_and_goods(blob, spare, goods))):
                continue  # a disc near the edge, alone or blurred into goods beside it
            if goods and is_goods(blob, goods):
                continue  # goods heaped on a farm, no arm reaching them (`vision.goods_blob`)
            hand |= blob
            pts = cv2.findNonZero(blob.astype(np.uint8))
            hull = cv2.contourArea(cv2.convexHull(pts)) + 0.5 * len(pts) + 1.0
            if stats[i, cv2.CC_STAT_AREA] < HAND_FILL * hull:
                faint |= blob
        return hand, faint

    def _touching(self, board: Board, mask: np.ndarray) -> np.ndarray:
        """``_touches`` for every region of a board at once (booleans in the order of
        ``board.regions``): each region's box summed in the mask's integral image."""
        h, w = mask.shape
        boxes = self._boxes.get((board.name, h, w))
        if boxes is None:
            r0, r1, c0, c1 = np.array([_coarse_box(r) for r in board.regions], np.intp
                                      ).reshape(-1, 4).T
            boxes = np.stack([np.clip(r0, 0, h), np.clip(r1, 0, h),
                              np.clip(c0, 0, w), np.clip(c1, 0, w)])
            self._boxes[(board.name, h, w)] = boxes
        r0, r1, c0, c1 = boxes
        ii = cv2.integral(mask.astype(np.uint8))
        out: np.ndarray = ((ii[r1, c1] - ii[r0, c1] - ii[r1, c0] + ii[r0, c0]) > 0) & (
            r1 > r0) & (c1 > c0)
        return out

    @staticmethod
    def _touches(region: Region, mask: np.ndarray) -> bool:
        r0, r1, c0, c1 = _coarse_box(region)
        return bool(mask[r0:r1, c0:c1].any())


@lru_cache(maxsize=4096)
def _coarse_box(region: Region) -> tuple[int, int, int, int]:
    """The rows and columns (r0, r1, c0, c1) of the coarse grid a region lies on (kept:
    a region is a frozen rectangle, asked for on every frame)."""
    x0, y0, x1, y1 = region.rect
    return (int(y0 // COARSE_STEP), int(np.ceil(y1 / COARSE_STEP)),
            int(x0 // COARSE_STEP), int(np.ceil(x1 / COARSE_STEP)))
