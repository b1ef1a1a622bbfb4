"""Guidance for the lens step: where the ChArUco sheet has been seen, where to hold it
next, and a coverage picture (``/calibrate``'s lens step, ``docs/vision.md``).

A lens is well measured when the sheet has been seen all over the frame (the distortion
is strongest at the edges and corners) and at several angles. The frame is cut into a 3×3
grid; a photo covers the cells its chessboard corners fall in. The next place asked for is
the first cell not yet covered (centre first, then the corners, then the edges), and the
tilt asked for goes round flat, left, right, top away, bottom away.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import charuco

GRID = 3
ORDER = [(1, 1), (0, 0), (2, 0), (2, 2), (0, 2), (1, 0), (2, 1), (1, 2), (0, 1)]
PLACES = {(1, 1): "in the middle", (0, 0): "top left", (2, 0): "top right",
          (2, 2): "bottom right", (0, 2): "bottom left", (1, 0): "at the top",
          (2, 1): "on the right", (1, 2): "at the bottom", (0, 1): "on the left"}
TILTS = ["flat, facing the camera", "tilted about 30° to the left",
         "tilted about 30° to the right", "with its top tilted away about 30°",
         "with its bottom tilted away about 30°"]
GOOD_PHOTOS = 12  # photos asked for: every cell once, and a few more angles


@dataclass(frozen=True)
class Shot:
    """One photo of the sheet: the chessboard corners found in it (frame pixels)."""

    points: np.ndarray  # n×2

    def cells(self, size: tuple[int, int]) -> set[tuple[int, int]]:
        w, h = size
        cols = np.clip((self.points[:, 0] / w * GRID).astype(int), 0, GRID - 1)
        rows = np.clip((self.points[:, 1] / h * GRID).astype(int), 0, GRID - 1)
        return {(int(c), int(r)) for c, r in zip(cols, rows, strict=True)}


def shot(frame: np.ndarray) -> Shot | None:
    """The sheet's corners in one frame, or None when too few are seen."""
    found = charuco.corners(frame)
    return None if found is None else Shot(found[1])


def covered(shots: list[Shot], size: tuple[int, int]) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for s in shots:
        out |= s.cells(size)
    return out


def advice(shots: list[Shot], size: tuple[int, int]) -> dict[str, object]:
    """What to do next: ``place`` (the 3×3 cell, column and row), ``say`` (in words),
    ``photos`` taken, ``covered`` cells, and ``ready`` when the lens can be computed
    (``charuco.MIN_VIEWS`` photos at least; every cell covered is better)."""
    done = covered(shots, size)
    todo = [c for c in ORDER if c not in done]
    place = todo[0] if todo else ORDER[len(shots) % len(ORDER)]
    tilt = TILTS[len(shots) % len(TILTS)]
    n = len(shots)
    if n >= GOOD_PHOTOS and not todo:
        say = (f"{n} photos, the whole view covered: compute the lens (more photos at other "
               "angles do no harm).")
    else:
        say = (f"Hold the sheet {PLACES[place]} of the picture, {tilt}, filling about a "
               f"third of the picture, still, then take the photo ({n} of about "
               f"{GOOD_PHOTOS} taken).")
    return {"place": list(place), "say": say, "photos": n, "needed": charuco.MIN_VIEWS,
            "covered": sorted([list(c) for c in done]), "ready": n >= charuco.MIN_VIEWS}


def picture(frame: np.ndarray, shots: list[Shot], width: int = 640) -> np.ndarray:
    """The live frame, dimmed, with the sheet's corners of every photo taken (green), the
    grid, and the place asked for next (a yellow frame)."""
    h0, w0 = frame.shape[:2]
    k = width / w0
    img = cv2.resize(frame, (width, round(h0 * k)), interpolation=cv2.INTER_AREA)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    img = (img.astype(np.float32) * 0.55).astype(np.uint8)
    h, w = img.shape[:2]
    done = covered(shots, (w0, h0))
    overlay = img.copy()
    for c, r in done:
        cv2.rectangle(overlay, (c * w // GRID, r * h // GRID),
                      ((c + 1) * w // GRID, (r + 1) * h // GRID), (60, 160, 60), -1)
    img = cv2.addWeighted(overlay, 0.35, img, 0.65, 0)
    for s in shots:
        hull = cv2.convexHull((s.points * k).astype(np.int32))
        cv2.polylines(img, [hull], True, (80, 220, 80), 1, cv2.LINE_AA)
        for x, y in s.points * k:
            cv2.circle(img, (int(x), int(y)), 1, (80, 220, 80), -1)
    for i in range(1, GRID):
        cv2.line(img, (i * w // GRID, 0), (i * w // GRID, h), (200, 200, 200), 1)
        cv2.line(img, (0, i * h // GRID), (w, i * h // GRID), (200, 200, 200), 1)
    c, r = advice(shots, (w0, h0))["place"]  # type: ignore[misc]
    cv2.rectangle(img, (c * w // GRID + 3, r * h // GRID + 3),
                  ((c + 1) * w // GRID - 3, (r + 1) * h // GRID - 3), (0, 220, 255), 3)
    return img


__all__ = ["Shot", "advice", "covered", "picture", "shot"]
