"""The markers' white paper measured through the camera's blur.

A marker is a print the reader knows exactly once it is decoded: its black square and
bits, then a white quiet zone at least ``QUIET_MM`` wide, then whatever the board prints.
A camera that spreads a point over a few pixels mixes the black and the print beyond
into that zone (at 1 px/mm and a blur of σ 2 px, a sample in the middle of a 4 mm zone
is a third black and print), so the paper's white cannot be sampled anywhere there.

Instead the frame around each marker is fitted as that known print seen through a
Gaussian blur: for each σ tried (frame pixels), the levels of the black, the white and
the print beyond come by least squares (per channel); the σ whose fit leaves the least
residual gives the white. The points fitted are those inside the quiet zone's outline
(marker and zone), where the print beyond weighs only through its blurred edge. The
fit is refused (``None``) when its residual is large against its contrast: a hand, a
piece or a shadow's edge over the marker. σ and the warped print are kept while the
board's homography does not change (a steady camera keeps its blur); each frame then
costs one least-squares solve per marker.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .geometry import DICTIONARY, project
from .layout import Board
from .lens import Lens

QUIET_MM = 4.0  # the quiet zone relied on: the sheet prints 5 mm, the renders 4
RES = 4.0  # pixels per mm of the marker's print as the fit draws it
UP = 4  # each frame pixel drawn as UP×UP (a pixel integrates what it sees)
SIGMAS = np.arange(0.4, 5.01, 0.4)  # blurs tried (frame px), then refined between two
PAD_PX = 12  # frame pixels around the quiet zone's outline: the blur's reach
MAX_RMS = 0.12  # a fit leaving more than this share of its contrast is not a marker seen
MIN_CONTRAST = 20.0  # a fit whose white is not this much above its black: nothing seen


@dataclass
class WhiteFit:
    """One marker's fit: its white and black (BGR, frame levels), the blur σ (frame px)
    and the residual's RMS over the white-black contrast."""

    white: np.ndarray
    black: np.ndarray
    sigma: float
    rms: float


@dataclass
class _Drawn:
    """A marker's print warped into its patch of the frame, blurred by ``sigma``."""

    box: tuple[int, int, int, int]  # x0, y0, x1, y1 in the frame
    inside: np.ndarray  # the patch's points fitted (inside the quiet zone's outline)
    design: np.ndarray | None  # n×3: blurred black, white and beyond at those points
    sigma: float
    solve: np.ndarray | None = None  # 3×n: the design's pseudo-inverse (least squares)


def _print(board: Board, mid: int) -> np.ndarray:
    """The marker and its quiet zone at ``RES`` px/mm: 0 black, 1 white."""
    side = round(board.marker_mm * RES)
    q = round(QUIET_MM * RES)
    img = np.ones((side + 2 * q, side + 2 * q), np.float32)
    mk = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICTIONARY), mid, side)
    img[q:q + side, q:q + side] = (mk > 127).astype(np.float32)
    return img


class MarkerWhites:
    """Per marker, the fit of its print through the blur (``fit``), its drawing kept per
    homography."""

    def __init__(self) -> None:
        self._prints: dict[tuple[float, int], np.ndarray] = {}
        self._drawn: dict[tuple[str, int], tuple[int, _Drawn]] = {}

    def whites(self, frame: np.ndarray, board: Board, hom: np.ndarray, lens: Lens | None,
               version: int, skip: set[int] | frozenset[int] = frozenset()) -> list[WhiteFit]:
        """The fits of a board's markers (those not in ``skip``) that pass."""
        out = []
        for mid in board.markers:
            if mid in skip:
                continue
            fit = self.fit(frame, board, mid, hom, lens, version)
            if fit is not None:
                out.append(fit)
        return out

    def fit(self, frame: np.ndarray, board: Board, mid: int, hom: np.ndarray,
            lens: Lens | None, version: int) -> WhiteFit | None:
        """Marker ``mid``'s fit in ``frame`` (the board at ``hom``, homography number
        ``version``), or None when it lies off the frame or the fit is refused."""
        key = (board.name, mid)
        hit = self._drawn.get(key)
        if hit is None or hit[0] != version:
            maps = self._warp(frame.shape[:2], board, mid, hom, lens)
            if maps is None:
                self._drawn.pop(key, None)
                return None
            box, inside, black, white = maps
            drawn = _Drawn(box, inside, None, 0.0)
            fit = self._best(frame, drawn, black, white)
            if fit is not None:  # a good fit's σ is kept for this homography
                self._drawn[key] = (version, drawn)
            return fit
        drawn = hit[1]
        assert drawn.design is not None and drawn.solve is not None
        return _solve(_patch(frame, drawn), drawn.design, drawn.solve, drawn.sigma)

    def _warp(self, shape: tuple[int, ...], board: Board, mid: int, hom: np.ndarray,
              lens: Lens | None
              ) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray, np.ndarray] | None:
        """The patch of the frame around the marker and its print warped into it (each
        pixel the share of it that is black, that is white)."""
        pkey = (board.marker_mm, mid)
        img = self._prints.get(pkey)
        if img is None:
            img = self._prints[pkey] = _print(board, mid)
        x, y = board.markers[mid]
        span = board.marker_mm + 2 * QUIET_MM
        g = np.linspace(0.0, span, 5)
        gx, gy = np.meshgrid(g, g)
        mm = np.stack([gx.ravel(), gy.ravel()], 1)
        dst = project(hom, (mm + np.array([x - QUIET_MM, y - QUIET_MM])).astype(np.float32), lens)
        x0, y0 = (np.floor(dst.min(0)) - PAD_PX).astype(int)
        x1, y1 = (np.ceil(dst.max(0)) + PAD_PX).astype(int)
        if x0 < 0 or y0 < 0 or x1 > shape[1] or y1 > shape[0]:
            return None
        w, h = int(x1 - x0), int(y1 - y0)
        # pixel centres: print pixel i covers mm [i, i+1)/RES; patch pixel j is UP pixels
        src = (mm * RES - 0.5).astype(np.float32)
        up = ((dst - np.array([x0, y0]) + 0.5) * UP - 0.5).astype(np.float32)
        m, _ok = cv2.findHomography(src, up)
        if m is None:
            return None
        size = (w * UP, h * UP)
        white = cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR,
                                    borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
        zone = cv2.warpPerspective(np.ones_like(img), m, size, flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0.0)
        white = cv2.resize(white, (w, h), interpolation=cv2.INTER_AREA)
        zone = cv2.resize(zone, (w, h), interpolation=cv2.INTER_AREA)
        return (int(x0), int(y0), int(x1), int(y1)), zone > 0.5, zone - white, white

    @staticmethod
    def _best(frame: np.ndarray, drawn: _Drawn, black: np.ndarray, white: np.ndarray
              ) -> WhiteFit | None:
        """Try each σ of ``SIGMAS`` on the grey patch, refine the best between its
        neighbours (a parabola through the three residuals), and fit the colours there;
        ``drawn`` keeps the design of the σ chosen."""
        patch = _patch(frame, drawn)
        grey = patch.mean(axis=1, keepdims=True)

        def design(sigma: float) -> np.ndarray:
            b = cv2.GaussianBlur(black, (0, 0), sigma)[drawn.inside]
            wt = cv2.GaussianBlur(white, (0, 0), sigma)[drawn.inside]
            return np.stack([b, wt, 1.0 - b - wt], axis=1)

        def residual(sigma: float) -> float:
            a = design(sigma)
            coef, *_ = np.linalg.lstsq(a, grey, rcond=None)
            return float(np.mean((a @ coef - grey) ** 2))

        res = [residual(float(s)) for s in SIGMAS]
        k = int(np.argmin(res))
        sigma = float(SIGMAS[k])
        if 0 < k < len(SIGMAS) - 1:
            r0, r1, r2 = res[k - 1], res[k], res[k + 1]
            bend = r0 - 2 * r1 + r2
            if bend > 0:
                step = float(SIGMAS[1] - SIGMAS[0])
                sigma += step * float(np.clip(0.5 * (r0 - r2) / bend, -0.5, 0.5))
        drawn.design = design(sigma)
        drawn.solve = np.linalg.pinv(drawn.design)
        drawn.sigma = sigma
        return _solve(patch, drawn.design, drawn.solve, sigma)


def _patch(frame: np.ndarray, drawn: _Drawn) -> np.ndarray:
    x0, y0, x1, y1 = drawn.box
    out: np.ndarray = frame[y0:y1, x0:x1][drawn.inside].astype(np.float32)
    return out


def _solve(patch: np.ndarray, design: np.ndarray, solve: np.ndarray, sigma: float
           ) -> WhiteFit | None:
    """The levels of black, white and beyond per channel at this blur (``solve``: the
    design's pseudo-inverse), or None when the fit is refused (``MAX_RMS``,
    ``MIN_CONTRAST``)."""
    coef = solve @ patch
    black, white = coef[0], coef[1]
    contrast = float(np.mean(white - black))
    if contrast < MIN_CONTRAST:
        return None
    rms = float(np.sqrt(np.mean((design @ coef - patch) ** 2))) / contrast
    if rms > MAX_RMS:
        return None
    return WhiteFit(white.astype(np.float32), black.astype(np.float32), sigma, rms)
