"""The board layout as data: regions in board millimetres, named with the table vocabulary.

``layout.json`` beside this module is the shipped best guess (``"verified": false``); an
owner's calibration is a copy of it with corrected rectangles and colours
(``vision.calibration``). Names follow ``docs/sensing.md`` (``space:harvest``,
``time:red``, ``prestige``, ``council:2``…); vision keeps its own copy of these strings
and imports nothing from ``companion``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

SHIPPED = Path(__file__).with_name("layout.json")
CUBE_COLOURS = ("brown", "pink", "orange", "green", "plague")
FAMILY_COLOURS = ("red", "yellow", "blue", "white")
MONK = "black"  # the monks' colour, counted with the family figures
ITEM_NAMES = ("grain", "coin", "scroll", "horse", "ox", "plough", "wagon")
GOODS = ITEM_NAMES[2:]  # square tiles; grain sacks and coins have their own sizes
_ITEM_RGB = {"grain": (230, 186, 60), "coin": (150, 150, 160), "scroll": (244, 240, 225),
             "horse": (128, 84, 48), "ox": (60, 56, 52), "plough": (80, 120, 170),
             "wagon": (180, 70, 50)}
_ITEM_MM = {"grain": 12.0, "coin": 15.0, "tile": 16.0}
# the First Player and Next First Player markers (``token`` regions)
_TOKEN_RGB = {"first": (128, 48, 168), "next": (0, 168, 186)}


class LayoutError(ValueError):
    """A layout file that is not one (missing keys, bad rectangles, unknown kinds)."""


@dataclass(frozen=True)
class Region:
    """A rectangle on one board: ``kind`` is cubes, track (one cell), zone (figures),
    items (grain, coins and goods tiles), token (where the first-player tokens lie) or
    area (not read)."""

    name: str
    kind: str
    rect: tuple[float, float, float, float]  # x0, y0, x1, y1 in board mm
    cell: int | None = None
    print_rgb: tuple[int, int, int] = (220, 205, 170)

    @cached_property
    def key(self) -> str:
        """Unique per board: the name, plus ``#cell`` for a track cell (kept once asked:
        the reader asks for it on every frame)."""
        return self.name if self.cell is None else f"{self.name}#{self.cell}"

    def grown_box(self, step: float, shape: tuple[int, int], margin: int
                  ) -> tuple[int, int, int, int]:
        """The rows and columns (row0, row1, col0, col1) of a coarse grid (``step`` mm,
        ``shape`` rows and columns) this region lies on, grown by ``margin`` samples and
        kept within the grid."""
        x0, y0, x1, y1 = self.rect
        h, w = shape
        return (max(0, int(y0 // step) - margin), min(h, math.ceil(y1 / step) + margin),
                max(0, int(x0 // step) - margin), min(w, math.ceil(x1 / step) + margin))


@dataclass(frozen=True)
class Board:
    """One physical board (the main board or one farm) and its markers."""

    name: str  # "main" or "farm:<colour>"
    size_mm: tuple[float, float]
    marker_mm: float
    markers: dict[int, tuple[float, float]]  # ArUco id -> top-left corner of the black square
    print_rgb: tuple[int, int, int]
    regions: tuple[Region, ...]

    def marker_corners(self, marker_id: int) -> list[tuple[float, float]]:
        """The marker's four corners in board mm, in ArUco order (TL, TR, BR, BL)."""
        x, y = self.markers[marker_id]
        s = self.marker_mm
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    def region(self, key: str) -> Region:
        """The region with this key; raises KeyError."""
        for r in self.regions:
            if r.key == key:
                return r
        raise KeyError(key)


@dataclass(frozen=True)
class Layout:
    """The main board and the four farms, plus the colour references."""

    boards: dict[str, Board]
    cube_mm: float
    disc_mm: float
    cube_rgb: dict[str, tuple[int, int, int]]
    marker_rgb: dict[str, tuple[int, int, int]]
    verified: bool = False
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    monk_rgb: tuple[int, int, int] = (22, 22, 24)
    item_rgb: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(_ITEM_RGB))
    item_mm: dict[str, float] = field(default_factory=lambda: dict(_ITEM_MM))
    token_rgb: dict[str, tuple[int, int, int]] = field(
        default_factory=lambda: dict(_TOKEN_RGB))
    token_mm: float = 20.0

    def item_area_mm2(self, item: str) -> float:
        """The area one item covers seen from above: a coin and a grain sack are round, a
        goods tile square."""
        if item in GOODS:
            return self.item_mm["tile"] ** 2
        return float(3.14159 * (self.item_mm[item] / 2) ** 2)

    def board_of(self, marker_id: int) -> Board | None:
        """The board carrying this marker id, or None."""
        for b in self.boards.values():
            if marker_id in b.markers:
                return b
        return None

    def cube_regions(self) -> list[tuple[str, Region]]:
        """(board name, region) for every region whose cubes are counted."""
        return [(b.name, r) for b in self.boards.values() for r in b.regions if r.kind == "cubes"]

    def track_names(self) -> list[str]:
        return sorted({r.name for b in self.boards.values() for r in b.regions
                       if r.kind == "track"})


def _rgb(v: Any, what: str) -> tuple[int, int, int]:
    if not (isinstance(v, list) and len(v) == 3 and all(isinstance(c, int) for c in v)):
        raise LayoutError(f"{what}: a colour is [r, g, b]")
    return (v[0], v[1], v[2])


def _board(name: str, data: dict[str, Any], colour: str | None,
           marker_ids: dict[str, int]) -> Board:
    regions = []
    for r in data["regions"]:
        rect = r["rect"]
        if len(rect) != 4 or not (rect[0] < rect[2] and rect[1] < rect[3]):
            raise LayoutError(f"{name}: region {r.get('name')!r} has a bad rect {rect}")
        if r["kind"] not in ("cubes", "track", "zone", "items", "token", "area"):
            raise LayoutError(f"{name}: region {r['name']!r}: unknown kind {r['kind']!r}")
        rname = r["name"].replace("{colour}", colour) if colour else r["name"]
        regions.append(Region(rname, r["kind"], (float(rect[0]), float(rect[1]),
                                                  float(rect[2]), float(rect[3])),
                              r.get("cell"), _rgb(r.get("print", [220, 205, 170]), rname)))
    markers: dict[int, tuple[float, float]] = {}
    for key, pos in data["markers"].items():
        mid = marker_ids[key] if key in marker_ids else int(key)
        markers[mid] = (float(pos[0]), float(pos[1]))
    return Board(name, (float(data["size_mm"][0]), float(data["size_mm"][1])),
                 float(data["marker_mm"]), markers, _rgb(data["print"], name), tuple(regions))


def parse(data: dict[str, Any]) -> Layout:
    """Build a Layout from its JSON form; raises LayoutError if it is malformed."""
    try:
        boards = {"main": _board("main", data["boards"]["main"], None, {})}
        for colour, mid in data["farm_markers"].items():
            if colour not in FAMILY_COLOURS:
                raise LayoutError(f"unknown farm colour {colour!r}")
            fname = f"farm:{colour}"
            boards[fname] = _board(fname, data["boards"]["farm"], colour, {"farm": int(mid)})
        colours = data["colours"]
        cube_rgb = {c: _rgb(colours["cubes"][c], c) for c in CUBE_COLOURS}
        marker_rgb = {c: _rgb(colours["markers"][c], c) for c in FAMILY_COLOURS}
        # older files (before items were read) lack these: the shipped guesses
        monk = _rgb(colours.get("monk", [22, 22, 24]), "monk")
        item_rgb = {k: _rgb(colours.get("items", {}).get(k, list(_ITEM_RGB[k])), k)
                    for k in ITEM_NAMES}
        item_mm = {k: float(data.get("item_mm", {}).get(k, v)) for k, v in _ITEM_MM.items()}
        token_rgb = {k: _rgb(colours.get("tokens", {}).get(k, list(v)), k)
                     for k, v in _TOKEN_RGB.items()}
        return Layout(boards, float(data["cube_mm"]), float(data["disc_mm"]), cube_rgb,
                      marker_rgb, bool(data.get("verified", False)), data, monk, item_rgb,
                      item_mm, token_rgb, float(data.get("token_mm", 20.0)))
    except (KeyError, TypeError, IndexError) as exc:
        raise LayoutError(f"layout: missing or ill-typed {exc}") from None


def load(path: Path | None = None) -> Layout:
    """Load a layout file (default: the shipped one); raises LayoutError or OSError."""
    text = (path or SHIPPED).read_text("utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LayoutError(f"{path}: not JSON: {exc}") from None
    return parse(data)
