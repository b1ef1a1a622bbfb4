"""What the board reader shares between its parts: the sampling steps and thresholds (each
with what it means), the reading it returns (`Reading`), the sampling plan, and how a
blob of colour is counted as pieces (`count_blobs`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from .layout import FAMILY_COLOURS, MONK, Board

CUBE_STEP = 1.0  # mm between samples in a cube region
TRACK_GRID = 12  # samples per side of a track cell
COARSE_STEP = 4.0  # mm between samples of the hand / motion grid
HAND_EDGE_MM2 = 500.0  # a difference blob touching the board edge and at least this big
HAND_ANY_MM2 = 2500.0  # any difference blob at least this big
HAND_MARGIN_MM = 12.0
# a hand blob filling less than this of its convex hull is a hand seen only by its rims and
# shading (the palest over a pale board): the regions within twice the margin are hidden
HAND_FILL = 0.5
# a change of colour counts in the hand grid when it exceeds this many times the frame's
# median colour deviation (in levels) from the empty board: the camera's noise
NOISE_K = 5.0
# brighter than the empty board by this much: something lies there (a shadow only darkens;
# a pale hand over a pale space differs from it in little else)
BRIGHTER = 1.12
MOTION_LEVEL = 28.0
ZONE_STEP = 2.0  # mm between samples in a figure zone
ITEM_STEP = 1.5  # mm between samples in an item region (grain, coins, goods tiles)
STEPS = {"cubes": CUBE_STEP, "zone": ZONE_STEP, "items": ITEM_STEP}  # sampled regions
FIGURE_MM2 = 150.0  # a standing figure seen from above (body and head), mm² (rough)
FIGURE_COLOURS = (*FAMILY_COLOURS, MONK)  # figures counted by colour; black: the monks
MONK_LABEL = len(FIGURE_COLOURS)  # a black monk's label in a grid of figure colours
# the board darkened evenly below this (every channel) is deeper than a room's shadow (the
# real-table renderer's soft shadows keep 0.55–0.75 of the light): near a black monk,
# it is the monk's blurred rim, up to MONK_RIM samples out
DEEP_SHADOW, MONK_RIM = 0.45, 2
SATURATED = 245  # every channel at least this: the camera clipped a white
WHITE = 246
CHANGE_LEVEL = 30.0  # coarse change (0–255) that makes a region be read again
REFRESH = 30  # frames between two full readings of a steady table
SIDE_SHADE = 0.62  # a cube's side against its top, lit from above
AREA_FACTOR = 1.3  # a cube seen from above covers ~1.3 top faces (its sides show)
ROUND_UP = 0.4  # a component of x cube areas counts max(1, floor(x + ROUND_UP)) cubes
# On a farm's supply, against the empty board, a blob of x cube areas counts
# floor(x + PILE_ROUND_UP) cubes
# (shared among its colours): a cube leaning on another hides 0.2-0.9 of it and touching
# cubes hide each other's sides, so a pile shows less than its cubes' areas, never much
# more. Measured on the real-table renders (seeds 3 and 5, supplies of 1-3 cubes of one
# colour in one blob): one cube 0.60-1.19 areas, two 1.14-2.21, three 2.24-3.15. A blob
# within PILE_BAND of a step between two counts is read with low confidence: uncertain.
PILE_ROUND_UP, PILE_BAND = 0.7, 0.06
# With an empty-board model (``calibrate empty``): a sample is the board when each channel
# lies within BOARD_TOL of the empty board (its 3×3 neighbourhood, for a pixel of
# misregistration) under this frame's light; a shadow is the board darkened evenly.
BOARD_TOL = 22.0
SHADOW_MAX, SHADOW_MIN, SHADOW_SPREAD = 0.93, 0.22, 1.45
# the board brightened evenly (a shadow in the empty board's frames gone since), its
# channels' ratios within this of each other; tighter than a shadow's: the white of a
# disc on a beige cell is the cell brightened by 1.23–1.64 (a spread of 1.33)
LIFTED_SPREAD = 1.3
# figures and items: a sample whose every channel is at least this under the markers' white
# paper may be a white figure or a scroll, never the board brightened by a shadow gone
PALE_PIECE = 190.0
# items: a region darker against the empty board than its whole board is (both this
# frame's light over the empty board's) lies in a shadow the markers' white does not see;
# its pieces are lit up by that ratio, up to this (the real-table renderer's soft shadows
# keep 0.55–0.75 of the light). Only up: a region brighter than its board is as likely
# one where a shadow lay when the empty board was learnt
ITEM_SHADE_MAX = 1.8
# items: a kind's core, its samples at least this far (samples of 1.5 mm) from any other:
# a tile's blurred rim of another colour, a band 2-3 samples wide, has none; a grain sack
# 12 × 10 mm has
CORE_DEPTH = 2.5
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


def _sum3(a: np.ndarray) -> np.ndarray:
    """The sum of the three channels (…×3), the same numbers as ``a.sum(axis=-1)`` (summed
    in order) at a fraction of its cost."""
    out: np.ndarray = a[..., 0] + a[..., 1] + a[..., 2]
    return out


def _mean3(a: np.ndarray) -> np.ndarray:
    """The mean of the three channels (…×3), the same numbers as ``a.mean(axis=-1)`` (the
    channels summed in order, then divided by three) at a fraction of its cost."""
    out: np.ndarray = _sum3(a) / 3
    return out


def per_channel(op: np.ufunc, a: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``op(a, g)`` (a ufunc of two floats) for samples ``a`` (…×3) and gains ``g`` (…×3)
    that broadcast to ``a``'s shape (one a channel, or one a channel for each cell of a
    stack): the same numbers, computed channel by channel on arrays of
    ``PER_CHANNEL_FROM`` values or more. Broadcast over a last axis of three, numpy runs
    an inner loop three long: on a cube region's 7,700 samples four times slower than a
    loop down each channel; on a few hundred, the three calls cost more than they save.
    One gain for every sample of a contiguous ``a``: its samples are taken as rows of
    ``m`` samples (``m`` a divisor of their count, `_fold`) against the gain repeated
    ``m`` times, an inner loop ``3m`` long down contiguous memory."""
    if (a.size < PER_CHANNEL_FROM or g.shape[-1] != 3 or a.dtype.kind != "f"
            or g.dtype.kind != "f" or g.shape == a.shape):
        return op(a, g)  # type: ignore[no-any-return]
    if g.shape == (3,) and a.shape[-1] == 3 and a.flags.c_contiguous:
        m = _fold(a.size // 3)
        if m:
            rows: np.ndarray = op(a.reshape(-1, 3 * m), g[_tile_index(m)])
            return rows.reshape(a.shape)
    if np.broadcast_shapes(a.shape, g.shape) != a.shape:
        return op(a, g)  # type: ignore[no-any-return]
    out = np.empty(a.shape, np.result_type(a.dtype, g.dtype))
    for c in range(3):
        op(a[..., c], g[..., c], out=out[..., c])
    return out


PER_CHANNEL_FROM = 3000  # values (a thousand samples)
FOLD_ROW = (16, 256)  # samples a row of `per_channel`'s folded form: at least, at most


@lru_cache(maxsize=512)
def _fold(n: int) -> int:
    """The largest divisor of ``n`` samples within ``FOLD_ROW`` (0: none)."""
    for m in range(FOLD_ROW[1], FOLD_ROW[0] - 1, -1):
        if n % m == 0:
            return m
    return 0


@lru_cache(maxsize=64)
def _tile_index(m: int) -> np.ndarray:
    """Channel numbers 0, 1, 2 repeated ``m`` times (a gain of three taken ``m`` times)."""
    return np.arange(3 * m) % 3


def within(a: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """True where every channel of a sample lies between ``lo`` and ``hi`` (bounds
    included; float32 n×3, all three of one shape): the same booleans as comparing each
    channel and joining the three, in one pass (`cv2.inRange`)."""
    n = len(a)
    if not (a.dtype == lo.dtype == hi.dtype == np.float32) or a.shape != lo.shape or (
            a.shape != hi.shape or a.ndim != 2 or a.shape[-1] != 3):
        both = (a >= lo) & (a <= hi)
        joined: np.ndarray = both[..., 0] & both[..., 1] & both[..., 2]
        return joined
    got = cv2.inRange(a.reshape(n, 1, 3), lo.reshape(n, 1, 3), hi.reshape(n, 1, 3))
    out: np.ndarray = got.reshape(n) > 0
    return out


def upper_quartile(a: np.ndarray) -> np.ndarray:
    """``np.percentile(a, 75, axis=0)`` of a float array without NaN (n×k, n ≥ 1), the same
    numbers (numpy's linear interpolation between the two order statistics around it,
    taken from the upper one when it is the nearer) without its wrappers."""
    s = np.sort(a, axis=0)
    v = (len(a) - 1) * 0.75
    i = int(v)
    t = v - i
    lower, upper = s[i], s[min(i + 1, len(a) - 1)]
    diff = upper - lower
    out: np.ndarray = upper - diff * (1 - t) if t >= 0.5 else lower + diff * t
    return out


def median0(a: np.ndarray) -> np.ndarray:
    """``np.median(a, axis=0)`` of a float array without NaN (n, n×k or n×k×m), the same
    numbers (the middle one, or the mean of the middle two, in ``a``'s type) without the
    wrappers of ``np.median``: the reader takes several medians per region per frame. Of
    an even count, the lower middle is the largest of the values a partition at the upper
    one leaves before it (one selection, not two: a partition at two places cost up to
    ten times one on a region's 7,700 samples)."""
    t = np.ascontiguousarray(a.T if a.ndim <= 2 else np.moveaxis(a, 0, -1))
    n = a.shape[0]
    k = n // 2
    p = np.partition(t, k, axis=-1)
    if n % 2:
        out: np.ndarray = p[..., k]
        return out
    out = (p[..., :k].max(axis=-1) + p[..., k]) / 2
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
    map1: np.ndarray  # every point, in rows of ``FOLD``
    map2: np.ndarray
    slices: dict[tuple[str, str], tuple[int, int, tuple[int, int]]]  # (board, key)
    head: int = 0  # rows of the maps read every frame (each board's coarse grid, its white)
    # each region's own maps, by its (start, end) in the point list: read alone
    parts: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)


FOLD = 1024  # remap refuses rows longer than 32767: point lists are folded into rows
# a board changed over more than this share of its hand grid: every region is remapped at
# once (a remap per region costs more than the pixels it saves)
FILL_SHARE = 0.2


def fold_maps(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap``'s fixed-point maps of a list of points (n×2), in rows of ``FOLD``
    (the tail padded with points off the frame)."""
    pad = (-len(pts)) % FOLD
    pts = np.concatenate([pts, np.full((pad, 2), -10.0, np.float32)])
    m = pts.reshape(-1, FOLD, 2).astype(np.float32)
    map1, map2 = cv2.convertMaps(m, None, cv2.CV_16SC2)  # type: ignore[call-overload]
    return map1, map2


def _remap(frame: np.ndarray, map1: np.ndarray, map2: np.ndarray) -> np.ndarray:
    out: np.ndarray = cv2.remap(frame, map1, map2, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT,
                                borderValue=(0, 0, 0)).reshape(-1, 3)
    return out


class Samples:
    """One frame's samples of a plan (n×3 BGR, indexed by the plan's slices), remapped
    only where they are read: the head (coarse grids, white rings) at once, the rest
    with ``fill`` (one remap: every region will be read) or else region by region when
    a region asks. Interpolation is per point, so a sample is the same either way."""

    def __init__(self, frame: np.ndarray, plan: _Plan) -> None:
        self.frame, self.plan = frame, plan
        self.head = _remap(frame, plan.map1[:plan.head], plan.map2[:plan.head])
        self.start = plan.head * FOLD
        self.tail: np.ndarray | None = None
        self.got: dict[tuple[int, int], np.ndarray] = {}

    def fill(self) -> None:
        """Remap every region's points at once."""
        if self.tail is None:
            self.tail = _remap(self.frame, self.plan.map1[self.plan.head:],
                               self.plan.map2[self.plan.head:])

    def __getitem__(self, part: slice) -> np.ndarray:
        a, b = int(part.start), int(part.stop)
        if b <= self.start:
            return self.head[a:b]
        if self.tail is not None:
            return self.tail[a - self.start:b - self.start]
        hit = self.got.get((a, b))
        if hit is None:
            maps = self.plan.parts.get((a, b))
            if maps is None:  # not one region's points: everything
                self.fill()
                return self[part]
            hit = _remap(self.frame, *maps)[:b - a]
            self.got[(a, b)] = hit
        return hit


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
                speck: float = 0.35, minor: float = 0.45,
                diff: np.ndarray | None = None, cores: bool = False) -> dict[str, int]:
    """Pieces of ``names`` in a grid of labels (0 the board, i+1 ``names[i]``, anything
    else unknown): what is not the board is grouped into blobs (a rim, an emblem or an edge
    of another colour stays within its piece); a blob's kinds are those covering, inside
    its rim, at least ``minor`` of one piece of theirs (else its largest), sharing the
    blob's area, each
    counting its share over one piece's area ``one[i]`` (in samples), at least one. A
    blob smaller than ``speck`` of a piece is noise.

    ``diff`` (the grid's shape × 3: each sample minus the empty board under this light)
    measures a blob's area by how much of a piece each sample holds (``soft_areas``), not
    by how many samples differ: blur, a JPEG's colour bleed and the lens spread a piece
    over more samples but do not change that sum.

    ``cores`` (items: flat pieces): in a blob of several kinds each sample belongs to the
    kind whose core (``_nearest_core``) lies nearest: the rim of a tile, blurred into the
    board, takes another kind's colour (a blue or a dark tile's rim on a green farm is
    grey, a coin's; a red tile's is brown, a horse's) in a band two or three samples wide,
    which no piece is."""
    k3 = np.ones((3, 3), np.uint8)
    given = labels
    fg = cv2.morphologyEx((labels != 0).astype(np.uint8), cv2.MORPH_OPEN, k3)
    k, lab, stats, _c = cv2.connectedComponentsWithStats(fg, connectivity=8)
    # a blob's kinds are voted by its inside: its rim mixes its colour with the board's
    inner = cv2.erode(fg, k3) > 0
    least = np.asarray(one, np.float64)[:len(names)]  # a piece's area, by kind
    out: dict[str, int] = {}
    for i in range(1, k):
        total = float(stats[i, cv2.CC_STAT_AREA])
        # the blob's box and a sample's margin round it (a core is measured from its
        # outside too, a blurred edge falls there): all that is looked at for this blob
        bx, by, bw, bh = (int(v) for v in stats[i, :4])
        box = (slice(max(by - 1, 0), by + bh + 1), slice(max(bx - 1, 0), bx + bw + 1))
        here = lab[box] == i
        cored = False
        if cores:
            if labels is given:
                labels = labels.copy()  # the caller's labels are left as they were
            part = labels[box]
            near = _nearest_core(part, here, len(names))
            cored = near is not part
            labels[box] = near
        part = labels[box]
        votes = part[here & inner[box]]
        frac = votes.size / total  # the inside's share of the blob (of each piece in it)
        if not votes.size or cored:
            # each sample given to the piece whose core lies nearest: no rim is left to
            # leave out, and a piece at the blob's edge (a grain sack beside an ox tile)
            # has few samples inside the blob's own
            votes, frac = part[here], 1.0
        per = np.bincount(votes, minlength=len(names) + 1)[1:len(names) + 1]
        if not per.any():
            continue  # nothing of a known kind: not a piece
        major = np.flatnonzero(per >= minor * least * frac).tolist()
        if not major:
            major = [int(per.argmax())]
            if total < speck * one[major[0]]:
                continue
        if diff is not None:
            soft = soft_areas(diff[box], part, here, here & inner[box], lab[box],
                              [j + 1 for j in major])
        share = float(per[major].sum())
        for j in major:
            x = (soft[j + 1] if diff is not None else total * float(per[j]) / share) / one[j]
            out[names[j]] = out.get(names[j], 0) + max(1, int(np.floor(x + ROUND_UP)))
    return out


def _nearest_core(labels: np.ndarray, blob: np.ndarray, n: int) -> np.ndarray:
    """``labels`` with each sample of ``blob`` given the kind whose core lies nearest
    (labels 1…``n``; a core: the kind's samples at least ``CORE_DEPTH`` from any other; a kind
    without one keeps none of its samples). Unchanged when the blob holds fewer than two
    kinds with a core or with none."""
    # the kinds present, in order (a count of each: np.unique sorts)
    kinds = [int(k) for k in np.flatnonzero(np.bincount(labels[blob].ravel())) if 0 < k <= n]
    if len(kinds) < 2:
        return labels
    dist = []
    for k in kinds:
        own = ((labels == k) & blob).astype(np.uint8)
        depth = cv2.distanceTransform(own, cv2.DIST_L2, 3)
        core = depth >= CORE_DEPTH
        if core.any():
            dist.append((k, cv2.distanceTransform((~core).astype(np.uint8), cv2.DIST_L2, 3)))
    if not dist:
        return labels
    nearest = np.array([k for k, _ in dist])[np.argmin(np.stack([d for _, d in dist]), axis=0)]
    out = labels.copy()
    out[blob] = nearest[blob]
    return out


def soft_areas(diff: np.ndarray, labels: np.ndarray, blob: np.ndarray, inside: np.ndarray,
               lab: np.ndarray, kinds: list[int]) -> dict[int, float]:
    """The area (samples) each of a blob's ``kinds`` (labels) covers, as the sum of how
    much of a piece each sample holds: its difference from the empty board projected on
    the piece's own (the median difference of that kind's samples inside the blob),
    between 0 and 1. Summed over the blob and the ring of samples around it that no other
    blob holds (a blurred edge falls there); a sample of one of the kinds counts for its
    kind, any other (a rim, an edge) for the kind it holds most of."""
    ring = cv2.dilate(blob.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    ring &= (lab == 0) | blob
    d = diff[ring]
    got = labels[ring]
    alpha = np.zeros((len(kinds), len(d)), np.float32)
    for n, k in enumerate(kinds):
        core = diff[inside & (labels == k)]
        if not len(core):
            core = diff[blob & (labels == k)]
        if not len(core):
            continue  # no sample of that kind: it holds none of the blob
        piece = median0(core)
        norm = float(piece @ piece)
        if norm >= 1.0:
            alpha[n] = np.minimum(np.maximum(d @ piece / norm, 0.0), 1.0)  # (np.clip's cost)
    if len(kinds) == 1:  # every sample counts for the one kind
        return {kinds[0]: float(alpha[0].sum())}
    own = got[None, :] == np.array(kinds)[:, None]
    mine = own.any(axis=0)
    best = alpha.argmax(axis=0)
    take = np.where(mine, own.argmax(axis=0), best)
    return {k: float(alpha[n][take == n].sum()) for n, k in enumerate(kinds)}


class Whites(Mapping[str, np.ndarray]):
    """Per board, the gain that makes its markers' white paper white (``WHITE``) in the
    latest frame that found it, computed when a reading first asks for it (a steady frame
    that reads nothing never does): the 75th percentile of its white ring (samples in the
    quiet zone, which blur darkens: 1.15-1.44 times too dark on the real-hard renders) or,
    given ``fitted``, of its markers' whites fitted through the blur
    (``vision/marker_white.py``), the ring's only when no marker's fit passes."""

    def __init__(self) -> None:
        self._ring: dict[str, np.ndarray] = {}
        self._fitted: dict[str, Callable[[], list[np.ndarray]] | None] = {}
        self._gain: dict[str, np.ndarray] = {}

    def see(self, board: str, ring: np.ndarray,
            fitted: Callable[[], list[np.ndarray]] | None = None) -> None:
        """This frame's samples of a board's white ring (n×3) and what gives its
        markers' fitted whites (BGR each) when asked."""
        self._ring[board] = ring.copy()
        self._fitted[board] = fitted
        self._gain.pop(board, None)

    def __getitem__(self, board: str) -> np.ndarray:
        hit = self._gain.get(board)
        if hit is None:
            fitted = self._fitted.get(board)
            whites = fitted() if fitted is not None else []
            white = upper_quartile(np.array(whites) if whites
                                   else self._ring[board].reshape(-1, 3))
            hit = (WHITE / np.maximum(white, 8.0)).astype(np.float32)
            self._gain[board] = hit
        return hit

    def __iter__(self) -> Iterator[str]:
        return iter(self._ring)

    def __len__(self) -> int:
        return len(self._ring)
