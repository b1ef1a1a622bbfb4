"""Synthetic table images with ground truth, for tests, the bench and the demo.

``render(view, scene)`` draws the boards of the layout with the pieces of a
``TableView`` (cubes jittered, touching, partly stacked; discs on track cells; meeples in
zones), seen by a camera under ``scene``'s perspective, light, shadows, hands, blur and
noise. The result carries the ground truth: the view, the regions a hand covers, and the
homographies. Drawing happens in board millimetres, so it follows the layout file.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import scenery
from .layout import Board, Layout, Region
from .lens import Lens, distortion_map, ideal_canvas
from .table import TableView

S = 1.5  # canvas pixels per board millimetre
TABLE_MM = (1040.0, 585.0)
FRAME = (1280, 720)
# Where each board lies on the table (x, y of its top-left corner in table mm, degrees).
POSES: dict[str, tuple[float, float, float]] = {
    "main": (220.0, 82.0, 0.0),
    "farm:red": (10.0, 40.0, 0.0),
    "farm:yellow": (10.0, 330.0, 0.0),
    "farm:blue": (830.0, 40.0, 0.0),
    "farm:white": (830.0, 330.0, 0.0),
}
SKIN = [(224, 172, 150), (198, 140, 108), (160, 110, 80), (110, 74, 52), (70, 48, 36)]
DICTIONARY = cv2.aruco.DICT_4X4_50


@dataclass
class Scene:
    """How the table is seen. Colours are RGB; ``light`` multiplies each channel."""

    seed: int = 0
    perspective: float = 0.04  # keystone strength (fraction of the frame)
    rotation: float = 0.0  # camera roll, degrees
    blur: float = 0.0  # Gaussian sigma in frame pixels
    noise: float = 2.0  # Gaussian noise sigma (0–255 scale)
    light: tuple[float, float, float] = (1.0, 1.0, 1.0)
    level: float = 1.0
    shadows: int = 0  # number of soft shadows
    hands: list[tuple[float, float]] = field(default_factory=list)  # fingertip, table mm
    hand_skin: int = 0
    poses: dict[str, tuple[float, float, float]] = field(default_factory=dict)
    camera: int | None = None  # the camera's pose comes from this (default: ``seed``)
    pieces: int | None = None  # where pieces lie comes from this (default: ``seed``)
    # where each region's pieces lie comes from its own number (a region is drawn anew
    # only when its number changes): a table whose untouched pieces stay put
    placing: dict[str, int] | None = None
    # -- a real table (``scenery``): off by default, the ideal renderer above ----------
    real: bool = False  # pinhole camera + lens, printed artwork, lit 3-D cubes, uneven light
    fov: float = 70.0  # horizontal field of view, degrees
    k1: float = 0.0  # radial distortion (OpenCV's model; negative = barrel)
    k2: float = 0.0
    tilt: float = 0.0  # camera tilted this many degrees from looking straight down
    light_deg: float = 135.0  # where the lamp is (azimuth on the table, degrees)
    gradient: float = 0.0  # light falls off across the table by ± this fraction
    vignetting: float = 0.0  # the lens darkens its corners by this fraction
    jpeg: int = 0  # JPEG quality the camera compresses with (0: none)
    skin: tuple[int, int, int] | None = None  # the hand's skin (RGB), overrides hand_skin


@dataclass
class Rendered:
    """A frame (BGR uint8) and what is truly on it."""

    image: np.ndarray
    view: TableView
    covered: set[str]  # region keys ("main/space:harvest", "main/prestige#3") under a hand
    homographies: dict[str, np.ndarray]  # board mm -> frame pixels (ideal pixels with a lens)
    lens: Lens | None = None  # the lens that distorted the frame (``Scene.real``)

    def to_frame(self, board: str, pts: np.ndarray) -> np.ndarray:
        """Board mm points (n×2) -> where they truly are in the frame (lens included)."""
        ideal = cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(1, -1, 2),
                                         self.homographies[board])[0]
        return ideal if self.lens is None else self.lens.distort(ideal)


def _rgb2bgr(c: tuple[int, ...]) -> tuple[int, int, int]:
    return (int(c[2]), int(c[1]), int(c[0]))


_EMPTY: dict[tuple[int, str, bool], tuple[Board, np.ndarray]] = {}


def _empty_board(board: Board, artwork: bool = False) -> np.ndarray:
    """The printed board without pieces (cached per board object)."""
    hit = _EMPTY.get((id(board), board.name, artwork))
    if hit is not None and hit[0] is board:
        return hit[1]
    img = _print_board(board, artwork)
    if len(_EMPTY) > 32:
        _EMPTY.clear()
    _EMPTY[(id(board), board.name, artwork)] = (board, img)
    return img


def _print_board(board: Board, artwork: bool = False) -> np.ndarray:
    w, h = int(board.size_mm[0] * S), int(board.size_mm[1] * S)
    img: np.ndarray = np.empty((h, w, 3), np.uint8)
    img[:] = _rgb2bgr(board.print_rgb)
    rng = np.random.default_rng(len(board.name))
    tex: np.ndarray = rng.normal(0, 4, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
    tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_CUBIC)[:, :, None]
    img = np.clip(img.astype(np.float32) + tex, 0, 255).astype(np.uint8)
    for r in board.regions if not artwork else ():
        x0, y0, x1, y1 = (int(v * S) for v in r.rect)
        cv2.rectangle(img, (x0, y0), (x1, y1), _rgb2bgr(r.print_rgb), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), (60, 70, 90), 1, cv2.LINE_AA)
        if r.kind in ("cubes", "area", "zone"):  # a little printed art: an emblem
            cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
            darker = tuple(int(c * 0.8) for c in _rgb2bgr(r.print_rgb))
            cv2.circle(img, (cx, cy), max(3, (y1 - y0) // 6), darker, 1, cv2.LINE_AA)
    if artwork:
        scenery.print_artwork(board, img)
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    side = int(board.marker_mm * S)
    margin = int(4 * S)
    for mid, (x, y) in board.markers.items():
        px, py = int(x * S), int(y * S)
        img[py - margin:py + side + margin, px - margin:px + side + margin] = 255
        mk = cv2.aruco.generateImageMarker(dictionary, mid, side)
        img[py:py + side, px:px + side] = mk[:, :, None]
    return img


def _square(cx: float, cy: float, size: float, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    pts = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    return np.array([(cx + size / 2 * (px * c - py * s), cy + size / 2 * (px * s + py * c))
                     for px, py in pts], np.float32)


def _place(rng: np.random.Generator, region: Region, n: int, size: float, gap: float,
           stack_p: float, inset_factor: float = 0.75) -> list[tuple[float, float, bool]]:
    """Centres (mm) for n pieces in a region: jittered, some touching, some partly stacked.

    A stacked piece leans on one lying piece (covering part of it); it never lies on a
    stacked piece, and a lying piece carries at most one (a cube wholly hidden under
    others cannot be counted by any camera).
    """
    x0, y0, x1, y1 = region.rect
    inset = size * inset_factor
    placed: list[tuple[float, float, bool]] = []
    leaned: set[int] = set()  # a cube leans on one lying cube, which carries only one
    base = -1
    for _ in range(n):
        for _attempt in range(200):
            bases = [i for i, p in enumerate(placed) if not p[2] and i not in leaned]
            if bases and rng.random() < stack_p:
                base = bases[int(rng.integers(len(bases)))]
                bx, by, _s = placed[base]
                ang = rng.uniform(0, 2 * math.pi)
                d = size * rng.uniform(0.7, 0.8)
                cx, cy, stacked = bx + d * math.cos(ang), by + d * math.sin(ang), True
            else:
                cx, cy = rng.uniform(x0 + inset, x1 - inset), rng.uniform(y0 + inset, y1 - inset)
                stacked = False
            if not (x0 + inset * 0.8 <= cx <= x1 - inset * 0.8
                    and y0 + inset * 0.8 <= cy <= y1 - inset * 0.8):
                continue
            limit = size * (0.68 if stacked else gap)
            if all(math.hypot(cx - px, cy - py) >= limit for px, py, _ in placed):
                placed.append((cx, cy, stacked))
                if stacked:
                    leaned.add(base)
                break
        else:
            raise ValueError(f"{region.name}: no room for {n} pieces")
    return placed


def _draw_board(layout: Layout, board: Board, view: TableView, rng: np.random.Generator,
                eye: tuple[float, float, float] | None = None,
                light_deg: float = 135.0,
                placing: dict[str, int] | None = None) -> np.ndarray:
    """The board with its pieces, in board mm × S. ``eye`` (the camera's position in
    board mm and its height) draws real boards: artwork, cubes as lit boxes. ``placing``:
    each region's pieces from a stream of their own (``Scene.placing``), else all from
    ``rng`` in turn."""
    img = _empty_board(board, eye is not None).copy()
    size = layout.cube_mm
    boxes: list[tuple[float, float, float, float, np.ndarray]] = []
    for r in board.regions:
        rr = rng if placing is None else _region_rng(placing, r.name)
        if r.kind == "cubes" and view.cubes.get(r.name) and eye is not None:
            colours = [c for c, n in sorted(view.cubes[r.name].items()) for _ in range(n)]
            rr.shuffle(colours)
            # touching is common on a real board: centres as close as ~one cube apart
            for (cx, cy, stacked), colour in zip(_place(rr, r, len(colours), size, 1.05, 0.12),
                                                 colours, strict=True):
                base = np.array(layout.cube_rgb[colour][::-1], np.float32)
                tint = np.clip(base * rr.uniform(0.92, 1.08) + rr.normal(0, 4, 3), 0, 255)
                boxes.append((cx, cy, size * 0.55 if stacked else 0.0,
                              float(rr.uniform(0, math.pi / 2)), tint))
        elif r.kind == "cubes" and view.cubes.get(r.name):
            colours = [c for c, n in sorted(view.cubes[r.name].items()) for _ in range(n)]
            rr.shuffle(colours)
            spots = _place(rr, r, len(colours), size, 1.12, 0.12)
            # stacked cubes are drawn last, so they lie on top of the others
            order = sorted(range(len(spots)), key=lambda i: spots[i][2])
            for i in order:
                cx, cy, stacked = spots[i]
                base = np.array(layout.cube_rgb[colours[i]], np.float32)
                tint = np.clip(base * rr.uniform(0.92, 1.08) + rr.normal(0, 4, 3), 0, 255)
                ang = rr.uniform(0, math.pi / 2)
                lift = 1.6 if stacked else 0.0
                side = _square(cx + 1.2, cy + 1.4, size, ang) * S
                top = _square(cx - lift, cy - lift, size, ang) * S
                cv2.fillConvexPoly(img, side.astype(np.int32),
                                   _rgb2bgr(tuple(int(v) for v in tint * 0.62)), cv2.LINE_AA)
                cv2.fillConvexPoly(img, top.astype(np.int32),
                                   _rgb2bgr(tuple(int(v) for v in tint)), cv2.LINE_AA)
        elif r.kind == "track" and r.name in view.tracks:
            here = [c for c, cell in sorted(view.tracks[r.name].items()) if cell == r.cell]
            x0, y0, x1, y1 = r.rect
            for k, colour in enumerate(here):
                offset = (k - (len(here) - 1) / 2) * layout.disc_mm * 0.55
                horizontal = (x1 - x0) >= (y1 - y0)
                cx = (x0 + x1) / 2 + (offset if horizontal else 0) + rr.normal(0, 1.0)
                cy = (y0 + y1) / 2 + (0 if horizontal else offset) + rr.normal(0, 1.0)
                rad = layout.disc_mm / 2 * S
                rgb = layout.marker_rgb[colour]
                cv2.circle(img, (int(cx * S + 2), int(cy * S + 2)), int(rad),
                           _rgb2bgr(tuple(int(v * 0.6) for v in rgb)), -1, cv2.LINE_AA)
                cv2.circle(img, (int(cx * S), int(cy * S)), int(rad), _rgb2bgr(rgb), -1,
                           cv2.LINE_AA)
        elif r.kind == "items" and view.items.get(r.name):
            _draw_items(img, layout, r, view.items[r.name], rr)
        elif r.kind == "token":
            _draw_tokens(img, layout, r, view.tokens)
        elif r.kind == "zone" and view.zones.get(r.name):
            pieces = view.zones[r.name]
            try:
                spots = _place(rr, r, len(pieces), 13.0, 1.0, 0.0, inset_factor=0.6)
            except ValueError:
                continue  # too many figures to draw apart: draw none (the truth still has them)
            for (cx, cy, _), piece in zip(spots, pieces, strict=True):
                colour = piece.partition("-")[0]
                rgb = layout.marker_rgb.get(colour, layout.monk_rgb)
                cv2.ellipse(img, (int(cx * S), int(cy * S)), (int(6 * S), int(7 * S)), 0, 0, 360,
                            _rgb2bgr(rgb), -1, cv2.LINE_AA)
                cv2.circle(img, (int(cx * S), int((cy - 7) * S)), int(3.5 * S), _rgb2bgr(rgb), -1,
                           cv2.LINE_AA)
    if boxes and eye is not None:
        scenery.draw_cubes(img, boxes, size, eye, light_deg)
    return img


def _region_rng(placing: dict[str, int], name: str) -> np.random.Generator:
    """The stream a region's pieces are placed from: its number in ``placing`` (0 if it
    has none) and its name."""
    return np.random.default_rng((placing.get(name, 0), zlib.crc32(name.encode())))


def _draw_tokens(img: np.ndarray, layout: Layout, region: Region, tokens: dict[str, str]
                 ) -> None:
    """The first-player tokens lying in ``region`` (``first_player:home`` or
    ``first_player:<colour>``): flat discs of their own colours, side by side."""
    place = region.name.partition(":")[2]
    here = [k for k in ("first", "next") if tokens.get(k) == place]
    # a jitter of its own: the scene's stream, and so every other piece's place, is the
    # same with or without tokens
    rng = np.random.default_rng(sum(map(ord, region.name)) + 7 * len(here))
    x0, y0, x1, y1 = region.rect
    rad = layout.token_mm / 2
    for k, which in enumerate(here):
        offset = (k - (len(here) - 1) / 2) * (rad * 2 + 1)
        cx = (x0 + x1) / 2 + offset + rng.normal(0, 0.8)
        cy = (y0 + y1) / 2 + rng.normal(0, 0.8)
        rgb = layout.token_rgb[which]
        cv2.circle(img, (int(cx * S + 2), int(cy * S + 2)), int(rad * S),
                   _rgb2bgr(tuple(int(v * 0.6) for v in rgb)), -1, cv2.LINE_AA)
        cv2.circle(img, (int(cx * S), int(cy * S)), int(rad * S), _rgb2bgr(rgb), -1,
                   cv2.LINE_AA)


def _draw_items(img: np.ndarray, layout: Layout, region: Region, items: dict[str, int],
                rng: np.random.Generator) -> None:
    """Grain sacks (round, tied at the top), coins (discs with a rim) and goods tiles
    (squares with a printed emblem) lying flat in an item region, touching now and then,
    each with a thin dark edge where its thickness shows."""
    names = [k for k, n in sorted(items.items()) for _ in range(n)]
    rng.shuffle(names)
    try:
        spots = _place(rng, region, len(names), layout.item_mm["tile"], 1.0, 0.0,
                       inset_factor=0.6)
    except ValueError:
        return  # too many to draw apart: draw none (the truth still has them)
    for (cx, cy, _), name in zip(spots, names, strict=True):
        base = np.array(layout.item_rgb[name], np.float32)
        tint = np.clip(base * rng.uniform(0.94, 1.06) + rng.normal(0, 3, 3), 0, 255)
        col = _rgb2bgr(tuple(int(v) for v in tint))
        edge = _rgb2bgr(tuple(int(v * 0.6) for v in tint))
        centre = (int(cx * S), int(cy * S))
        if name == "coin":
            rad = int(layout.item_mm["coin"] / 2 * S)
            cv2.circle(img, (centre[0] + 1, centre[1] + 2), rad, edge, -1, cv2.LINE_AA)
            cv2.circle(img, centre, rad, col, -1, cv2.LINE_AA)
            cv2.circle(img, centre, int(rad * 0.72), edge, 1, cv2.LINE_AA)
        elif name == "grain":
            ax = (int(layout.item_mm["grain"] / 2 * S), int(layout.item_mm["grain"] * 0.42 * S))
            ang = float(rng.uniform(0, 180))
            cv2.ellipse(img, (centre[0] + 1, centre[1] + 2), ax, ang, 0, 360, edge, -1,
                        cv2.LINE_AA)
            cv2.ellipse(img, centre, ax, ang, 0, 360, col, -1, cv2.LINE_AA)
        else:
            ang = float(rng.uniform(0, math.pi / 2))
            side = layout.item_mm["tile"]
            cv2.fillConvexPoly(img, (_square(cx + 0.7, cy + 1.2, side, ang) * S).astype(
                np.int32), edge, cv2.LINE_AA)
            cv2.fillConvexPoly(img, (_square(cx, cy, side, ang) * S).astype(np.int32), col,
                               cv2.LINE_AA)
            emblem = _rgb2bgr(tuple(int(v * 0.8) for v in tint))
            cv2.circle(img, centre, int(side * 0.22 * S), emblem, 1, cv2.LINE_AA)


def _board_to_table(name: str, board: Board, pose: tuple[float, float, float]) -> np.ndarray:
    x, y, deg = pose
    w, h = board.size_mm
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    # rotate about the board's centre, then place
    cx, cy = w / 2, h / 2
    return np.array([[c, -s, x + cx - c * cx + s * cy], [s, c, y + cy - s * cx - c * cy],
                     [0, 0, 1]], np.float64)


def on_table(layout: Layout, region: str, scene: Scene | None = None
             ) -> tuple[float, float] | None:
    """Where region ``region`` (a name such as ``space:market``, or a key such as
    ``prestige#12``) lies on the table, in table mm (its centre; several rectangles of
    one name: their middle), for a hand placed over it; None if no board has it."""
    poses = scene.poses if scene is not None else {}
    pts: list[tuple[float, float]] = []
    for name, board in layout.boards.items():
        rects = [r.rect for r in board.regions if region in (r.name, r.key)]
        if not rects:
            continue
        m = _board_to_table(name, board, poses.get(name, POSES[name]))
        for x0, y0, x1, y1 in rects:
            x, y = (x0 + x1) / 2, (y0 + y1) / 2
            pts.append((float(m[0, 0] * x + m[0, 1] * y + m[0, 2]),
                        float(m[1, 0] * x + m[1, 1] * y + m[1, 2])))
    if not pts:
        return None
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def camera_matrix(scene: Scene) -> np.ndarray:
    """Table mm -> frame pixels for this scene (keystone + roll, deterministic by seed)."""
    rng = np.random.default_rng((scene.seed if scene.camera is None else scene.camera) + 7919)
    fw, fh = FRAME
    tw, th = TABLE_MM
    k = 0.9
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    base = np.array([[fw * (1 - k) / 2, fh * (1 - k) / 2], [fw * (1 + k) / 2, fh * (1 - k) / 2],
                     [fw * (1 + k) / 2, fh * (1 + k) / 2], [fw * (1 - k) / 2, fh * (1 + k) / 2]],
                    np.float32)
    p = scene.perspective
    jitter = rng.uniform(0, p, (4, 2)) * np.array([fw, fh]) * np.array(
        [[1, 1], [-1, 1], [-1, -1], [1, -1]])
    dst = base + jitter.astype(np.float32)
    if scene.rotation:
        m = cv2.getRotationMatrix2D((fw / 2, fh / 2), scene.rotation, 1.0)
        dst = cv2.transform(dst[None], m)[0].astype(np.float32)
    out: np.ndarray = cv2.getPerspectiveTransform(src, dst)
    return out


def _hand_mask(scene: Scene, cam: np.ndarray, offset: tuple[int, int] = (0, 0),
               size: tuple[int, int] = FRAME) -> np.ndarray:
    """The hands' silhouettes on an ideal picture of ``size`` whose pixels are the
    frame's shifted by ``offset`` (``cam`` maps to them); a hand at the same fingertip is
    drawn the same (it rests)."""
    fh = FRAME[1]
    oy = offset[1]
    mask = np.zeros((size[1], size[0]), np.uint8)
    for tip in scene.hands:
        rng = np.random.default_rng(int(tip[0] * 7919 + tip[1] * 104729) & 0xFFFFFFFF)
        p = cv2.perspectiveTransform(np.array([[tip]], np.float32), cam)[0, 0]
        # the arm comes from the nearest long edge (players sit along the long sides)
        base = (p[0] + rng.uniform(-150, 150),
                (fh + 60 if p[1] - oy > fh / 2 else -60) + oy)
        d = np.array(p) - np.array(base)
        d /= np.linalg.norm(d) + 1e-9
        n = np.array([-d[1], d[0]])
        arm_w = 48 + rng.uniform(-6, 6)
        palm = np.array(p) - d * 45
        pts = np.array([np.array(base) + n * arm_w, palm + n * arm_w * 0.9,
                        palm - n * arm_w * 0.9, np.array(base) - n * arm_w], np.int32)
        cv2.fillConvexPoly(mask, pts, 255, cv2.LINE_AA)
        # the arm goes on past the frame's edge (a wide lens sees beyond it)
        root = np.array(base) - d * max(size)
        cv2.fillConvexPoly(mask, np.array([root + n * arm_w, np.array(base) + n * arm_w,
                                           np.array(base) - n * arm_w, root - n * arm_w],
                                          np.int32), 255, cv2.LINE_AA)
        ang = math.degrees(math.atan2(d[1], d[0]))
        cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (58, 46), ang, 0, 360, 255, -1,
                    cv2.LINE_AA)
        for f in (-2, -1, 0, 1):  # fingers
            q = palm + n * f * 16 + n * 8 + d * 40
            cv2.line(mask, (int(palm[0] + n[0] * f * 16), int(palm[1] + n[1] * f * 16)),
                     (int(q[0]), int(q[1])), 255, 13, cv2.LINE_AA)
    return mask


def _soft_shadow(rng: np.random.Generator, n: int) -> np.ndarray:
    fw, fh = FRAME
    small: np.ndarray = np.ones((fh // 8, fw // 8), np.float32)
    for _ in range(n):
        cx, cy = rng.uniform(0, fw // 8), rng.uniform(0, fh // 8)
        pts = np.array([(cx + rng.uniform(-40, 40), cy + rng.uniform(-30, 30))
                        for _ in range(5)], np.int32)
        cv2.fillConvexPoly(small, cv2.convexHull(pts), float(rng.uniform(0.55, 0.75)))
    small = cv2.GaussianBlur(small, (0, 0), 4)
    out: np.ndarray = cv2.resize(small, FRAME, interpolation=cv2.INTER_LINEAR)
    return out


def render(layout: Layout, view: TableView, scene: Scene) -> Rendered:
    """Draw the table as the camera sees it, with the ground truth."""
    rng = np.random.default_rng(scene.seed)
    prng = rng if scene.pieces is None else np.random.default_rng(scene.pieces)
    tw, th = TABLE_MM
    table = np.empty((int(th * S), int(tw * S), 3), np.uint8)
    table[:] = (40, 62, 92)  # a wooden table (BGR)
    scale = np.diag([S, S, 1.0])
    homographies: dict[str, np.ndarray] = {}
    lens: Lens | None = None
    eye: tuple[float, float, float] | None = None
    if scene.real:
        lens, cam, eye = real_camera(scene)
    else:
        cam = camera_matrix(scene)
    for name, board in layout.boards.items():
        pose = scene.poses.get(name, POSES[name])
        to_table = _board_to_table(name, board, pose)
        board_eye = None
        if eye is not None:  # the camera's foot in this board's millimetres
            bx, by, _one = np.linalg.inv(to_table) @ np.array([eye[0], eye[1], 1.0])
            board_eye = (float(bx), float(by), eye[2])
        img = _draw_board(layout, board, view, prng, board_eye, scene.light_deg,
                          scene.placing)
        m = (scale @ to_table @ np.linalg.inv(scale))[:2]
        cv2.warpAffine(img, m, (table.shape[1], table.shape[0]), dst=table,
                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
        homographies[name] = cam @ to_table
    # the ideal (pinhole) picture, grown to hold all the lens looks at (``ideal_canvas``)
    (ox, oy), size = ((0, 0), FRAME) if lens is None else ideal_canvas(lens)
    shift = np.array([[1.0, 0, ox], [0, 1.0, oy], [0, 0, 1]])
    frame = cv2.warpPerspective(table, cam @ np.linalg.inv(scale), FRAME, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(30, 40, 60))
    if lens is not None:  # the frame-sized middle as drawn before, the rest around it
        wide = cv2.warpPerspective(table, shift @ cam @ np.linalg.inv(scale), size,
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                                   borderValue=(30, 40, 60))
        wide[oy:oy + FRAME[1], ox:ox + FRAME[0]] = frame
        frame = wide
    f: np.ndarray = frame.astype(np.float32)
    gain = np.array(scene.light[::-1], np.float32) * scene.level
    f *= gain
    if scene.shadows:
        f *= scenery.on_canvas(_soft_shadow(rng, scene.shadows), (ox, oy), size)[:, :, None]
    covered: set[str] = set()
    if scene.hands:
        mask = _hand_mask(scene, shift @ cam, (ox, oy), size)
        shadow = cv2.GaussianBlur(np.roll(mask, (18, 24), (0, 1)), (0, 0), 9)
        f *= (1 - 0.45 * shadow.astype(np.float32) / 255)[:, :, None]
        rgb = scene.skin or SKIN[scene.hand_skin % len(SKIN)]
        skin = np.array(rgb[::-1], np.float32) * gain
        skin_tex: np.ndarray = rng.normal(1.0, 0.05, (FRAME[1] // 16, FRAME[0] // 16)).astype(
            np.float32)
        skin_tex = scenery.on_canvas(cv2.resize(skin_tex, FRAME), (ox, oy), size)[:, :, None]
        if scene.real:  # a hand is round: its edges turn away from the light
            rim = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 10)
            skin_tex = skin_tex * (0.72 + 0.28 * np.clip(rim * 2 - 1, 0, 1))[:, :, None]
        a = (mask.astype(np.float32) / 255)[:, :, None]
        f = f * (1 - a) + skin * skin_tex * a
        covered = _covered(layout, {n: shift @ h for n, h in homographies.items()}, mask)
    if lens is not None:
        f = scenery.through_lens(f, (ox, oy), distortion_map(lens), (30, 40, 60))
    if scene.gradient or scene.vignetting:
        f *= scenery.uneven_light(FRAME, scene.light_deg, scene.gradient,
                                  scene.vignetting)[:, :, None]
    if scene.blur > 0:
        f = cv2.GaussianBlur(f, (0, 0), scene.blur)
    if scene.noise > 0:
        f += rng.normal(0, scene.noise, f.shape).astype(np.float32)
    image = np.clip(f, 0, 255).astype(np.uint8)
    if scene.jpeg:
        image = _jpeg(image, scene.jpeg)
    return Rendered(image, view, covered, homographies, lens)


def _jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    """The image as the camera's JPEG encoder leaves it."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return image if out is None else np.asarray(out, np.uint8)


def real_camera(scene: Scene) -> tuple[Lens, np.ndarray, tuple[float, float, float]]:
    """(the lens, table mm -> ideal frame px, the camera over the table (x, y, height mm))
    for a real scene: aimed near the table's centre, rolled and slightly turned, at the
    distance where the table fills the frame (deterministic by ``camera`` or ``seed``)."""
    rng = np.random.default_rng((scene.seed if scene.camera is None else scene.camera) + 7919)
    lens = Lens.from_fov(FRAME, scene.fov, scene.k1, scene.k2)
    tw, th = TABLE_MM
    aim = (tw / 2 + float(rng.uniform(-20, 20)), th / 2 + float(rng.uniform(-15, 15)))
    hom, eye = scenery.pinhole(lens, TABLE_MM, scene.tilt, scene.rotation,
                               float(rng.uniform(-2, 2)), aim)
    return lens, hom, eye


def _covered(layout: Layout, homographies: dict[str, np.ndarray], mask: np.ndarray) -> set[str]:
    out: set[str] = set()
    for name, board in layout.boards.items():
        h = homographies[name]
        for r in board.regions:
            x0, y0, x1, y1 = r.rect
            poly = cv2.perspectiveTransform(
                np.array([[(x0, y0), (x1, y0), (x1, y1), (x0, y1)]], np.float32), h)[0]
            bx, by, bw, bh = cv2.boundingRect(poly.astype(np.int32))
            if bw <= 0 or bh <= 0:
                continue
            sub = mask[max(by, 0):by + bh, max(bx, 0):bx + bw]
            if sub.size == 0 or not sub.any():
                continue
            poly_mask = np.zeros_like(sub)
            cv2.fillConvexPoly(poly_mask, (poly - [max(bx, 0), max(by, 0)]).astype(np.int32), 255)
            if np.count_nonzero((sub > 127) & (poly_mask > 0)) >= 3:
                out.add(f"{name}/{r.key}")
    return out


def render_sheet(scene: Scene, view: int, sheet_img: np.ndarray, sheet_mm: tuple[float, float]
                 ) -> np.ndarray:
    """Photo number ``view`` of a printed sheet (grey, its size in mm) held in front of the
    camera of a real ``scene`` (its lens, light, blur, noise, JPEG): the sheet's centre
    goes round a 3×3 grid of places over the frame, tilted up to ±35° — what a person does
    when asked to "hold the sheet here, tilt it"."""
    rng = np.random.default_rng(scene.seed * 7919 + view)
    lens = Lens.from_fov(FRAME, scene.fov, scene.k1, scene.k2)
    fw, fh = FRAME
    gx, gy = view % 3, (view // 3) % 3
    u = fw * (0.2 + 0.3 * gx) + rng.uniform(-40, 40)
    v = fh * (0.22 + 0.28 * gy) + rng.uniform(-30, 30)
    rot = (scenery._rot("z", float(rng.uniform(-20, 20)))
           @ scenery._rot("x", float(rng.uniform(-35, 35)))
           @ scenery._rot("y", float(rng.uniform(-35, 35))))
    f = lens.k[0, 0]
    dist = f * sheet_mm[0] / (float(rng.uniform(0.4, 0.55)) * fw)
    ray = np.linalg.inv(lens.k) @ np.array([u, v, 1.0])
    centre = np.array([sheet_mm[0] / 2, sheet_mm[1] / 2, 0.0])
    t = ray / ray[2] * dist - rot @ centre
    hom = lens.k @ np.column_stack([rot[:, 0], rot[:, 1], t])
    small = cv2.resize(sheet_img, None, fx=1 / 3, fy=1 / 3, interpolation=cv2.INTER_AREA)
    px_per_mm = small.shape[1] / sheet_mm[0]
    to_frame = hom @ np.diag([1 / px_per_mm, 1 / px_per_mm, 1.0])
    (ox, oy), size = ideal_canvas(lens)  # all the lens looks at, not the frame only
    shift = np.array([[1.0, 0, ox], [0, 1.0, oy], [0, 0, 1]])
    f_img: np.ndarray = np.empty((size[1], size[0], 3), np.float32)
    f_img[:] = (40, 62, 92)
    for to, at, wh in ((shift @ to_frame, (0, 0), size), (to_frame, (ox, oy), FRAME)):
        # the canvas, then its frame-sized middle drawn as before (``scenery.through_lens``)
        paper = cv2.warpPerspective(cv2.cvtColor(small, cv2.COLOR_GRAY2BGR), to, wh,
                                    flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                                    borderValue=(-1, -1, -1))
        inside = cv2.warpPerspective(np.full(small.shape, 255, np.uint8), to, wh,
                                     flags=cv2.INTER_LINEAR) > 127
        part = f_img[at[1]:at[1] + wh[1], at[0]:at[0] + wh[0]]
        part[:] = (40, 62, 92)
        part[inside] = paper[inside]
    f_img *= np.array(scene.light[::-1], np.float32) * scene.level * 0.85
    f_img = scenery.through_lens(f_img, (ox, oy), distortion_map(lens), (40, 62, 92))
    if scene.blur > 0:
        f_img = cv2.GaussianBlur(f_img, (0, 0), scene.blur)
    if scene.noise > 0:
        f_img += rng.normal(0, scene.noise, f_img.shape).astype(np.float32)
    image = np.clip(f_img, 0, 255).astype(np.uint8)
    if scene.jpeg:
        image = _jpeg(image, scene.jpeg)
    return image
