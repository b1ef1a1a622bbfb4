"""The words of Village: colours, cubes, goods, spaces and member ids.

Plain string enums so that every value has a text form equal to the one used in game
records (``Color("red")``, ``Space.from_text("council")``) and a repr you can paste.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NewType, TypeGuard


class _TextEnum(StrEnum):
    """A string enum whose repr is pasteable and whose text is the record form."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)

    @classmethod
    def from_text(cls, text: str) -> _TextEnum:
        """Parse the record form; raises ValueError naming the allowed values."""
        try:
            return cls(text)
        except ValueError:
            allowed = ", ".join(m.value for m in cls)
            raise ValueError(f"{text!r} is not a {cls.__name__} (one of: {allowed})") from None


class Color(_TextEnum):
    """A family colour (seed 000, Contenu)."""

    RED = "red"
    YELLOW = "yellow"
    BLUE = "blue"
    WHITE = "white"


class Cube(_TextEnum):
    """A cube on an action space: the four influence colours or a plague cube."""

    BROWN = "brown"  # faith: church, travel
    PINK = "pink"  # knowledge: crafts, travel
    ORANGE = "orange"  # power: crafts
    GREEN = "green"  # persuasion: market, council
    PLAGUE = "plague"


INFLUENCE: tuple[Cube, ...] = (Cube.BROWN, Cube.PINK, Cube.ORANGE, Cube.GREEN)


class Good(_TextEnum):
    """A goods tile."""

    SCROLL = "scroll"
    HORSE = "horse"
    OX = "ox"
    PLOUGH = "plough"
    WAGON = "wagon"


class Space(_TextEnum):
    """An action space holding cubes (the well holds none, seed 000 « Puits »)."""

    HARVEST = "harvest"
    FAMILY = "family"
    CRAFTS = "crafts"
    MARKET = "market"
    TRAVEL = "travel"
    COUNCIL = "council"
    CHURCH = "church"


class Building(_TextEnum):
    """A craft building (seed 000 « Artisanat »)."""

    WAINWRIGHT = "wainwright"  # wagon
    STABLES = "stables"  # horse or ox
    OFFICE = "office"  # scroll (French edition: bibliothèque)
    SMITHY = "smithy"  # plough
    MILL = "mill"  # no member may stand here


class Section(_TextEnum):
    """A section of the village chronicle (seed 000 « Un membre de la famille décède »)."""

    COUNCIL = "council"
    CRAFTS = "crafts"
    TRAVEL = "travel"
    CHURCH = "church"
    FARM = "farm"


# Members per generation for each colour (seed 000 « Mise en place »: 4x 1, 3x 2, 2x 3, 2x 4).
GENERATION_SIZES: dict[int, int] = {1: 4, 2: 3, 3: 2, 4: 2}
COPY_LETTERS = "abcd"


MemberId = NewType("MemberId", str)
"""A family member's figure: ``<colour>-<generation><copy>``, e.g. ``red-1a`` (a record
writes it as that text)."""

PhaseName = NewType("PhaseName", str)
"""A step the game can wait at: ``GameState.phase``, ``Pending.kind`` (the base game's
steps and those each rule module adds; a record's pending ``kind`` is this text)."""


def _ids(color: Color) -> tuple[MemberId, ...]:
    return tuple(
        MemberId(f"{color.value}-{gen}{COPY_LETTERS[i]}")
        for gen, size in GENERATION_SIZES.items()
        for i in range(size)
    )


_MEMBER_IDS: dict[Color, tuple[MemberId, ...]] = {c: _ids(c) for c in Color}


def member_ids(color: Color) -> tuple[MemberId, ...]:
    """The 11 member ids of a colour, e.g. ``red-1a`` … ``red-4b``."""
    return _MEMBER_IDS[color]


def member_color(member: str) -> Color:
    """The colour of a member id; raises ValueError if it is not one."""
    return Color(member.split("-", 1)[0])


def member_generation(member: str) -> int:
    """The generation printed on a member (1 = oldest)."""
    return int(member.rsplit("-", 1)[1][0])


ALL_MEMBERS: frozenset[MemberId] = frozenset(m for c in Color for m in member_ids(c))


def is_member(piece: str) -> TypeGuard[MemberId]:
    """Whether a piece's text (a hold's content, a sensed piece) is a member id."""
    return piece in ALL_MEMBERS
MONK = "monk"
