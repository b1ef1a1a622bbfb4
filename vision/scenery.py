"""What makes a rendered table look like a real one (``render.Scene(real=True)``).

* a pinhole camera above the table (field of view, tilt, roll) whose lens distorts
  (``vision.lens``), instead of a bare keystone homography;
* printed artwork: illustrations inside and between the regions, titles, numbers, and
  dark printed borders 2–3 mm wide straddling every region's edge;
* cubes as boxes seen from the camera (the sides facing it show, more for a cube far from
  the point under the camera), lit from one side (one side bright, one in shade) and
  casting a shadow on the board; a leaning cube sits higher;
* uneven light: a gradient across the table and the lens's vignetting.

The numbers (a wooden cube's shade, the border width) are eyeballed from photos of board
games, not measured; the lens values come from the bench's camera list
(``vision.bench.CAMERAS``, with their sources).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from .layout import Board
from .lens import Lens

S = 1.5  # canvas pixels per board millimetre (render.S)
INK = (38, 46, 58)  # BGR: the dark printed border and titles


def _rot(axis: str, deg: float) -> np.ndarray:
    a = math.radians(deg)
    c, s = math.cos(a), math.sin(a)
    if axis == "x":
        return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])
    if axis == "y":
        return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def pinhole(lens: Lens, table_mm: tuple[float, float], tilt: float, roll: float, yaw: float,
            aim: tuple[float, float], fill: float = 0.92
            ) -> tuple[np.ndarray, tuple[float, float, float]]:
    """(table mm -> ideal frame px homography, camera position over the table (x, y, height
    in mm)) for a camera aimed at ``aim`` (table mm), at the distance where the distorted
    table just fills ``fill`` of the frame."""
    rot = _rot("z", roll) @ _rot("x", tilt) @ _rot("y", yaw)
    axis = rot.T @ np.array([0.0, 0.0, 1.0])  # optical axis in table coordinates (z down)
    target = np.array([aim[0], aim[1], 0.0])
    tw, th = table_mm
    corners = np.array([[0, 0], [tw, 0], [tw, th], [0, th], [tw / 2, 0], [tw / 2, th],
                        [0, th / 2], [tw, th / 2]], np.float32)
    w, h = lens.size
    dist = 1000.0
    hom = np.eye(3)
    for _ in range(6):
        centre = target - dist * axis
        t = -rot @ centre
        hom = lens.k @ np.column_stack([rot[:, 0], rot[:, 1], t])
        hom /= hom[2, 2]
        ideal = cv2.perspectiveTransform(corners[None], hom)[0]
        seen = lens.distort(ideal)
        ext = max(float(np.abs(seen[:, 0] - w / 2).max()) / (w / 2),
                  float(np.abs(seen[:, 1] - h / 2).max()) / (h / 2))
        dist *= ext / fill
    centre = target - dist * axis
    return hom, (float(centre[0]), float(centre[1]), float(-centre[2]))


def _blobs(img: np.ndarray, rng: np.random.Generator, box: tuple[int, int, int, int],
           base: np.ndarray, n: int, size: tuple[float, float], spread: float,
           alpha: tuple[float, float]) -> None:
    """Illustration: ``n`` soft shapes of colours near ``base`` inside ``box`` (px)."""
    x0, y0, x1, y1 = box
    if x1 - x0 < 4 or y1 - y0 < 4:
        return
    sub = img[y0:y1, x0:x1]
    layer = sub.copy()
    for _ in range(n):
        colour = np.clip(base + rng.normal(0, spread, 3), 0, 255)
        cx, cy = rng.uniform(0, x1 - x0), rng.uniform(0, y1 - y0)
        r = rng.uniform(*size) * S
        if rng.random() < 0.5:
            cv2.ellipse(layer, (int(cx), int(cy)), (int(r), int(r * rng.uniform(0.3, 1))),
                        float(rng.uniform(0, 180)), 0, 360, tuple(float(c) for c in colour), -1,
                        cv2.LINE_AA)
        else:
            pts = np.array([(cx + r * math.cos(a), cy + r * math.sin(a) * rng.uniform(0.4, 1))
                            for a in np.sort(rng.uniform(0, 2 * math.pi, 5))], np.int32)
            cv2.fillConvexPoly(layer, pts, tuple(float(c) for c in colour), cv2.LINE_AA)
    a = float(rng.uniform(*alpha))
    cv2.addWeighted(layer, a, sub, 1 - a, 0, dst=sub)


def _text(img: np.ndarray, rng: np.random.Generator, x: float, y: float, width: float,
          height_mm: float, colour: tuple[int, int, int]) -> None:
    """A printed line of text: dark strokes ``height_mm`` tall from (x, y) mm."""
    at = x
    while at < x + width - 3:
        word = rng.uniform(4, 14)
        end = min(at + word, x + width)
        for k in range(int((end - at) / 1.6)):
            cx = at + k * 1.6
            top = y + (0 if rng.random() < 0.3 else height_mm * 0.3)
            cv2.line(img, (int(cx * S), int(top * S)), (int(cx * S), int((y + height_mm) * S)),
                     colour, 1, cv2.LINE_AA)
        at = end + 2.5


def print_artwork(board: Board, img: np.ndarray) -> None:
    """Paint illustrations, titles and dark borders over a flat printed board (in place).

    Deterministic per board name: the same board is printed the same in every frame.
    """
    rng = np.random.default_rng(sum(map(ord, board.name)) * 31 + 7)
    h, w = img.shape[:2]
    base = np.array(board.print_rgb[::-1], np.float32)
    _blobs(img, rng, (0, 0, w, h), base, 70, (8, 40), 40, (0.35, 0.5))
    for _ in range(int(board.size_mm[0] * board.size_mm[1] / 6000)):
        _text(img, rng, float(rng.uniform(5, board.size_mm[0] - 40)),
              float(rng.uniform(5, board.size_mm[1] - 8)), float(rng.uniform(15, 40)), 2.5, INK)
    for r in board.regions:
        x0, y0, x1, y1 = r.rect
        box = (int(x0 * S), int(y0 * S), int(x1 * S), int(y1 * S))
        fill = np.array(r.print_rgb[::-1], np.float32)
        img[box[1]:box[3], box[0]:box[2]] = fill
        if r.kind in ("cubes", "zone", "items", "area"):
            n = max(3, int((x1 - x0) * (y1 - y0) / 500))
            _blobs(img, rng, box, fill, n, (5, 22), 28, (0.3, 0.45))
        if r.kind == "cubes":
            _text(img, rng, x0 + 4, y0 + 2.5, min(50.0, x1 - x0 - 8), 3.0, INK)
        if r.kind == "track" and r.cell is not None:
            cv2.putText(img, str(r.cell), (int((x0 + 1.5) * S), int((y0 + 5) * S)),
                        cv2.FONT_HERSHEY_PLAIN, 0.5, INK, 1, cv2.LINE_AA)
        width = 1.0 if r.kind == "track" else float(rng.uniform(2.0, 3.0))
        cv2.rectangle(img, (box[0], box[1]), (box[2], box[3]), INK, max(1, round(width * S)),
                      cv2.LINE_AA)


def _square(cx: float, cy: float, size: float, ang: float) -> np.ndarray:
    c, s = math.cos(ang), math.sin(ang)
    return np.array([(cx + size / 2 * (px * c - py * s), cy + size / 2 * (px * s + py * c))
                     for px, py in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float64)


def _seen(pts: np.ndarray, z: float, eye: tuple[float, float, float]) -> np.ndarray:
    """Where points at height z (mm) appear on the board plane from the camera at ``eye``."""
    e = np.array(eye[:2])
    out: np.ndarray = e + (pts - e) * eye[2] / (eye[2] - z)
    return out


def draw_cubes(img: np.ndarray, cubes: list[tuple[float, float, float, float, np.ndarray]],
               size: float, eye: tuple[float, float, float], light_deg: float,
               elevation_deg: float = 40.0) -> None:
    """Draw cubes (cx, cy mm, base height mm, angle, BGR colour) as lit boxes, in place.

    Shadows first (on the board), then the cubes from the farthest from the camera's
    foot to the nearest, so a nearer cube covers the side of the one behind it.
    """
    az, el = math.radians(light_deg), math.radians(elevation_deg)
    to_light = np.array([math.cos(az) * math.cos(el), math.sin(az) * math.cos(el),
                         math.sin(el)])
    ambient = 0.3
    top_b = ambient + (1 - ambient) * to_light[2]
    shade: np.ndarray = np.ones(img.shape[:2], np.float32)
    away = -to_light[:2] / max(1e-6, math.hypot(*to_light[:2])) / math.tan(el)
    for cx, cy, z0, ang, _c in cubes:
        base = _square(cx, cy, size, ang)
        top = base + away * (z0 + size)
        hull = cv2.convexHull(np.concatenate([base + away * z0, top]).astype(np.float32) * S)
        cv2.fillConvexPoly(shade, hull.astype(np.int32), 0.5, cv2.LINE_AA)
    shade = cv2.GaussianBlur(shade, (0, 0), 0.8 * S)
    np.multiply(img, shade[:, :, None], out=img, casting="unsafe")
    e = np.array(eye[:2])
    order = sorted(cubes, key=lambda c: (c[2], -math.hypot(c[0] - e[0], c[1] - e[1])))
    for cx, cy, z0, ang, colour in order:
        base = _square(cx, cy, size, ang)
        bottom = _seen(base, z0, eye)
        top = _seen(base, z0 + size, eye)
        for i in range(4):
            j = (i + 1) % 4
            mid = (base[i] + base[j]) / 2
            normal = mid - np.array([cx, cy])
            normal /= np.linalg.norm(normal)
            if float(normal @ (e - mid)) <= 0:
                continue  # this side faces away from the camera
            b = ambient + (1 - ambient) * max(0.0, float(normal @ to_light[:2]))
            face = np.array([bottom[i], bottom[j], top[j], top[i]]) * S
            tone = np.clip(colour * (b / top_b) * 0.92, 0, 255)
            cv2.fillConvexPoly(img, face.astype(np.int32), tuple(float(v) for v in tone),
                               cv2.LINE_AA)
        cv2.fillConvexPoly(img, (top * S).astype(np.int32),
                           tuple(float(v) for v in np.clip(colour, 0, 255)), cv2.LINE_AA)
        # a worn edge catches the light: a thin brighter line along the lit top edges
        cv2.polylines(img, [(top * S).astype(np.int32)], True,
                      tuple(float(v) for v in np.clip(colour * 1.15 + 12, 0, 255)), 1,
                      cv2.LINE_AA)


def uneven_light(size: tuple[int, int], light_deg: float, gradient: float,
                 vignetting: float) -> np.ndarray:
    """A frame-sized gain: brighter toward the lamp, darker toward the lens's corners."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    nx, ny = (xs - w / 2) / (w / 2), (ys - h / 2) / (w / 2)
    a = math.radians(light_deg)
    g = 1 + gradient * (nx * math.cos(a) + ny * math.sin(a))
    g *= 1 - vignetting * (nx * nx + ny * ny)
    out: np.ndarray = g.astype(np.float32)
    return out


# -- the lens's whole view ----------------------------------------------------------------
# A barrel lens looks beyond the pinhole picture's edges (``lens.ideal_canvas``). The
# renderer draws the ideal picture on a canvas that large, its frame-sized middle drawn
# exactly as before (so that a frame's pixels there do not change with the canvas: the
# bench's rows stay comparable), and bends it with ``through_lens``.

def on_canvas(img: np.ndarray, offset: tuple[int, int], size: tuple[int, int]) -> np.ndarray:
    """A frame-sized field placed at ``offset`` on a canvas of ``size`` (width, height),
    its edges carried on beyond the frame."""
    if offset == (0, 0) and size == (img.shape[1], img.shape[0]):
        return img
    m = np.array([[1.0, 0, offset[0]], [0, 1.0, offset[1]]])
    out: np.ndarray = cv2.warpAffine(img, m, size, flags=cv2.INTER_NEAREST,
                                     borderMode=cv2.BORDER_REPLICATE)
    return out


def through_lens(canvas: np.ndarray, offset: tuple[int, int], maps: tuple[np.ndarray, np.ndarray],
                 border: tuple[int, int, int]) -> np.ndarray:
    """The frame a lens makes of an ideal ``canvas`` (the pinhole picture at ``offset``;
    ``maps``: each frame pixel's place in the pinhole picture, `lens.distortion_map`).
    Pixels looking inside the pinhole picture are sampled from it as a frame-sized remap
    would; the others from the canvas around it."""
    mx, my = maps
    ox, oy = offset
    h, w = my.shape
    middle = canvas[oy:oy + h, ox:ox + w]
    out: np.ndarray = cv2.remap(middle, mx, my, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=border)
    beyond = (mx < 1) | (my < 1) | (mx > w - 2) | (my > h - 2)
    if (ox or oy or canvas.shape[:2] != middle.shape[:2]) and beyond.any():
        wide = cv2.remap(canvas, mx + ox, my + oy, cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=border)
        out[beyond] = wide[beyond]
    return out
