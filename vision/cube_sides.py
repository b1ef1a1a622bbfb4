"""A colour in a heap of cubes that is another colour's sides in shade (a part of
`vision.read_cubes`' cube reading, with the empty-board model and the markers' white).

A blob's colours count as cubes when each covers more than the sides of a cube can (the
guard in `read_cubes`). In a heap (a farm's supply: 4-9 cubes, leaning on each other)
the sides turned from the lamp are many and a leaning cube shows a whole face: the shaded
sides of three orange cubes read brown over 0.94 of a cube's area, and the heap was read
as two orange and a brown. A face turned from the lamp is lit by the same light, less of
it: its colour is its cube's darker in the same proportions (its hue, the channels over
their sum, is the cube's). So a colour of the blob that a side of another of its colours
reads as (`cube_hidden.shades_into`), whose core's hue lies nearer that other colour's
hue *as seen in this blob* (its core's mean: the same light, the same camera) than
``SIDE_MARGIN`` times its own colour's, is that colour's sides, not a cube, when it is
not darker in every channel than the darkest side of that colour can be (a quarter of
its top: a black cube's blurred core takes a green neighbour's hue) and covers less of
the blob than ``share`` of that colour's tops: ``SIDE_SHARE``, or the camera's geometry
where a cube's sides show more against its top (the reader's ``sides / top`` for the
region: far from the point under the camera a side is as large as the top, and two
orange cubes' shaded sides covered 0.67 of their tops, read as a brown cube). A brown cube
in a heap keeps brown's hue (its blue a sixth of its channels where an orange cube's is
a tenth). Unchecked on a real table: a side lit by a light of another colour (daylight
from a window on one side, a warm lamp on the other) would keep less of its top's hue.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from .cube_hidden import CORE_SAMPLES, SIDE_SHADES, _hue
from .layout import CUBE_COLOURS

# a side's core lies nearer its top's hue than this times its own colour's
SIDE_MARGIN = 0.5
# a colour's sides turned from the lamp cover less of a blob than this times its tops
# (at least: more where the camera's geometry shows more side against the top):
# seen from above a cube shows its top and at most two foreshortened sides (the shaded
# sides of the heaps read wrong: 0.28 and 0.39 of their tops; a black cube half under a
# green one in hard light, green-tinged by the blur, 0.88 of the green)
SIDE_SHARE = 0.6


def side_colours(blob: np.ndarray, labels: np.ndarray, major: list[int],
                 shades: list[set[int]], area_one: float, lit: np.ndarray,
                 cube_rgb: Mapping[str, Sequence[int]], share: float = SIDE_SHARE
                 ) -> dict[int, int]:
    """The colours of ``major`` (0-based) that are the sides of another of them: colour →
    the colour whose sides they are (module docstring). ``blob``: the blob's samples (a
    grid of booleans); ``labels``: the region's colour labels (1… the cube colours);
    ``shades``: which colours each colour's sides read as; ``area_one``: a cube's
    apparent area in samples; ``lit``: the region's samples (flat BGR) under the markers'
    white; ``cube_rgb``: the cube colours as the reader knows them; ``share``: how much
    of a colour's samples its shaded sides can cover. Raises nothing."""
    if len(major) < 2:
        return {}
    k3 = np.ones((3, 3), np.uint8)
    cores: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # colour -> core's hue, mean BGR
    area: dict[int, int] = {}
    for j in major:
        mine = blob & (labels == j + 1)
        area[j] = int(np.count_nonzero(mine))
        core = cv2.erode(mine.astype(np.uint8), k3) > 0
        if np.count_nonzero(core) >= CORE_SAMPLES * area_one:
            px = lit[core.ravel()]
            cores[j] = _hue(px).mean(axis=0), px.astype(np.float32).mean(axis=0)
    out: dict[int, int] = {}
    for j, (seen, level) in cores.items():
        own = float(np.abs(seen - _hue(np.array(cube_rgb[CUBE_COLOURS[j]][::-1]))[0]).sum())
        # darker in every channel than the darkest side of the other can be: no side of it
        # (a black cube beside a green one takes green's hue from its blur)
        tops = [(float(np.abs(seen - cores[m][0]).sum()), m) for m in cores
                if m != j and m not in out and j in shades[m]
                and area[j] < share * area[m]
                and not (level < SIDE_SHADES[0] * cores[m][1]).all()]
        if tops:
            near, m = min(tops)
            if near < SIDE_MARGIN * own:
                out[j] = m
    return out
