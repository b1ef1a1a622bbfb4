"""The board reader's cubes: counted against the empty board when it is known (printed
borders and artwork never count), by colour otherwise; a heap's pile shared out by area.
A part of `vision.read.BoardReader`, which holds the state these methods use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from .colour import (
    UNKNOWN,
    apply_gain_keeping_hue,
    balance,
    lut_index,
)
from .cube_hidden import hidden_colours, shades_into, touching_blobs
from .cube_hue import SHADOWED, brown_or_orange, local_light
from .cube_pairs import is_pair
from .cube_rim import cube_rims
from .cube_shadow import UNEVEN, cube_hued, smooth
from .cube_sides import SIDE_SHARE, side_colours
from .cube_size import CubeSample, measure_cubes
from .cube_tint import tinted
from .layout import CUBE_COLOURS, Board, Layout, Region
from .read_parts import (
    BOARD_TOL,
    LIFTED_SPREAD,
    MINOR_CUBE,
    PILE_BAND,
    PILE_ROUND_UP,
    ROUND_UP,
    SHADOW_MAX,
    SHADOW_MIN,
    SHADOW_SPREAD,
    UNCERTAIN_BELOW,
    Reading,
    Samples,
    Whites,
    _max3,
    _min3,
    _Plan,
    median0,
    per_channel,
    within,
)


class CubeReading:
    """The cube readings of `BoardReader` (its state, declared here for the type
    checker)."""

    layout: Layout
    area_factor: float
    cube_area: float
    cube_scale: dict[str, float]
    disc_mm2: float
    regions_read: int
    _empty: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]]
    _white: Whites
    _paper: Whites
    _light: dict[str, float]
    _board_light: dict[str, np.ndarray]
    _cube_areas: dict[tuple[str, str], tuple[float, float]]
    _shades: tuple[np.ndarray, list[set[int]]]

    _plan: _Plan | None

    if TYPE_CHECKING:
        def read(self, frame: np.ndarray, t: float = 0.0) -> Reading: ...

        def _lut(self, what: str, bg: tuple[int, int, int] | None, idx: tuple[int, ...]
                 ) -> np.ndarray: ...

        def _reuse(self, board: str, key: str, regions: list[Region]
                   ) -> tuple[Any, float] | None: ...

        def _remember(self, board: str, key: str, regions: list[Region], value: Any,
                      conf: float) -> None: ...

    def _read_cubes(self, board: Board, samples: Samples, plan: _Plan,
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
            empty = self._empty.get(f"{board.name}/{r.key}")
            if empty is not None and empty[0].shape[0] == b - a:
                # against the empty board, colours are classified under the light that
                # makes the markers' white paper white (light-invariant, whatever the
                # region's print), as figures and items are; without that white, the
                # region balanced against its printed colour
                white = self._white.get(board.name)
                lit = None if white is None else apply_gain_keeping_hue(samples[a:b], white)
                labels = (self._printed_labels(r, samples[a:b], shape) if lit is None
                          else self._lut("cubes", None, ())[lut_index(lit)].reshape(shape))
                self._read_against_empty(board.name, r, samples[a:b], labels, empty, reading,
                                         lit)
                continue
            if self._empty:
                # the empty boards were learnt, but not this region's (its board was not
                # found in the calibration's frames): by the older rule its printed
                # borders would count as cubes, so it is held back, not guessed
                reading.uncertain.add(r.name)
                reading.confidence[r.name] = 0.0
                self._remember(board.name, r.key, [r], None, 0.0)
                continue
            labels = self._printed_labels(r, samples[a:b], shape)
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

    def _printed_labels(self, r: Region, raw: np.ndarray, shape: tuple[int, int]
                        ) -> np.ndarray:
        """A cube region's colour labels (grid of ``shape``) with the region balanced
        against its printed colour (no markers' white to classify under)."""
        px = balance(raw, np.array(r.print_rgb[::-1], np.float32))
        out: np.ndarray = self._lut("cubes", r.print_rgb, ())[lut_index(px)].reshape(shape)
        return out

    def _read_against_empty(self, board: str, r: Region, raw: np.ndarray, labels: np.ndarray,
                            empty: tuple[np.ndarray, np.ndarray, np.ndarray],
                            reading: Reading, lit: np.ndarray | None = None) -> None:
        """Count the cubes of a region as what differs from its empty board.

        Samples that are the board (printed borders, artwork, titles) or the board in
        shadow are never a cube. What differs is grouped into blobs; each blob's colours
        are those covering at least ``MINOR_CUBE`` of a cube (a lit edge or a shaded side
        read as another colour belongs to its cube), and its area, shared among them,
        gives the count. A reading that fits badly is uncertain: no number is given.
        """
        white = self._white.get(board)
        piece, cube, gain = self._cube_samples(raw, labels, empty, self._light.get(board, 0.0),
                                               white)
        shade: np.ndarray | None = None
        under: np.ndarray | None = None
        if lit is not None and white is not None:
            # the light on each cube against the light on the board's markers (most of
            # the board: its median), whose white paper sets the colours' light
            near = local_light(raw, empty[0], ~piece)
            shade = near / self._light.get(board, 1.0)
            # the board under a cube in a shadow is the board around it, not the region's
            lit_board = per_channel(np.multiply, empty[0], gain)
            dark = np.flatnonzero(shade < SHADOWED)
            if dark.size:  # (elsewhere the factor is 1: the product is the board itself)
                lit_board[dark] *= (near[dark] / float(gain.mean()))[:, None]
            # (the empty board, lit as the cubes)
            under = per_channel(np.multiply, lit_board, white)
            labels = brown_or_orange(lit, labels, cube, under, self.layout.cube_rgb, shade)
        counts: dict[str, int] = {}
        misfit = 0.0
        top, sides = self._cube_areas.get(
            (board, r.key), (self.cube_area / self.area_factor,
                             self.cube_area * (1 - 1 / self.area_factor)))
        area_one = top + sides
        # a pile is counted as such on a farm's supply (where a family's 4-9 cubes lie
        # heaped; on the action spaces, 1-5 cubes apart, it counted blurred orange cubes
        # two) and only where a cube's apparent area is measured: the lens's geometry here
        # and ``calibrate cubes``' size for each of its colours (``PILE_ROUND_UP`` rests
        # on both); elsewhere the looser rule
        measured = (board, r.key) in self._cube_areas and r.name.startswith("supply:")
        # each colour's apparent area per cube against the camera's geometry, measured by
        # ``calibrate cubes`` (a bright orange cube's blurred rim differs from the board
        # farther out than a black one's, whose shaded sides pass for a shadow)
        scale = [self.cube_scale.get(c, 1.0) for c in CUBE_COLOURS]
        # a colour is a cube of its own only if it covers more than the sides of a cube can
        # (the shaded side of an orange cube reads brown)
        minor = max(MINOR_CUBE * area_one, 1.2 * sides)
        # a cube's sides turned from the lamp show at most as much as its sides do against
        # its top (the camera's geometry here: far from the point under the camera a side
        # is as large as the top)
        side_share = max(SIDE_SHARE, sides / top)
        k, lab, areas = touching_blobs(cube, minor)
        shades = self._cube_shades()
        for i in range(1, k):
            total = float(areas[i])
            if total < 0.3 * area_one:
                continue  # a speck
            blob = lab == i
            per = np.bincount(labels[blob], minlength=len(CUBE_COLOURS) + 1)
            per = per[1:len(CUBE_COLOURS) + 1].astype(np.float32)
            major = [j for j in range(len(CUBE_COLOURS)) if per[j] >= minor]
            if not major:
                major = [int(per.argmax())]
            if lit is not None:  # a colour that is another's sides in shade is that one
                for j, m in side_colours(blob, labels, major, shades, area_one, lit,
                                         self.layout.cube_rgb, side_share).items():
                    per[m], per[j] = per[m] + per[j], 0.0
                    major.remove(j)
            # a colour no side of the others reads as: a cube half hidden under one
            major += hidden_colours(blob, labels, per, major, shades, area_one,
                                    lit, self.layout.cube_rgb, shade)
            share = float(per[major].sum())
            xs = [total * float(per[j]) / share / (area_one * scale[j]) for j in major]
            if measured and all(CUBE_COLOURS[j] in self.cube_scale for j in major):
                ms = _share_pile(xs)
                # a colour is maybe another's sides when they read as it and it covers
                # less than the guard against one cube's sides, times that colour's
                # cubes (their apparent size, ``calibrate cubes``'): a brown of 215
                # samples beside one orange cube is no side of it
                sided = any(j in shades[k] and per[j] < minor * scale[k] * ms[b]
                            for j in major for b, k in enumerate(major))
                misfit = max(misfit, _pile_misfit(sum(xs), sum(ms), sided, len(major)))
            elif len(xs) == 1 and xs[0] < 2 - ROUND_UP and is_pair(blob, xs[0], top, sides):
                ms = [2]  # one colour, half as long again as a cube: one leaning on another
            else:  # an area known to some 40 %: each colour rounded, a loose fit
                ms = [max(1, int(np.floor(x + ROUND_UP))) for x in xs]
                misfit = max([misfit] + [abs(x - m) / m if m > 1 else max(0.0, x - 1.4, 0.6 - x)
                                         for x, m in zip(xs, ms, strict=True)])
            for j, m in zip(major, ms, strict=True):
                counts[CUBE_COLOURS[j]] = counts.get(CUBE_COLOURS[j], 0) + m
        # something that is neither the board, a shadow nor a cube colour (a coin, a
        # figure, a sleeve): as much of it as half a cube makes the reading uncertain
        strange = piece & ((labels == UNKNOWN) | (labels > len(CUBE_COLOURS)))
        if lit is not None and under is not None:  # a cube's blurred rim is no strange thing
            strange &= ~cube_rims(strange, cube, labels, lit, under, self.layout.cube_rgb)
        strange = strange.astype(np.uint8)
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

    def _cube_shades(self) -> list[set[int]]:
        """Which cube colours each cube colour's sides turned from the light read as under
        the colour table cubes are read with (`vision.cube_hidden.shades_into`; cached)."""
        table = self._lut("cubes", None, ())
        hit = getattr(self, "_shades", None)
        if hit is None or hit[0] is not table:
            hit = (table, shades_into(table, self.layout.cube_rgb))
            self._shades = hit
        return hit[1]

    def _cube_samples(self, raw: np.ndarray, labels: np.ndarray,
                      empty: tuple[np.ndarray, np.ndarray, np.ndarray], light: float = 0.0,
                      white: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Against a cube region's empty board: where something lies that is neither the
        board (one pixel of misregistration allowed, under this frame's light), the board
        in shadow nor the board where a shadow has gone (grid-shaped booleans); where
        that has a cube colour, opened 3×3 (uint8); and this frame's light against the
        empty board's (a gain per channel). A shadow is the board darkened against the
        light on most of its board (``light``, its level) when the region lies in a
        shadow: a black cube in a cast shadow of 0.6 is the board darkened to 0.25 of the
        region's light, a shadow by that measure, but to 0.15 of the board's. With the
        markers' white gain (``white``), a "shadow" whose hue is nearer a cube colour's than
        the board's is a piece (`vision.cube_shadow`: a brown cube on an ochre print)."""
        ref, lo, hi = empty
        cur = raw.astype(np.float32) + 1.0
        ratio = cur / ref
        gain = median0(ratio)  # this frame's light against the empty board's
        lo_g = per_channel(np.multiply, lo, gain) - BOARD_TOL
        hi_g = per_channel(np.multiply, hi, gain) + BOARD_TOL
        inside = within(cur, lo_g, hi_g)
        # in dim light a cube differs by fewer levels than the tolerance, but changes
        # the board's colour (`vision.cube_tint`)
        board_like = inside & ~tinted(cur, lo_g + BOARD_TOL, hi_g - BOARD_TOL,
                                      labels.shape).ravel()
        rel = per_channel(np.divide, ratio, gain)
        rmax, rmin = _max3(rel), _min3(rel)
        dim = min(1.0, float(gain.mean()) / light) if light > 0 else 1.0
        shadow = ((rmax < SHADOW_MAX) & (rmin * dim > SHADOW_MIN)
                  & (rmax < SHADOW_SPREAD * rmin))
        if white is not None and shadow.any():
            hue = smooth(rel, labels.shape)
            # only a shadow uneven enough to have another hue is tested (the cost)
            at = np.flatnonzero(shadow & (_max3(hue) > UNEVEN * _min3(hue)))
            if at.size:
                shadow[at[cube_hued(hue[at], ref[at] * gain, white,
                                    self.layout.cube_rgb)]] = False
        # the board brightened evenly is the board where a shadow lay when the empty board
        # was learnt (a lamp or a person moved since): no cube's colour is its space's
        # print brightened evenly (white pieces are, so figures and items keep the rule)
        lifted = (rmin > 1 / SHADOW_MAX) & (rmax < 1 / SHADOW_MIN) & (rmax < LIFTED_SPREAD * rmin)
        piece = (~board_like & ~shadow & ~lifted).reshape(labels.shape)
        cube = piece & (labels >= 1) & (labels <= len(CUBE_COLOURS))
        opened = cv2.morphologyEx(cube.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        return piece, opened, gain

    def measure_cubes(self, frame: np.ndarray, placed: dict[str, tuple[str, int]]
                      ) -> dict[str, CubeSample]:
        """For ``calibrate cubes``: `vision.cube_size.measure_cubes` (raises ValueError
        for a region the layout does not have, or a board not found at all)."""
        return measure_cubes(self, frame, placed)


def _share_pile(xs: list[float]) -> list[int]:
    """The cubes of one blob by colour, from each colour's share of its area in cube
    areas (``xs``): the blob's count rounded once (``PILE_ROUND_UP``: rounding each
    colour up on its own would add a cube for every colour in it), at least one a colour,
    given out by the largest remainder."""
    n = max(len(xs), int(np.floor(sum(xs) + PILE_ROUND_UP)))
    ms = [max(1, int(np.floor(x))) for x in xs]
    while sum(ms) < n:
        k = max(range(len(xs)), key=lambda i: xs[i] - ms[i])
        ms[k] += 1
    while sum(ms) > n:
        over = [i for i in range(len(xs)) if ms[i] > 1]
        if not over:
            break
        ms[min(over, key=lambda i: xs[i] - ms[i])] -= 1
    return ms


def _pile_misfit(x: float, m: int, sided: bool = False, colours: int = 1) -> float:
    """How badly ``x`` cube areas fit a count of ``m`` cubes (``PILE_ROUND_UP``): 0 well
    inside the areas m cubes show, 0.5 (confidence 0) on the step to m ± 1, falling to 0
    at ``PILE_BAND`` from it; 0.5 when ``sided`` (one of the blob's colours is what
    another's sides turned from the lamp read as) and the area holds fewer cubes than
    the ``m`` colours given one each: that colour may be a side, not a cube (a cube
    mostly hidden under one of a colour whose sides never read as it still counts); a
    lone cube under 0.6 of an area is a misfit as before. Unless ``sided``, each of the
    blob's ``colours`` is a cube: the step down to fewer cubes than colours is none (three
    colours in 2.32 cube areas are three cubes, one mostly hidden)."""
    if sided and m > 1 and x < m - PILE_ROUND_UP:
        return 0.5  # fewer cubes than colours, one of which a side of another reads as
    down = m > 1 and (sided or m > colours)
    step = min(abs(x - (m + 1 - PILE_ROUND_UP)), abs(x - (m - PILE_ROUND_UP)) if down else 9.0)
    near = 0.5 * max(0.0, 1.0 - step / PILE_BAND)
    return max(near, 0.6 - x if m == 1 else 0.0)
