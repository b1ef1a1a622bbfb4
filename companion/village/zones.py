"""The names of the places on the physical table: one vocabulary for every part.

The table picture (``picture(state)``, what the board should show), the tag readers'
zone map and the camera layout all name places with these strings, so that what a sensor
sees can be compared with what the engine expects. ``docs/sensing.md`` lists them.

Piece zones hold figures (member ids such as ``red-1a``, and the four black monks
``monk-1`` … ``monk-4``); cube regions hold cubes; tracks hold markers on numbered cells.
"""

from __future__ import annotations

from .vocabulary import Building, Color, Section, Space

# Piece zones. Each is "kind" or "kind:detail".
FARM = "farm"  # farm:<colour> — a family's farm board
UNBORN = "unborn"  # unborn:<colour> — beside the farm, not yet born
CRAFT = "craft"  # craft:<building> — wainwright, stables, office, smithy
COUNCIL = "council"  # council:<level> — 1 (lowest) … 4
TRAVEL = "travel"  # travel:<city id> — a city on the travel map (board data)
CHURCH = "church"  # church:<window> — 1 (rightmost) … 4
BAG = "bag"  # the black bag (a reader at its mouth sees figures go in or out)
CHRONICLE = "chronicle"  # chronicle:<section> — council, crafts, travel, church, farm
GRAVES = "graves"  # the anonymous graves
REMOVED = "removed"  # out of the game (dead with nowhere to go)

# Cube regions.
SPACE = "space"  # space:<space> — harvest, family, crafts, market, travel, council, church
SUPPLY = "supply"  # supply:<colour> — cubes on a family's farm
STOCK = "stock"  # the general supply beside the board
GREEN_BAG = "green_bag"  # the green cube bag (count only)

# Item regions: goods:<colour> — the grain, coins and goods tiles on a family's farm.
GOODS = "goods"

# Tracks: a marker per colour on numbered cells.
TIME = "time"  # time:<colour> — the time track on that family's farm
PRESTIGE = "prestige"  # the prestige track around the main board
FIRST_PLAYER = "first_player"  # the first-player token: marker <colour> on cell 1 if held, else 0

MONK_PIECES: tuple[str, ...] = ("monk-1", "monk-2", "monk-3", "monk-4")


def zone(kind: str, detail: object | None = None) -> str:
    """``zone("craft", Building.SMITHY)`` → ``"craft:smithy"``; ``zone("bag")`` → ``"bag"``."""
    return kind if detail is None else f"{kind}:{detail}"


def split(name: str) -> tuple[str, str | None]:
    """``"council:3"`` → ``("council", "3")``; ``"bag"`` → ``("bag", None)``."""
    kind, _, detail = name.partition(":")
    return kind, (detail or None)


def farm(color: Color) -> str:
    return zone(FARM, color)


def craft(building: Building) -> str:
    return zone(CRAFT, building)


def space(s: Space) -> str:
    return zone(SPACE, s)


def chronicle(section: Section) -> str:
    return zone(CHRONICLE, section)


def time_track(color: Color) -> str:
    return zone(TIME, color)


PIECE_ZONE_KINDS = frozenset(
    {FARM, UNBORN, CRAFT, COUNCIL, TRAVEL, CHURCH, BAG, CHRONICLE, GRAVES, REMOVED}
)
CUBE_REGION_KINDS = frozenset({SPACE, SUPPLY, STOCK, GREEN_BAG})
ITEM_REGION_KINDS = frozenset({GOODS})
TRACK_KINDS = frozenset({TIME, PRESTIGE, FIRST_PLAYER})
