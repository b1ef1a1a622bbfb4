"""What sensors say: typed, immutable, JSON-able observations.

Every sensor adapter (the PC/SC tap pad, the serial reader hub, the camera, the sensor
simulator) turns device input into these and nothing else; adapters never touch the game
state. Places are named with the table vocabulary of ``companion.village.zones``
(``docs/sensing.md``). ``t`` is a monotonic time in seconds (``time.monotonic()`` in the
process that made it); ``source`` names the device (``"pad:ACS ACR122U 00 00"``,
``"hub:1/reader:3"``, ``"camera:0"``, ``"sim:hub"``).

``to_json`` / ``from_json`` give the wire and storage form: a dict with ``kind`` and the
fields; sets become sorted lists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

CUBE_COLOURS = ("brown", "pink", "orange", "green", "plague")
HEALTH_STATES = ("up", "down", "degraded", "connecting")
ITEM_NAMES = ("grain", "coin", "scroll", "horse", "ox", "plough", "wagon")
FIGURE_COLOURS = ("red", "yellow", "blue", "white", "black")  # black: the monks


class ObservationError(ValueError):
    """A JSON observation that is not one: unknown kind, missing or ill-typed field."""


@dataclass(frozen=True, slots=True)
class Observation:
    """Base: who saw it and when (monotonic seconds)."""

    kind: ClassVar[str] = ""
    source: str
    t: float


@dataclass(frozen=True, slots=True)
class TagTapped(Observation):
    """A tag held on the tap pad: one per tap, however long it rests there.

    ``piece`` is the enrolled piece (``red-2a``, ``monk-3``) or None for an unknown UID.
    """

    kind: ClassVar[str] = "tapped"
    reader: str
    uid: str  # upper-case hex, no separators: "04A2B3C4D5E680"
    piece: str | None = None


@dataclass(frozen=True, slots=True)
class PiecesSeen(Observation):
    """Pieces newly in a zone (a reader under a farm, the council…)."""

    kind: ClassVar[str] = "seen"
    zone: str
    pieces: frozenset[str] = field(default_factory=frozenset)
    unknown_uids: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class PiecesGone(Observation):
    """Pieces no longer in a zone."""

    kind: ClassVar[str] = "gone"
    zone: str
    pieces: frozenset[str] = field(default_factory=frozenset)
    unknown_uids: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class ZoneSnapshot(Observation):
    """Everything a sensor sees in a zone now (replaces what it said before)."""

    kind: ClassVar[str] = "snapshot"
    zone: str
    pieces: frozenset[str] = field(default_factory=frozenset)
    unknown_uids: frozenset[str] = field(default_factory=frozenset)


@dataclass(frozen=True, slots=True)
class CubeCounts(Observation):
    """Cubes by colour on one region (``space:market``, ``supply:red``…); absent = 0."""

    kind: ClassVar[str] = "cubes"
    region: str
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FigureCounts(Observation):
    """Figures by colour standing in a piece zone (``council:2``, ``farm:red``), as a camera
    sees them: how many of each colour, not which member (``black``: the monks); absent
    = 0. Compared with the engine's picture by colour only (``observed.ByColour``)."""

    kind: ClassVar[str] = "figures"
    zone: str
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ItemCounts(Observation):
    """Grain sacks, coins and goods tiles on a farm (region ``goods:<colour>``); absent = 0."""

    kind: ClassVar[str] = "items"
    region: str
    counts: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MarkerCell(Observation):
    """A marker's cell on a track (``time:red`` with marker ``red``; ``prestige``)."""

    kind: ClassVar[str] = "marker"
    track: str
    marker: str  # the marker's colour
    cell: int


@dataclass(frozen=True, slots=True)
class Occluded(Observation):
    """Regions the sensor cannot see now (a hand); empty = it sees everything again.
    ``uncertain``: regions read with low confidence (something unknown on them), hidden
    all the same but no hand seen over them (`ObservedTable.hand_seen`)."""

    kind: ClassVar[str] = "occluded"
    regions: frozenset[str] = field(default_factory=frozenset)
    uncertain: bool = False


@dataclass(frozen=True, slots=True)
class Health(Observation):
    """A device's state: up, down, degraded (errors) or connecting."""

    kind: ClassVar[str] = "health"
    device: str
    state: str
    reads_per_s: float = 0.0
    errors: int = 0
    detail: str = ""


KINDS: dict[str, type[Observation]] = {
    c.kind: c
    for c in (TagTapped, PiecesSeen, PiecesGone, ZoneSnapshot, CubeCounts, ItemCounts,
              FigureCounts, MarkerCell, Occluded, Health)
}


def to_json(obs: Observation) -> dict[str, Any]:
    """The wire form: ``{"kind": …, field: value…}`` with sets as sorted lists."""
    out: dict[str, Any] = {"kind": obs.kind}
    for f in fields(obs):
        v = getattr(obs, f.name)
        if isinstance(v, frozenset):
            v = sorted(v)
        elif isinstance(v, Mapping):
            v = dict(v)
        out[f.name] = v
    return out


def from_json(data: Mapping[str, Any]) -> Observation:
    """Parse the wire form; raises ObservationError naming what is wrong."""
    if not isinstance(data, Mapping):
        raise ObservationError("an observation is a JSON object")
    cls = KINDS.get(str(data.get("kind")))
    if cls is None:
        raise ObservationError(f"unknown observation kind {data.get('kind')!r}")
    args: dict[str, Any] = {}
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"kind"}
    if extra:
        raise ObservationError(f"{cls.kind}: unknown fields {sorted(extra)}")
    for f in fields(cls):
        if f.name not in data:
            continue
        v = data[f.name]
        if f.name in ("pieces", "unknown_uids", "regions"):
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise ObservationError(f"{cls.kind}.{f.name} must be a list of strings")
            v = frozenset(v)
        elif f.name == "counts":
            allowed: tuple[str, ...] = (ITEM_NAMES if cls is ItemCounts else FIGURE_COLOURS
                                        if cls is FigureCounts else CUBE_COLOURS)
            if not isinstance(v, Mapping) or not all(
                k in allowed and isinstance(n, int) and not isinstance(n, bool) and n >= 0
                for k, n in v.items()
            ):
                raise ObservationError(f"{cls.kind}.counts maps {allowed} to counts ≥ 0")
            v = dict(v)
        args[f.name] = v
    try:
        obs = cls(**args)
    except TypeError as exc:
        raise ObservationError(f"{cls.kind}: {exc}") from None
    for f in fields(obs):
        if f.name in ("source", "zone", "region", "track", "marker", "reader", "uid", "device",
                      "state", "detail") and not isinstance(getattr(obs, f.name), str):
            raise ObservationError(f"{cls.kind}.{f.name} must be a string")
    if isinstance(obs, Occluded) and not isinstance(obs.uncertain, bool):
        raise ObservationError("occluded.uncertain must be true or false")
    if not isinstance(obs.t, int | float):
        raise ObservationError(f"{cls.kind}.t must be a number")
    return obs
