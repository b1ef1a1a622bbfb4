"""A region's light against the empty board, taken from the samples that still look like
the board.

A region's light (a gain per channel: this frame over the empty board) was the median of
its samples' ratios. With pieces over more than half of a small region that median is the
pieces' colour, not the light's: four red figures in a church window gave a "light" of
B, G, R = 0.60, 0.99, 1.13 where the window beside it had 1.00, 1.00, 1.00, and the glass
left uncovered was then counted as white figures.

A change of light between the empty board's capture and this frame keeps its colour over
the board: a lamp dimmed, a cloud, a shadow or the camera's exposure change the level of
all three channels nearly together, and a change of the light's colour (daylight to lamp)
changes every region alike. So the light here has the colour of the light over the whole
board (`BoardReader._board_light`, the median over most of the board, nearly all of it
empty) and its own level. A region's median whose colour lies off the board light's by
more than ``PLAUSIBLE`` is no light: then only the samples whose ratio has that colour
(within ``SAMPLE_HUE``) are the board, and their median is the region's light (taken from
those samples always, it lost white figures on the small city zones in hard light, a white
piece being a pale print brightened evenly, and read figures more on the farms). On 8
real-table renders (4 ordinary, 4 hard, two contents each): over 905 empty figure zones
and item regions, the median's colour lay within 0.03 of the board's light's, and 91 % or
more of each region's samples within 0.10 of it; regions holding pieces lay up to 0.17
off (docs/vision.md, « Fifteenth session: light gain and supplies »).
"""

from __future__ import annotations

import numpy as np

from .read_parts import _max3, _mean3, median0

# a region's median whose colour lies further than this from the board light's is no
# light (empty regions: 0.005 in ordinary light, 0.03 in hard light at most)
PLAUSIBLE = 0.05
SAMPLE_HUE = 0.10  # a sample off the board light's colour by more than this is no board
MIN_SHARE = 0.15  # fewer board-coloured samples than this: the region is covered


def region_gain(ratio: np.ndarray, board_gain: np.ndarray | None) -> np.ndarray:
    """The light on a region against the empty board (3 channels) from its samples'
    ratios ``ratio`` (n×3, this frame over the empty board), given the light over its
    whole board ``board_gain`` (None: unknown, the samples' median is taken).

    The samples' median when its colour is the board light's (within ``PLAUSIBLE``);
    else the median of the samples whose ratio has that colour, or when fewer than
    ``MIN_SHARE`` of them do (the region is covered), the board's light. Raises
    nothing; an empty ``ratio`` gives the board's light (or NaN without it)."""
    if not len(ratio):
        return (np.full(3, np.nan, np.float32) if board_gain is None
                else board_gain.astype(np.float32))
    median = median0(ratio)
    if board_gain is None or _hue_off(median, board_gain) <= PLAUSIBLE:
        return median
    rel = ratio / board_gain
    level = _mean3(rel)
    hue_off = _max3(np.abs(rel / np.maximum(level, 1e-6)[:, None] - 1.0))
    board = hue_off <= SAMPLE_HUE
    if np.count_nonzero(board) < MIN_SHARE * len(ratio) or not board.any():
        return board_gain.astype(np.float32)
    out: np.ndarray = median0(ratio[board])
    return out


def _hue_off(gain: np.ndarray, board_gain: np.ndarray) -> float:
    """How far a gain's colour (its channels over their mean) lies from the board light's,
    as the largest relative difference of a channel."""
    rel = gain / board_gain
    return float(np.abs(rel / max(float(rel.mean()), 1e-6) - 1.0).max())
