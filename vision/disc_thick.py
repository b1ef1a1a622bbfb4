"""A white disc is a disc, not a line of samples (a part of `vision.read_pieces`' track
reading, with the empty-board model).

A track cell is sampled on a 12 × 12 grid (2-2.8 mm apart); a disc is 16 mm across,
six to eight samples, and a piece of one peeking from under another is still a few
samples wide. A sample on a disc's edge mixes the disc with the print, and the mixture
of a disc colour with a pale print is pale: it reads white. Around two discs on one cell
(red and yellow on cell 24 of the prestige track, seed 1's table 23 in ordinary light)
16 such samples, a ring one sample wide, read as 0.45 of a white disc, and a white disc
was invented. The cell's light there is also its own median, taken mostly from the
discs, which makes the print around them look brighter than it is, so the rule that a
white disc is never darker than the print did not hold it back. So on a cell where
another disc colour is seen, a white sample counts only within a 2 × 2 block of white
samples (``thick``: the mask opened by a 2 × 2 square): a disc's face holds many, a
one-sample ring none. On a cell with no other disc the pale edge samples are the white
disc's own and all count (a white disc in hard light on a farm's time track showed 13
samples, 0.30 of a disc, one of them outside any 2 × 2 block). Only white: a disc's
edge mixed with the print reads as no other disc colour more than as its own.
"""

from __future__ import annotations

import numpy as np


def thick(mask: np.ndarray, n: int) -> np.ndarray:
    """The samples of ``mask`` (cells × n² booleans, each cell an n × n grid row by row)
    that lie in a 2 × 2 block of ``mask`` samples (the mask opened by a 2 × 2 square), in
    the same shape. Raises ValueError when a row does not hold n² samples."""
    grid = mask.reshape(mask.shape[0], n, n)
    core = grid[:, :-1, :-1] & grid[:, 1:, :-1] & grid[:, :-1, 1:] & grid[:, 1:, 1:]
    out = np.zeros_like(grid)
    out[:, :-1, :-1] |= core
    out[:, 1:, :-1] |= core
    out[:, :-1, 1:] |= core
    out[:, 1:, 1:] |= core
    return out.reshape(mask.shape)
