"""The light a farm's items are told under.

Items are classified against colours known beforehand (the layout's), so under the gain
that makes the markers' paper white as fitted through the blur
(``vision/marker_white.py``). A marker sees the light where it lies; a region can lie in
a shadow the markers do not: against the empty-board model, a region darker than its
whole board (each this frame's light over the empty board's: the median ratio) is lit up
by that ratio, up to ``ITEM_SHADE_MAX``. Only up: a region brighter than its board is as
likely one where a shadow lay when the empty board was learnt as one lit now.
"""

from __future__ import annotations

import numpy as np

from .read_parts import ITEM_SHADE_MAX, median0


def item_gain(white: np.ndarray | None, empty: np.ndarray | None, board_light: float | None,
              raw: np.ndarray) -> np.ndarray | None:
    """The gain (BGR) for a region's samples ``raw`` (n×3 uint8): ``white`` (the markers'
    fitted white's gain) raised by the region's shade against its board (``empty``: the
    region's empty board, n×3 float, +1; ``board_light``: the board's light over its
    empty board's, mean of channels). ``white`` alone without the model; None without
    ``white``."""
    if white is None or empty is None or empty.shape[0] != len(raw) or not board_light:
        return white
    region = float(median0((raw.astype(np.float32) + 1.0) / empty).mean())
    if region <= 0:
        return white
    out: np.ndarray = white * float(np.clip(board_light / region, 1.0, ITEM_SHADE_MAX))
    return out
