"""The lens calibration sheet (a ChArUco board) and the lens computed from photos of it.

``sheet()`` is an A4 page at 300 dpi: a 9 × 6 chessboard of 28 mm squares with ArUco
markers (5×5 dictionary, so none is taken for a board marker, which are 4×4) in its white
squares. ``calibrate(frames)`` finds the chessboard corners in each photo
(``cv2.aruco.CharucoDetector``) and computes the camera matrix and distortion with
``cv2.calibrateCamera`` (k3 fixed at 0: two radial terms and the tangential pair are
enough for a webcam lens, and a third term overfits a few photos).
"""

from __future__ import annotations

from collections.abc import Iterable

import cv2
import numpy as np

from .lens import Lens, LensError

SQUARES = (9, 6)  # columns, rows
SQUARE_MM = 28.0
MARKER_MM = 21.0
DICTIONARY = cv2.aruco.DICT_5X5_100
DPI = 300
A4_PX = (3508, 2480)  # landscape, 300 dpi
PAGE_MM = (297.0, 210.0)
MIN_VIEWS = 6
MIN_CORNERS = 12  # a photo with fewer chessboard corners found is not used


def board() -> cv2.aruco.CharucoBoard:
    return cv2.aruco.CharucoBoard(SQUARES, SQUARE_MM, MARKER_MM,
                                  cv2.aruco.getPredefinedDictionary(DICTIONARY))


def sheet() -> np.ndarray:
    """The printable sheet: grey image, A4 landscape at 300 dpi, the board at true size."""
    px_per_mm = DPI / 25.4
    w = round(SQUARES[0] * SQUARE_MM * px_per_mm)
    h = round(SQUARES[1] * SQUARE_MM * px_per_mm)
    img = board().generateImage((w, h), marginSize=0, borderBits=1)
    page = np.full((A4_PX[1], A4_PX[0]), 255, np.uint8)
    y, x = (A4_PX[1] - h) // 2, (A4_PX[0] - w) // 2
    page[y:y + h, x:x + w] = img
    cv2.putText(page, f"lens calibration: {SQUARES[0]}x{SQUARES[1]} squares of "
                f"{SQUARE_MM:g} mm - print at 100 %", (x, y + h + 80),
                cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3, cv2.LINE_AA)
    return page


def sheet_origin_mm() -> tuple[float, float]:
    """Where the board's top-left corner sits on the page (mm from the page's corner)."""
    px_per_mm = DPI / 25.4
    w = round(SQUARES[0] * SQUARE_MM * px_per_mm)
    h = round(SQUARES[1] * SQUARE_MM * px_per_mm)
    return ((A4_PX[0] - w) // 2 / px_per_mm, (A4_PX[1] - h) // 2 / px_per_mm)


def _detector() -> cv2.aruco.CharucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.CharucoDetector(board(), cv2.aruco.CharucoParameters(), params)


def corners(frame: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(board points mm n×3, frame points n×2) of the chessboard corners seen, or None when
    fewer than ``MIN_CORNERS`` are."""
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    ch_corners, ch_ids, _m, _i = _detector().detectBoard(gray)
    if ch_ids is None or len(ch_ids) < MIN_CORNERS:
        return None
    obj, img = board().matchImagePoints(ch_corners, ch_ids)  # type: ignore[call-overload]
    if obj is None or len(obj) < MIN_CORNERS:
        return None
    return obj.reshape(-1, 3).astype(np.float32), img.reshape(-1, 2).astype(np.float32)


def calibrate(frames: Iterable[np.ndarray]) -> Lens:
    """The lens from photos of the sheet (all the same size). Raises LensError when fewer
    than ``MIN_VIEWS`` photos show enough of the board, or the photos differ in size."""
    objs: list[np.ndarray] = []
    imgs: list[np.ndarray] = []
    size: tuple[int, int] | None = None
    for frame in frames:
        here = (frame.shape[1], frame.shape[0])
        if size is not None and here != size:
            raise LensError(f"photos of different sizes: {size} and {here}")
        size = here
        found = corners(frame)
        if found is not None:
            objs.append(found[0])
            imgs.append(found[1])
    if size is None or len(objs) < MIN_VIEWS:
        raise LensError(f"the sheet was found in {len(objs)} photos; at least {MIN_VIEWS} are "
                        "needed (hold it at several places and angles, filling the frame)")
    rms, k, dist, _r, _t = cv2.calibrateCamera(objs, imgs, size, None, None,
                                               flags=cv2.CALIB_FIX_K3)
    return Lens(np.asarray(k, np.float64), np.asarray(dist, np.float64).ravel()[:5], size,
                float(rms), len(objs))
