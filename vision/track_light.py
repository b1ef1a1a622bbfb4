"""The light on a track's cells, for telling a disc from its empty cell (a part of
`vision.read_pieces`'s track reading, with the empty-board model).

A disc (16 mm) covers a third of a time track's cell (26 mm square), and a cell's print
has several colours: the cell's median change from the empty board leans to the disc's
colour, and under that "light" the disc is the board (a blue disc on a dim farm: gains
0.67, 0.49, 0.48 where its neighbours' are even, 0.57-0.67 a channel; 12 of its 144
samples differed). The light's colour on a cell is the median of that of the
cells around it on its track (``NEAR`` each side, in the track's order: a few
centimetres, over which the light's colour hardly changes, where at most a few discs
lie); its level is the cell's own.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .layout import Region
from .read_parts import _mean3, median0

NEAR = 3  # cells each side of a cell whose light is taken with its own


@lru_cache(maxsize=32)
def near_cells(cells: tuple[Region, ...]) -> np.ndarray:
    """For each of ``cells`` (a board's track cells, in any order), the rows of the
    2·NEAR + 1 cells of its own track nearest it in the track's order (itself included;
    at a track's end, the first or last of them; a shorter track's cells repeated):
    cells × (2·NEAR + 1); once per board's cells)."""
    out = np.tile(np.arange(len(cells))[:, None], (1, 2 * NEAR + 1))
    tracks: dict[str, list[int]] = {}
    for i, r in enumerate(cells):
        tracks.setdefault(r.name, []).append(i)
    for rows in tracks.values():
        rows.sort(key=lambda i: (cells[i].cell is None, cells[i].cell or 0))
        width = min(len(rows), 2 * NEAR + 1)
        for k, i in enumerate(rows):
            start = min(max(0, k - NEAR), len(rows) - width)
            got = rows[start:start + width]
            out[i] = (got * (2 * NEAR + 1))[:2 * NEAR + 1]
    return out


def cell_light(gains: np.ndarray, near: np.ndarray) -> np.ndarray:
    """Each cell's light (cells × 3): its colour the median of the cells' own ``gains``
    (their median change from the empty board, cells × 3) over the cells ``near`` it
    (`near_cells`), its level the cell's own (the edge of a cast shadow may lie between
    two cells: a lit cell taken as dim as its neighbours made a pale cell a white disc)."""
    light = median0(gains[near].swapaxes(0, 1))
    level = (_mean3(gains) / np.maximum(_mean3(light), 1e-3))[:, None]
    out: np.ndarray = light * level
    return out
