"""Sensing: observations from the sensors, and the reconciler that turns them into actions
through the table service's one way in (``reconciler.Reconciler``), the simulated table
(``simulator``) and its bench. See ``docs/sensing.md``."""

from .observations import (
    CubeCounts,
    FigureCounts,
    Health,
    ItemCounts,
    MarkerCell,
    Observation,
    ObservationError,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
    from_json,
    to_json,
)

__all__ = [
    "CubeCounts",
    "FigureCounts",
    "Health",
    "ItemCounts",
    "MarkerCell",
    "Observation",
    "ObservationError",
    "Occluded",
    "PiecesGone",
    "PiecesSeen",
    "TagTapped",
    "ZoneSnapshot",
    "from_json",
    "to_json",
]
