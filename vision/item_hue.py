"""A horse tile, a wagon tile or an ox tile: told by hue, not by how bright.

Both goods tiles are a warm brown-red; they differ by how much green they hold against
their red (the layout's colours: a horse's green is 0.66 of its red, a wagon's 0.39).
Lightness tells them apart in Lab only when the light's level is known, and under the
markers' white gain it is not in dim blurred light: the white ring, 1.8 mm from each
marker's black square inside a 4–5 mm quiet zone, takes in the black and the print beyond
when the camera blurs a point over 2 mm, so every piece comes out brighter than it is
(1.22–1.44 times on the real-hard renders, 1.01–1.09 in ordinary light), and a brightened
horse lies nearer the wagon. The ratio of green to red does not change with the level.

A horse and an ox (RGB 60, 56, 52: a dark grey tile) differ in Lab mostly by lightness
too, and a brightened ox was read as a horse (the bench's real-hard table 1 of seed 1:
two oxen on the red farm seen as RGB 103, 108, 75 under the markers' white, read as
horses); in hue they are far apart (green over red 0.66 and 0.93, blue over red 0.38
and 0.87), and those oxen's samples lay at 0.97–1.02 and 0.75.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .layout import ITEM_NAMES


def horse_or_wagon(px: np.ndarray, labels: np.ndarray,
                   item_rgb: Mapping[str, tuple[int, int, int]]) -> np.ndarray:
    """``labels`` (n; 0 the board, i+1 ``ITEM_NAMES[i]``) with each sample labelled horse
    or wagon given the one of the two whose green-to-red ratio is nearer its own (on a
    log scale: the cut is their geometric mean). ``px``: the samples under the markers'
    white gain (n×3 BGR). A new array; the others' labels kept."""
    horse, wagon = 1 + ITEM_NAMES.index("horse"), 1 + ITEM_NAMES.index("wagon")
    cut = float(np.sqrt(_green_red(item_rgb["horse"]) * _green_red(item_rgb["wagon"])))
    either = (labels == horse) | (labels == wagon)
    out = labels.copy()
    if either.any():
        p = px[either].astype(np.float32)
        ratio = p[:, 1] / np.maximum(p[:, 2], 1.0)
        out[either] = np.where(ratio < cut, wagon, horse)
    return out


def _green_red(rgb: tuple[int, int, int]) -> float:
    return rgb[1] / max(rgb[0], 1)


def horse_or_ox(px: np.ndarray, labels: np.ndarray,
                item_rgb: Mapping[str, tuple[int, int, int]]) -> np.ndarray:
    """``labels`` with each sample labelled horse or ox given the one of the two whose
    hue (green over red, blue over red, on a log scale) is nearer its own; ``px`` as for
    `horse_or_wagon`. A new array; the others' labels kept."""
    horse, ox = 1 + ITEM_NAMES.index("horse"), 1 + ITEM_NAMES.index("ox")
    either = (labels == horse) | (labels == ox)
    out = labels.copy()
    if either.any():
        p = px[either].astype(np.float32)
        red = np.maximum(p[:, 2], 1.0)
        seen = np.log(np.maximum(p[:, [1, 0]], 1.0) / red[:, None])
        d = [np.square(seen - _hue(item_rgb[k])).sum(axis=1) for k in ("horse", "ox")]
        out[either] = np.where(d[0] <= d[1], horse, ox)
    return out


def _hue(rgb: tuple[int, int, int]) -> np.ndarray:
    """(log green over red, log blue over red) of an RGB colour."""
    r = max(rgb[0], 1)
    return np.log(np.array([max(rgb[1], 1) / r, max(rgb[2], 1) / r], np.float32))
