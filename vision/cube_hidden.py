"""A cube half hidden under another (a part of `vision.read_cubes`' cube reading, with
the empty-board model).

A blob's colours count as cubes only when they cover more than the sides of a cube can
(``MINOR_CUBE`` of a cube, or 1.2 × the sides' area): the side of an orange cube turned
from the lamp is lit by the room alone and reads brown. But that guard also drops a cube
lying under another one, of which a third shows (a black cube under an orange one on the
church space, 32 samples where a cube shows 112). A side turned from the light is its
cube's colour darkened to what the room's light alone gives it (``SIDE_SHADES``: 0.25-0.55
of the top); the colours it reads as under the reader's own colour table are the only
ones a cube's side can explain. A colour no colour of its blob darkens into is a cube
from ``HIDDEN_CUBE`` of one, when its samples have a core (they survive a 3×3 erosion):
a cube's blurred rim mixing with the board is a band one or two samples wide, a cube's
visible part is not. And its core keeps its own colour's hue (its channels' proportions),
nearer it than the blob's other colours' by ``HUE_MARGIN``: a side in shade is its cube's
colour darker, in the same proportions (a green side is dark green, a black cube grey),
and a side turned to a low lamp brighter (a brown side reads orange), which the colour
table, weighing lightness, does not tell apart; a rim mixing a cube with the board lies
between their hues. Without the markers' white (no hue to trust) a colour a side can read
as is never counted so. A core darker in every channel than the darkest side of one of
the blob's other colours can be (``SIDE_SHADES[0]`` of its top, times the light where it
lies) is no side of that colour whatever its hue, and its hue is compared with the others'
only: a black cube's hue is mostly the blur and
JPEG colour bleed of the bright cube beside it (a plague cube half under a pink one,
RGB 32, 21, 33, nearer pink's hue than black's), but a side turned from the lamp keeps
the room's light. And a colour whose side the core could be stays so only when, the
light of those other colours taken out (their blur: lights add, `vision.cube_bleed`),
the core still holds ``SIDE_SHADES[0]`` of it: that plague core beside a brown cube,
compared with brown's hue alone, was dropped as a brown side, and holds no brown at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .colour import lut_index
from .cube_bleed import unmix
from .layout import CUBE_COLOURS

# a side turned from the lamp: its top's colour darkened to these (the room's light alone)
SIDE_SHADES = (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55)
TOUCHING = 3  # samples: a blob too small for a cube alone this near another is part of it
HIDDEN_CUBE = 0.2  # of a cube's area: the least part of a cube under another that counts
CORE_SAMPLES = 0.04  # of a cube's area: the least that survives a 3×3 erosion
# a hidden cube's core keeps its own colour's hue: nearer it than this times the nearest
# of its blob's other colours' (a side lit by a low lamp brightens: brown's reads orange)
HUE_MARGIN = 0.5


def shades_into(table: np.ndarray, cube_rgb: Mapping[str, Sequence[int]]) -> list[set[int]]:
    """For each cube colour (in ``CUBE_COLOURS`` order), the other cube colours' indices
    (0-based) its sides turned from the light read as under the colour table ``table``
    (labels 1… for the cube colours, as the reader's)."""
    out: list[set[int]] = []
    for j, c in enumerate(CUBE_COLOURS):
        bgr = np.array(cube_rgb[c][::-1], np.float32)
        px = np.clip(np.array([bgr * f for f in SIDE_SHADES]), 0, 255).astype(np.uint8)
        got = {int(v) - 1 for v in table[lut_index(px)]}
        out.append({k for k in got if 0 <= k < len(CUBE_COLOURS) and k != j})
    return out


def _hue(bgr: np.ndarray) -> np.ndarray:
    """Each colour's channels over their sum (n×3 → n×3): what darkening leaves alone."""
    px = bgr.astype(np.float32).reshape(-1, 3) + 1.0
    out: np.ndarray = px / px.sum(axis=1, keepdims=True)
    return out


def hidden_colours(blob: np.ndarray, labels: np.ndarray, per: np.ndarray, major: list[int],
                   shades: list[set[int]], area_one: float,
                   lit: np.ndarray | None = None,
                   cube_rgb: Mapping[str, Sequence[int]] | None = None,
                   light: np.ndarray | None = None) -> list[int]:
    """The colours (0-based) of a blob, beyond ``major``, that are a cube partly hidden
    under another (module docstring): ``blob`` its samples (a grid of booleans),
    ``labels`` the region's colour labels, ``per`` each colour's samples in the blob;
    ``lit`` the region's samples (flat BGR, under the markers' white) and ``cube_rgb``
    the cubes' colours, to tell a black cube from a side in shade (without them, a
    colour a side can read as is never counted so); ``light`` the light at each sample
    against the board's markers' (flat; 1 where not given)."""
    out: list[int] = []
    for j in range(len(CUBE_COLOURS)):
        if j in major or per[j] < HIDDEN_CUBE * area_one:
            continue
        mine = (blob & (labels == j + 1)).astype(np.uint8)
        core = cv2.erode(mine, np.ones((3, 3), np.uint8)) > 0
        if np.count_nonzero(core) < CORE_SAMPLES * area_one:
            continue
        if lit is None or cube_rgb is None:
            if any(j in shades[m] for m in major):
                continue  # a side in shade may read so, and its hue cannot be checked
        else:
            here = 1.0 if light is None else float(np.median(light[core.ravel()]))
            sides_of = [m for m in major
                        if not _darker_than_side(lit[core.ravel()], cube_rgb[CUBE_COLOURS[m]],
                                                 here)]
            sides_of = _with_side_left(lit[core.ravel()], sides_of,
                                       [m for m in major if m not in sides_of], cube_rgb, here)
            seen = _hue(lit[core.ravel()]).mean(axis=0)
            own = float(np.abs(seen - _hue(np.array(cube_rgb[CUBE_COLOURS[j]][::-1]))[0]).sum())
            theirs = min((float(np.abs(seen - _hue(np.array(cube_rgb[CUBE_COLOURS[m]][::-1]))[0])
                                .sum()) for m in sides_of), default=np.inf)
            if own >= HUE_MARGIN * theirs:
                continue  # the hue of a side, lit or in shade, or of a rim
        out.append(j)
    return out


def _with_side_left(core: np.ndarray, sides_of: list[int], bleed: list[int],
                    cube_rgb: Mapping[str, Sequence[int]], light: float) -> list[int]:
    """The colours of ``sides_of`` whose side a core (``core``: its BGR samples under the
    markers' white) can be, once the light of ``bleed`` (the blob's colours whose sides
    it is darker than: only their blur can be in it) is taken out: a colour of which the
    core holds at least ``SIDE_SHADES[0]`` times ``light`` (`vision.cube_bleed`). With no
    such colours, ``sides_of`` as it is."""
    if not bleed or not sides_of:
        return sides_of
    seen = core.astype(np.float64).mean(axis=0)
    bgr = [tuple(cube_rgb[CUBE_COLOURS[m]][::-1]) for m in bleed]
    return [m for m in sides_of
            if unmix(seen, [tuple(cube_rgb[CUBE_COLOURS[m]][::-1]), *bgr])[0]
            >= SIDE_SHADES[0] * light]


def _darker_than_side(core: np.ndarray, rgb: Sequence[int], light: float) -> bool:
    """Whether a core's mean colour (``core``: its BGR samples under the markers' white) is
    darker in every channel than the darkest side of a cube of colour ``rgb`` can be: that
    colour times ``SIDE_SHADES[0]`` times ``light`` (the light where it lies)."""
    seen = core.astype(np.float32).mean(axis=0)
    side = np.array(rgb[::-1], np.float32) * SIDE_SHADES[0] * light
    return bool((seen < side).all())


def touching_blobs(cube: np.ndarray, small: float) -> tuple[int, np.ndarray, np.ndarray]:
    """The blobs of a region's cube samples (``cube``, a uint8 grid), each blob smaller
    than ``small`` samples (too small for a cube alone) joined to the blob with the most
    samples within ``TOUCHING`` samples of it: the labels' count with the background (0),
    a label grid (0 off the cube samples) and each label's area in samples (0 for a label
    joined to another)."""
    k, lab, stats, _c = cv2.connectedComponentsWithStats(cube, connectivity=8)
    areas = stats[:, cv2.CC_STAT_AREA].copy()
    areas[0] = 0
    kernel = np.ones((3, 3), np.uint8)
    for i in np.argsort(areas):  # the smallest first
        if i == 0 or not 0 < areas[i] < small:
            continue
        mine = lab == i
        near = cv2.dilate(mine.astype(np.uint8), kernel, iterations=TOUCHING) > 0
        ring = near & ~mine & (lab > 0)
        if ring.any():
            into = int(np.bincount(lab[ring]).argmax())
            lab[mine] = into
            areas[into] += areas[i]
            areas[i] = 0
    return k, lab, areas
