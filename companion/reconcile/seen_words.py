"""What a sensor saw, in one line for the play page's "What the sensors saw" list (issue 18
item 8: the sensing demo showed prompts and health, never the readings behind them).

``seen_words(obs)`` → ``"Reader hub: Red 2a put on council level 1"`` or None for what a
person need not read (health, which the panel shows apart; an empty snapshot). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from companion.village.words import count
from companion.village.zones import piece_words, place_words

from .observations import (
    CubeCounts,
    FigureCounts,
    ItemCounts,
    MarkerCell,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
)


def device_words(source: str) -> str:
    """``"hub:1/reader:3"`` → ``"Reader hub"``, ``"camera:0"`` / ``"sim:camera"`` →
    ``"Camera"``, ``"pad:…"`` → ``"Tag pad"``; simulated devices say so."""
    sim = source.startswith("sim:")
    kind = (source.split(":", 1)[1] if sim else source).split(":", 1)[0].split("/", 1)[0]
    name = {"hub": "Reader hub", "serial": "Reader hub", "camera": "Camera",
            "pad": "Tag pad"}.get(kind, "A sensor")
    return f"{name} (simulated)" if sim else name


def _pieces(pieces: Iterable[str], unknown: Iterable[str]) -> str:
    named = sorted(piece_words(p) for p in pieces)
    n = len(list(unknown))
    if n:
        named.append(f"{n} unknown tag{'s' if n > 1 else ''}")
    return ", ".join(named) if named else "nothing"


PLURAL = {"ox": "oxen", "grain": "grain"}


def _counts(counts: Mapping[str, int], noun: str = "") -> str:
    """``{"green": 2}``, ``"cube"`` → ``"2 green cubes"``; ``{"ox": 2}`` → ``"2 oxen"``."""
    said = [count(n, f"{k} {noun}") if noun else count(n, k, PLURAL.get(k))
            for k, n in sorted(counts.items()) if n]
    return ", ".join(said) if said else "nothing"


def seen_words(obs: Observation) -> str | None:
    """One observation in words, or None when there is nothing for a person to read."""
    who = device_words(obs.source)
    if isinstance(obs, TagTapped):
        return f"{who}: {piece_words(obs.piece) if obs.piece else 'an unknown tag'} tapped"
    if isinstance(obs, PiecesSeen):
        return f"{who}: {_pieces(obs.pieces, obs.unknown_uids)} put on {place_words(obs.zone)}"
    if isinstance(obs, PiecesGone):
        return f"{who}: {_pieces(obs.pieces, obs.unknown_uids)} taken from {place_words(obs.zone)}"
    if isinstance(obs, ZoneSnapshot):
        return f"{who}: on {place_words(obs.zone)}, {_pieces(obs.pieces, obs.unknown_uids)}"
    if isinstance(obs, CubeCounts):
        return f"{who}: on {place_words(obs.region)}, {_counts(obs.counts, 'cube')}"
    if isinstance(obs, FigureCounts):
        return f"{who}: on {place_words(obs.zone)}, {_counts(obs.counts, 'figure')}"
    if isinstance(obs, ItemCounts):
        return f"{who}: on {place_words(obs.region)}, {_counts(obs.counts)}"
    if isinstance(obs, MarkerCell):
        track = place_words(obs.track)
        return f"{who}: {obs.marker.capitalize()}'s marker on {track}, space {obs.cell}"
    if isinstance(obs, Occluded):
        if not obs.regions:  # nothing hidden any more
            return None
        places = ", ".join(sorted(place_words(r) for r in obs.regions))
        return f"{who}: cannot see {places} (a hand over the board?)"
    return None
