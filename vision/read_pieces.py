"""The board reader's other readings: figures and items by colour against the board's
print, and the markers' cells on the tracks; the cubes are `read_cubes.py`'s. A part of
`vision.read.BoardReader`, which holds the state these methods use."""

from __future__ import annotations

import cv2
import numpy as np

from .colour import (
    apply_gain,
    balance,
    gains,
    lut_index,
)
from .cube_tint import faint_cells, tinted_cells
from .disc_thick import thick
from .item_hue import horse_or_ox, horse_or_wagon
from .item_light import item_gain
from .item_shapes import flat_dark_pieces
from .layout import FAMILY_COLOURS, ITEM_NAMES, Board, Region
from .piece_differs import differs
from .read_cubes import CubeReading
from .read_faint import faint_pieces, found_blobs
from .read_parts import (
    BOARD_TOL,
    FIGURE_COLOURS,
    FIGURE_MM2,
    ITEM_STEP,
    MONK_LABEL,
    MONK_RIM,
    SATURATED,
    SHADOW_MAX,
    SHADOW_MIN,
    SHADOW_SPREAD,
    TRACK_GRID,
    WHITE,
    ZONE_STEP,
    Reading,
    Samples,
    _max3,
    _mean3,
    _min3,
    _Plan,
    count_blobs,
    median0,
    per_channel,
)
from .region_light import region_gain
from .track_light import cell_light, near_cells


class PieceReading(CubeReading):
    """The figure, item and track readings of `BoardReader` (its state is declared on
    `CubeReading`)."""

    def _differs(self, board: str, r: Region, raw: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
        """With the empty-board model: True where a sample of region ``r`` is neither the
        board (its print, one pixel of misregistration allowed, under this frame's light)
        nor the board in shadow; each sample's difference from the empty board under this
        frame's light (n×3); True where it looks like the board in shadow; True where
        that shadow is deeper than any room's (``DEEP_SHADOW``); each sample's light
        against the empty board's, the region's as 1 (its ratio's mean over the
        channels). None without the model."""
        empty = self._empty.get(f"{board}/{r.key}")
        if empty is None or empty[0].shape[0] != len(raw):
            return None
        cur = raw.astype(np.float32) + 1.0
        ratio = cur / empty[0]
        gain = region_gain(ratio, self._board_light.get(board))  # not the pieces' colour
        return differs(raw, cur, ratio, empty, gain, self._white.get(board))

    def _item_white(self, board: str, r: Region, raw: np.ndarray) -> np.ndarray | None:
        """``item_light.item_gain`` for region ``r``'s samples (None without a white)."""
        empty = self._empty.get(f"{board}/{r.key}")
        return item_gain(self._paper.get(board), None if empty is None else empty[0],
                         self._light.get(board), raw)

    def _piece_labels(self, what: str, board: str, r: Region, raw: np.ndarray,
                      shape: tuple[int, int], one: float, gain: np.ndarray | None
                      ) -> tuple[np.ndarray, np.ndarray | None]:
        """Each sample's piece colour (``what``: figures or items; 0 the board), and its
        difference from the empty board (None without the model).

        With the empty-board model, what differs from the board is classified under the
        light that makes the markers' white paper white (light-invariant, whatever colour
        the region is printed); without it, the region is balanced against its printed
        colour and the board is a colour among the others. A dark item (the ox tile) can
        look like the board in shadow: ``flat_dark_pieces`` tells it (``one``: the
        smallest piece's area in samples; ``gain``: the markers' white gain the pieces are
        told under, None without one)."""
        differs = self._differs(board, r, raw)
        if differs is None or gain is None:
            px = balance(raw, np.array(r.print_rgb[::-1], np.float32))
            px[_min3(raw) >= SATURATED] = WHITE
            labels: np.ndarray = self._lut(what, r.print_rgb, ())[lut_index(px)]
            return labels, None
        px = apply_gain(raw, gain)
        labels = self._lut(what, None, ())[lut_index(px)]
        piece = differs[0]
        if what == "items":
            labels = horse_or_ox(px, horse_or_wagon(px, labels, self.layout.item_rgb),
                                 self.layout.item_rgb)
            # a dark tile is partly "shadow", partly not (its emblem, its lit edge): the
            # samples of it told as such join its shadow-like ones, or the tile falls
            # apart into specks
            dark = differs[2] | (piece & (labels == 1 + ITEM_NAMES.index("ox")))
            deep = differs[3] | (piece & (labels == 1 + ITEM_NAMES.index("ox")))
            tile = self.layout.item_area_mm2("ox") / ITEM_STEP ** 2
            piece = piece | flat_dark_pieces(dark.reshape(shape), one, deep.reshape(shape),
                                             tile, differs[4].reshape(shape),
                                             piece.reshape(shape)).reshape(-1)
        labels = np.where(piece, labels, 0)
        if what == "figures":
            rim = _monk_rim(labels.reshape(shape) == MONK_LABEL, differs[3].reshape(shape))
            labels[rim.reshape(-1)] = MONK_LABEL
        return labels, differs[1]

    def _read_figures(self, board: Board, samples: Samples, plan: _Plan,
                      reading: Reading) -> None:
        """Figures standing in each zone, by colour: the families' and the black monks' (a
        count, not who: the camera cannot tell two red figures apart). With the empty-board
        model only what differs from the board counts (printed ink is not a monk)."""
        one = [FIGURE_MM2 / ZONE_STEP ** 2] * len(FIGURE_COLOURS)
        self._count_pieces(board, samples, plan, "zone", "figures", FIGURE_COLOURS, one,
                           reading.figures, reading.occluded)

    def _read_items(self, board: Board, samples: Samples, plan: _Plan,
                    reading: Reading) -> None:
        """Grain sacks, coins and goods tiles on a farm, by kind (``count_blobs`` over the
        item colours, balanced against the region's print). With the empty-board model
        only what differs from the board counts."""
        one = [self.layout.item_area_mm2(k) / ITEM_STEP ** 2 for k in ITEM_NAMES]
        self._count_pieces(board, samples, plan, "items", "items", ITEM_NAMES, one,
                           reading.items, reading.occluded)

    def _count_pieces(self, board: Board, samples: Samples, plan: _Plan, kind: str,
                      what: str, names: tuple[str, ...], one: list[float],
                      into: dict[str, dict[str, int]], occluded: set[str]) -> None:
        """Count the pieces of ``names`` (``one``: a piece's area in samples, by name) in
        each region of ``kind`` not under a hand, into ``into`` by region name (a region
        unchanged since it was read keeps its count)."""
        todo: list[Region] = []
        for r in board.regions:
            if r.kind != kind or r.key in occluded:
                continue
            hit = self._reuse(board.name, r.key, [r])
            if hit is not None:
                into[r.name] = dict(hit[0])
                continue
            todo.append(r)
        # figures: the board's zones labelled at once (items: one region a farm)
        together = (self._zone_labels(board.name, todo, samples, plan) if what == "figures"
                    else {})
        for r in todo:
            a, b, shape = plan.slices[(board.name, r.key)]
            raw = samples[a:b]
            # items: the white raised by the region's shade, taken once for the labels and
            # the faint pieces
            gain = (self._item_white(board.name, r, raw) if what == "items"
                    else self._white.get(board.name))
            labels, diff = (together[r.key] if r.key in together else
                            self._piece_labels(what, board.name, r, raw, shape, min(one), gain))
            found = count_blobs(labels.reshape(shape), names, one,
                                diff=None if diff is None else diff.reshape(*shape, 3),
                                cores=what == "items")
            if what == "items" and diff is not None:
                self._add_faint(board.name, r, raw, labels.reshape(shape), one, found, gain)
            into[r.name] = found
            self._remember(board.name, r.key, [r], dict(found), 1.0)

    def _zone_labels(self, board: str, zones: list[Region], samples: Samples, plan: _Plan
                     ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """``_piece_labels`` of a board's figure ``zones`` at once, by region key: each
        zone under its own light (`vision.piece_differs`), the same labels and
        differences as zone by zone. The zones without the empty-board model are left
        out (and all of them without the markers' white, or with fewer than two)."""
        white = self._white.get(board)
        got = []
        for r in zones:
            a, b, shape = plan.slices[(board, r.key)]
            empty = self._empty.get(f"{board}/{r.key}")
            if empty is not None and empty[0].shape[0] == b - a:
                got.append((r, samples[a:b], shape, empty))
        if white is None or len(got) < 2:
            return {}
        raw = np.concatenate([g[1] for g in got])
        ref, lo, hi = (np.concatenate([g[3][k] for g in got]) for k in range(3))
        sizes = [len(g[1]) for g in got]
        ends = np.cumsum(sizes)
        cur = raw.astype(np.float32) + 1.0
        ratio = cur / ref
        light = self._board_light.get(board)
        gains = np.stack([region_gain(ratio[e - n:e], light)
                          for n, e in zip(sizes, ends, strict=True)])
        found = differs(raw, cur, ratio, (ref, lo, hi), np.repeat(gains, sizes, axis=0),
                        white)
        labels = np.where(found.piece,
                          self._lut("figures", None, ())[lut_index(apply_gain(raw, white))], 0)
        out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        for (r, _raw, shape, _empty), n, e in zip(got, sizes, ends, strict=True):
            own = labels[e - n:e]  # (a view: the rim is written through)
            rim = _monk_rim(own.reshape(shape) == MONK_LABEL, found.deep[e - n:e].reshape(shape))
            own[rim.reshape(-1)] = MONK_LABEL
            out[r.key] = (own, found.diff[e - n:e])
        return out

    def _add_faint(self, board: str, r: Region, raw: np.ndarray, labels: np.ndarray,
                   one: list[float], found: dict[str, int], white: np.ndarray | None) -> None:
        """Add to ``found`` the items of region ``r`` too faint for the board's tolerance
        (``read_faint``: a grey coin on a dark farm in dim light), away from those found
        (``white``: the region's ``_item_white``)."""
        empty = self._empty.get(f"{board}/{r.key}")
        if empty is None or white is None:
            return
        rgb = [self.layout.item_rgb[k] for k in ITEM_NAMES]
        for j, n in faint_pieces(raw, empty[0], labels.shape[:2], found_blobs(labels, one),
                                 white, rgb).items():
            found[ITEM_NAMES[j]] = found.get(ITEM_NAMES[j], 0) + n

    def _track_empty(self, board: str, cells: list[Region], n: int
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
        """The empty-board model of every track cell of a board, stacked (cells × n × 3:
        the board, its 3×3 darkest, lightest); None if a cell was not learnt."""
        key = f"{board}/#tracks"
        hit = self._empty.get(key)
        if hit is None:
            got = [self._empty.get(f"{board}/{r.key}") for r in cells]
            if any(e is None or e[0].shape[0] != n for e in got):
                return None
            hit = (np.stack([e[0] for e in got if e is not None]),
                   np.stack([e[1] for e in got if e is not None]),
                   np.stack([e[2] for e in got if e is not None]))
            self._empty[key] = hit
        return hit

    def _read_tracks(self, board: Board, samples: Samples, plan: _Plan,
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
        # all cells of the board at once: (cells, samples, 3), from one remap of them all
        a0, b0, _shape = plan.slices[(board.name, "#tracks")]
        block = samples[a0:b0]
        px = np.stack([block[plan.slices[(board.name, r.key)][0] - a0:
                             plan.slices[(board.name, r.key)][1] - a0] for r in cells])
        # with the empty-board model: a disc is what differs from the empty cell, its
        # colour told under the light that makes the markers' white paper white (as the
        # figures'); else each cell is balanced against its printed colour
        white = self._white.get(board.name)
        empty = self._track_empty(board.name, cells, px.shape[1])
        model = white is not None and empty is not None
        if model and white is not None and empty is not None:
            bal = apply_gain(px, white)
            mask, level = _differs_cells(px, *empty, near_cells(tuple(cells)))
        else:
            refs = np.array([r.print_rgb[::-1] for r in cells], np.float32)
            gain = gains(px, refs)
            bal = np.clip(px.astype(np.float32) * gain[:, None, :], 0, 255).astype(np.uint8)
        # a white disc the camera saturated is white, whatever the gain would make of it
        bal[_min3(px) >= SATURATED] = WHITE
        index = lut_index(bal)
        per_sample_mm2 = np.array([(r.rect[2] - r.rect[0]) * (r.rect[3] - r.rect[1])
                                   for r in cells], np.float32) / TRACK_GRID ** 2
        by_track: dict[str, list[int]] = {}  # each track's cells, in order
        for i, r in enumerate(cells):
            by_track.setdefault(r.name, []).append(i)
        for track in sorted(by_track):
            colours = ([track.partition(":")[2]] if track.startswith("time:")
                       else list(FAMILY_COLOURS))
            idx = tuple(FAMILY_COLOURS.index(c) for c in colours)
            rows = np.array(by_track[track])
            counts = np.zeros((len(cells), len(colours)), np.float32)
            for bg in {None} if model else {cells[i].print_rgb for i in rows}:
                group = (rows if model else
                         np.array([i for i in rows if cells[i].print_rgb == bg]))
                labels = self._lut("markers", bg, idx)[index[group]]
                if model:
                    labels = np.where(mask[group], labels, 0)
                    if "white" in colours:  # a white disc is never darker than the print
                        w = colours.index("white") + 1
                        labels[(labels == w) & (level[group] < 1.0)] = 0
                        # and, on a cell with another disc, a disc, not a ring of that
                        # disc's edge samples (`vision.disc_thick`)
                        pale = labels == w
                        mixed = ((labels > 0) & ~pale).any(axis=1)[:, None]
                        labels[pale & mixed & ~thick(pale, TRACK_GRID)] = 0
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



def _monk_rim(monk: np.ndarray, deep: np.ndarray) -> np.ndarray:
    """The samples of ``deep`` (a grid of booleans: the board darkened evenly, more than
    a room's shadow does) within two samples of a black figure (``monk``), reached
    through ``deep`` itself: a black monk in dim light is the board darkened almost
    evenly, and blur makes its rim a deep "shadow" (on the real-hard renders, half of a
    monk's samples; a monk alone was then too small to count, one beside a figure too
    small a share of its blob). Two samples (4 mm) is the blur's reach, not a cast
    shadow's: a room's shadow is never this deep."""
    if not monk.any() or not deep.any():
        return np.zeros(monk.shape, bool)
    k3 = np.ones((3, 3), np.uint8)
    grown = monk.astype(np.uint8)
    allowed = (deep | monk).astype(np.uint8)
    for _ in range(MONK_RIM):
        grown = cv2.dilate(grown, k3) & allowed
    out: np.ndarray = (grown > 0) & ~monk
    return out


def _differs_cells(raw: np.ndarray, ref: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   near: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``PieceReading._differs``' test for many cells at once (cells × n samples): True
    where a sample is neither its empty cell (one pixel of misregistration allowed, under
    the light on the cells ``near`` it: `vision.track_light`) nor that cell in shadow;
    and each sample's level against its empty cell under that light (1: as bright)."""
    cur = raw.astype(np.float32) + 1.0
    ratio = cur / ref
    gain = cell_light(median0(ratio.swapaxes(0, 1)), near)[:, None, :]
    lo_g = per_channel(np.multiply, lo, gain)
    hi_g = per_channel(np.multiply, hi, gain)
    inside = (cur >= lo_g - BOARD_TOL) & (cur <= hi_g + BOARD_TOL)
    # in dim light a disc can differ by fewer levels than the tolerance, but it changes
    # its cell's colour (`vision.cube_tint`)
    within = inside[..., 0] & inside[..., 1] & inside[..., 2]
    board_like = within & ~faint_cells(tinted_cells(cur, lo_g, hi_g, TRACK_GRID), ~within,
                                       TRACK_GRID)
    rel = per_channel(np.divide, ratio, gain)
    rmax, rmin = _max3(rel), _min3(rel)
    shadow = (rmax < SHADOW_MAX) & (rmin > SHADOW_MIN) & (rmax < SHADOW_SPREAD * rmin)
    out: np.ndarray = ~board_like & ~shadow
    return out, _mean3(rel)
