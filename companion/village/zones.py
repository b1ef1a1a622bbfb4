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
HOME = "home"  # first_player:home: 1 while the Next First Player marker is on its cell

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


_PLACE_WORDS: dict[str, str] = {
    BAG: "the black bag",
    GRAVES: "the graves",
    REMOVED: "out of the game",
    STOCK: "the supply beside the board",
    GREEN_BAG: "the green bag",
    PRESTIGE: "the prestige track",
    FIRST_PLAYER: "the first-player token",
}


def place_words(name: str) -> str:
    """A place in plain words for the table: ``"space:market"`` → ``"the Market space"``,
    ``"supply:red"`` → ``"Red's cubes"``, ``"council:2"`` → ``"council level 2"``.
    A name outside the vocabulary is returned as it is."""
    kind, detail = split(name)
    if detail is None:
        return _PLACE_WORDS.get(kind, kind)
    d = detail.replace("-", " ")
    words = {
        FARM: f"{d.capitalize()}'s farm",
        UNBORN: f"{d.capitalize()}'s unborn figures",
        CRAFT: f"the {d}",
        COUNCIL: f"council level {d}",
        TRAVEL: f"the city {d}",
        CHURCH: f"church window {d}",
        CHRONICLE: f"the chronicle ({d})",
        SPACE: f"the {d.capitalize()} space",
        SUPPLY: f"{d.capitalize()}'s cubes",
        TIME: f"{d.capitalize()}'s time track",
        GOODS: f"{d.capitalize()}'s goods",
        PRESTIGE: f"{d.capitalize()}'s marker on the prestige track",
        FIRST_PLAYER: ("the first-player marker's own place" if detail == HOME
                       else f"the first-player marker with {d.capitalize()}"),
    }.get(kind)
    return words or name


def piece_words(piece: str) -> str:
    """A figure in plain words: ``"red-1a"`` → ``"Red 1a"``, ``"monk-2"`` → ``"a black monk"``."""
    colour, _, rest = piece.partition("-")
    if colour == "monk":
        return "a black monk"
    return f"{colour.capitalize()} {rest}" if rest else piece
