"""Regenerate ``layout.json`` (the shipped, unverified best guess of the printed board).

Run ``python -m vision.make_layout`` after changing the numbers here; the owner's
calibration then edits a copy of the JSON, never this file. All lengths in millimetres,
origin at the board's top-left corner, x to the right, y down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

MAIN_W, MAIN_H = 600.0, 420.0  # unverified: the board's size is not in our sources
FARM_W, FARM_H = 200.0, 250.0  # unverified
CORNER = 40.0  # corner squares where the markers are stuck
MARKER = 28.0  # black square of a main-board marker (plus a white margin on the sticker)
FARM_MARKER = 36.0
BAND = 24.0  # depth of the prestige track band along the edge
FAMILY = ("red", "yellow", "blue", "white")
SPACES = ("harvest", "family", "crafts", "market", "travel", "council", "church")
# the travel map's cities (the engine's names), in a strip under the council and church
CITIES = ("north", "south", "north-west", "north-east", "east", "south-east", "south-west",
          "far-north", "far-east")
PARCHMENT = [222, 206, 168]


def _r(name: str, kind: str, x0: float, y0: float, x1: float, y1: float,
       **extra: Any) -> dict[str, Any]:
    return {"name": name, "kind": kind, "rect": [round(x0, 1), round(y0, 1), round(x1, 1),
                                                 round(y1, 1)], **extra}


def _prestige() -> list[dict[str, Any]]:
    cells: list[dict[str, Any]] = []
    span_x, span_y = MAIN_W - 2 * CORNER, MAIN_H - 2 * CORNER
    edges = [(15, "top"), (10, "right"), (15, "bottom"), (10, "left")]
    n = 0
    for count, edge in edges:
        for i in range(count):
            box: tuple[float, float, float, float]
            if edge == "top":
                w = span_x / count
                box = (CORNER + i * w, 0.0, CORNER + (i + 1) * w, BAND)
            elif edge == "right":
                h = span_y / count
                box = (MAIN_W - BAND, CORNER + i * h, MAIN_W, CORNER + (i + 1) * h)
            elif edge == "bottom":
                w = span_x / count
                box = (MAIN_W - CORNER - (i + 1) * w, MAIN_H - BAND, MAIN_W - CORNER - i * w,
                       MAIN_H)
            else:
                h = span_y / count
                box = (0.0, MAIN_H - CORNER - (i + 1) * h, BAND, MAIN_H - CORNER - i * h)
            shade = [200, 186, 150] if n % 5 else [180, 160, 120]
            cells.append(_r("prestige", "track", *box, cell=n, print=shade))
            n += 1
    return cells


def main_board() -> dict[str, Any]:
    regions: list[dict[str, Any]] = []
    # Action spaces: two rows of four (the well last), 110 x 70 mm each.
    names = [*SPACES, "well"]
    prints = {"harvest": [214, 196, 120], "family": [206, 196, 170], "crafts": [196, 188, 176],
              "market": [205, 200, 150], "travel": [190, 200, 178], "council": [214, 190, 160],
              "church": [200, 196, 196], "well": [160, 180, 190]}
    for i, name in enumerate(names):
        row, col = divmod(i, 4)
        x0 = 46 + col * 130
        y0 = 40 + row * 86
        kind = "cubes" if name != "well" else "area"
        rname = f"space:{name}" if name != "well" else "well"
        regions.append(_r(rname, kind, x0, y0, x0 + 110, y0 + 70, print=prints[name]))
    # Council levels, church windows (1 rightmost), craft buildings.
    for lvl in range(1, 5):
        x0 = 46 + (lvl - 1) * 40
        regions.append(_r(f"council:{lvl}", "zone", x0, 224, x0 + 34, 264, print=[200, 170, 140]))
    for w in range(1, 5):
        x0 = 376 - (w - 1) * 40  # window 1 is the rightmost
        regions.append(_r(f"church:{w}", "zone", x0, 224, x0 + 34, 264,
                          print=[170, 170, 196]))
    for i, b in enumerate(("wainwright", "stables", "office", "smithy")):
        x0 = 436 + (i % 2) * 60
        y0 = 224 + (i // 2) * 44
        regions.append(_r(f"craft:{b}", "zone", x0, y0, x0 + 52, y0 + 38, print=[190, 170, 150]))
    # The travel map: one small zone per city (a guess: the real map is a drawing).
    for i, city in enumerate(CITIES):
        x0 = 206 + i * 25
        regions.append(_r(f"travel:{city}", "zone", x0, 268, x0 + 23, 314,
                          print=[176, 190, 170]))
    # Chronicle (five sections) and graves, along the bottom.
    for i, s in enumerate(("council", "crafts", "travel", "church", "farm")):
        x0 = 46 + i * 62
        regions.append(_r(f"chronicle:{s}", "zone", x0, 318, x0 + 56, 372, print=[180, 176, 160]))
    regions.append(_r("graves", "zone", 360, 318, 420, 372, print=[150, 150, 150]))
    # Market customer spaces: 5 stalls + 5 waiting (layout only: tiles are not read).
    for i in range(5):
        x0 = 430 + (i % 5) * 26
        regions.append(_r(f"market:stall-{i + 1}", "area", x0, 312, x0 + 24, 340,
                          print=[170, 190, 214]))
        regions.append(_r(f"market:queue-{i + 1}", "area", x0, 346, x0 + 24, 374,
                          print=[200, 200, 200]))
    # The Next First Player marker's cell in the council chamber (seed 000, set-up step 8:
    # « sur sa case de la Chambre du Conseil »), between the council levels and the church
    regions.append(_r("first_player:home", "token", 208, 226, 248, 262, print=[200, 170, 140]))
    regions.extend(_prestige())
    m = (CORNER - MARKER) / 2
    markers = {"0": [m, m], "1": [MAIN_W - CORNER + m, m],
               "2": [MAIN_W - CORNER + m, MAIN_H - CORNER + m], "3": [m, MAIN_H - CORNER + m]}
    return {"size_mm": [MAIN_W, MAIN_H], "marker_mm": MARKER, "markers": markers,
            "print": PARCHMENT, "regions": regions}


def farm_board() -> dict[str, Any]:
    """One farm; ``{colour}`` in names is replaced by the farm's colour."""
    regions: list[dict[str, Any]] = []
    # Time track: 10 cells around the farmyard edge, clockwise from the top-left.
    cells: list[tuple[float, float]] = [(56 + i * 36, 8) for i in range(4)]
    cells += [(170, 75), (170, 145)]
    cells += [(164 - i * 36, 218) for i in range(4)][::1]
    boxes = [(x, y, x + 26, y + 26) for x, y in cells[:4]]
    boxes += [(x, y, x + 24, y + 30) for x, y in cells[4:6]]
    boxes += [(x, y, x + 26, y + 26) for x, y in cells[6:]]
    for i, b in enumerate(boxes):
        regions.append(_r("time:{colour}", "track", *b, cell=i,
                          print=[190, 204, 150] if i else [170, 190, 210]))
    # cubes kept on the left of the farmyard, figures standing on the right (a guess)
    regions.append(_r("supply:{colour}", "cubes", 20, 46, 104, 154, print=[176, 196, 130]))
    regions.append(_r("farm:{colour}", "zone", 110, 46, 162, 154, print=[186, 200, 140]))
    # grain, coins and goods tiles below them (a guess)
    regions.append(_r("goods:{colour}", "items", 16, 162, 164, 212, print=[150, 172, 112]))
    # where the family lays the first-player tokens it holds (a guess: the rules only say
    # the player takes the marker, « prenez le marqueur »)
    regions.append(_r("first_player:{colour}", "token", 6, 214, 50, 248, print=[176, 196, 130]))
    return {"size_mm": [FARM_W, FARM_H], "marker_mm": FARM_MARKER,
            "markers": {"farm": [8, 8]}, "print": [160, 184, 120], "regions": regions}


def layout() -> dict[str, Any]:
    return {
        "version": 1,
        "verified": False,
        "note": ("Best guess: the printed geometry of the board is not in our sources. "
                 "Calibration (companion calibrate, /calibrate) makes it exact for a box."),
        "cube_mm": 10.0,
        "disc_mm": 16.0,
        "token_mm": 20.0,  # the first-player tokens' diameter (a guess)
        # grain sack (its width), coin (diameter), goods tile (side): guesses
        "item_mm": {"grain": 12.0, "coin": 15.0, "tile": 16.0},
        "farm_markers": {c: 10 + i for i, c in enumerate(FAMILY)},
        "colours": {
            "cubes": {"brown": [120, 72, 40], "pink": [232, 120, 168], "orange": [244, 140, 28],
                      "green": [52, 150, 64], "plague": [28, 28, 30]},
            "markers": {"red": [200, 36, 36], "yellow": [240, 206, 40], "blue": [40, 80, 200],
                        "white": [246, 246, 246]},
            "monk": [22, 22, 24],
            # guesses (the tiles are illustrated; their main colour is what is read)
            "items": {"grain": [230, 186, 60], "coin": [150, 150, 160],
                      "scroll": [244, 240, 225], "horse": [128, 84, 48], "ox": [60, 56, 52],
                      "plough": [80, 120, 170], "wagon": [180, 70, 50]},
            # the First Player and Next First Player markers (guesses: colours no other
            # piece has, so a token region tells them apart by hue)
            "tokens": {"first": [128, 48, 168], "next": [0, 168, 186]},
        },
        "boards": {"main": main_board(), "farm": farm_board()},
    }


if __name__ == "__main__":
    out = Path(__file__).with_name("layout.json")
    out.write_text(json.dumps(layout(), indent=1) + "\n", encoding="utf-8")
    print(out)
