"""Pieces counted by how much of a piece each sample holds (blur does not change that sum),
and dark flat pieces told from shadows (an item region holds nothing tall)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.item_shapes import flat_dark_pieces as _flat_dark_pieces
from vision.read_parts import count_blobs

BOARD = np.array([120.0, 170.0, 150.0], np.float32)  # BGR of a plain printed board
RED = np.array([40.0, 40.0, 200.0], np.float32)
NAMES = ("red",)


def _scene(centres: list[tuple[int, int]], radius: int, blur: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """A 40×60 grid of samples: red discs on the board, blurred; the labels a reader gives
    (1 where a sample differs from the board by more than 22 levels in some channel) and
    each sample's difference from the empty board."""
    img = np.empty((40, 60, 3), np.float32)
    img[:] = BOARD
    for c in centres:
        cv2.circle(img, c, radius, RED.tolist(), -1, cv2.LINE_AA)
    img = cv2.GaussianBlur(img, (0, 0), blur)
    diff = img - BOARD
    labels = (np.abs(diff).max(axis=2) > 22).astype(np.uint8)
    return labels, diff


def _one() -> list[float]:
    """One disc's area in samples, as drawn (sharp)."""
    _labels, diff = _scene([(20, 20)], 5, 0.01)
    return [float(np.clip(diff @ (RED - BOARD) / float((RED - BOARD) @ (RED - BOARD)),
                          0, 1).sum())]


def test_a_blurred_piece_is_one_piece_by_its_soft_area() -> None:
    labels, diff = _scene([(20, 20)], 5, 1.6)
    one = _one()
    # counting differing samples takes in the blurred rim: one disc looks like two
    assert count_blobs(labels, NAMES, one) == {"red": 2}
    assert count_blobs(labels, NAMES, one, diff=diff) == {"red": 1}


def test_touching_pieces_are_counted_each_by_soft_area() -> None:
    labels, diff = _scene([(20, 20), (30, 20), (40, 21)], 5, 1.6)
    one = _one()
    assert count_blobs(labels, NAMES, one, diff=diff) == {"red": 3}


def test_a_dark_tile_is_a_piece_and_a_shadow_beside_the_edge_or_a_rim_is_not() -> None:
    shadow = np.zeros((34, 99), bool)
    shadow[10:21, 40:51] = True  # a tile of 11×11 samples inside the region
    shadow[0:12, 0:30] = True  # a shadow cast from outside the region (touches its edge)
    shadow[25, 60:80] = True  # the thin shadow under a flat tile's edge
    one = 100.0
    found = _flat_dark_pieces(shadow, one)
    assert found[10:21, 40:51].all()
    assert not found[0:12, 0:30].any() and not found[25].any()
    wide = np.zeros((34, 99), bool)
    wide[5:30, 20:80] = True  # a room's soft shadow: many pieces large
    assert not _flat_dark_pieces(wide, one).any()
