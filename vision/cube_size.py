"""What ``calibrate cubes`` measures of each cube region it was shown: the colour of the
cubes' lit faces and their apparent area against the camera's geometry (a part of
`vision.read_cubes`' cube reading, with the empty-board model)."""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from .colour import apply_gain_keeping_hue, lut_index

if TYPE_CHECKING:
    from .read_cubes import CubeReading


class BoardNotFound(ValueError):
    """The main board is not found in a frame shown to ``calibrate cubes``."""


class CubeSample(NamedTuple):
    """One calibration region's cubes as seen: ``rgb`` their lit faces (under the light
    that makes the markers' white paper white), ``scale`` their apparent area over what
    the camera's geometry predicts."""

    rgb: np.ndarray
    scale: float


def measure_cubes(reader: CubeReading, frame: np.ndarray,
                  placed: dict[str, tuple[str, int]]) -> dict[str, CubeSample]:
    """For ``calibrate cubes`` with the empty-board model: per region holding ``count``
    cubes of one colour, a `CubeSample`. A region not seen (its board not found, under a
    hand) or where no cube stands out is left out of the answer.

    The lit faces are the brighter half of the samples inside the cubes (the 3×3 rim,
    where a cube mixes with the board, left out): never a shadow, nor a side turned from
    the lamp. Raises ValueError for a region the layout does not have, BoardNotFound (a
    ValueError) when the main board is not found.
    """
    reading = reader.read(frame)
    plan = reader._plan
    if plan is None or not reading.boards.get("main"):
        raise BoardNotFound("the board is not found in this frame")
    samples = cv2.remap(frame, plan.map1, plan.map2, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0)).reshape(-1, 3)
    out: dict[str, CubeSample] = {}
    for region, (_colour, count) in placed.items():
        hit = next(((b, r) for b, r in reader.layout.cube_regions() if r.name == region),
                   None)
        if hit is None:
            raise ValueError(f"no cube region {region!r}")
        board, r = hit
        empty = reader._empty.get(f"{board}/{r.key}")
        white = reader._white.get(board)
        if (not reading.boards.get(board) or region in reading.occluded or empty is None
                or white is None):
            continue  # not seen, or no empty-board model there
        a, b, shape = plan.slices[(board, r.key)]
        raw = samples[a:b]
        bal = apply_gain_keeping_hue(raw, white)
        labels = reader._lut("cubes", None, ())[lut_index(bal)].reshape(shape)
        _piece, cube, _gain = reader._cube_samples(raw, labels, empty,
                                                   reader._light.get(board, 0.0), white)
        inner = cv2.erode(cube, np.ones((3, 3), np.uint8)).ravel() > 0
        if np.count_nonzero(cube) < 0.3 * count * reader.cube_area or not inner.any():
            continue  # no cube stands out from the board
        px = bal[inner].astype(np.float32)
        lum = px.sum(axis=1)
        lit = px[lum >= np.median(lum)]
        top, sides = reader._cube_areas.get(
            (board, r.key), (reader.cube_area / reader.area_factor,
                             reader.cube_area * (1 - 1 / reader.area_factor)))
        out[region] = CubeSample(lit.mean(axis=0)[::-1],
                                 float(np.count_nonzero(cube)) / count / (top + sides))
    return out
