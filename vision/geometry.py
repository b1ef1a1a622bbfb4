"""Where the boards are in the frame: ArUco markers give one homography per board.

Detector parameters were chosen on the real-table renders (``vision-bench`` real-hard:
720p, Gaussian blur σ 1.6–2.6, dim light, JPEG 50–65): with the dictionary's defaults
35 of 80 markers decoded in 10 frames; finer bit sampling (``perspectiveRemovePixelPerCell``
8, margin 0.25) 48; the same on an unsharp-masked copy of the frame 70 (``docs/vision.md``).
Detection tries the cheap pass first (half resolution), then full resolution, then the
sharpened frame, then a lower threshold (a quiet zone the lens squeezes to a pixel or two
beside a dark table), each only while a marker is missing. A fit uses every decoded marker of
a board and is refused (``Geometry.refused`` says why) with fewer than three of the main
board's markers or a reprojection error above ``MAX_FIT_PX`` (``MAX_FIT_PX_NO_LENS``
without a lens calibration), unless the markers seen still
sit where the last good pose puts them (the camera has not moved): then that pose is kept.
A farm is placed in the main board's plane from its marker (a rigid fit), never from its
one marker alone.

Detection (about 1.4 ms at half resolution on these machines) runs only when needed: a
cheap check samples each known marker's 6×6 cells through the current homography every
frame; while every visible marker still shows its own pattern the geometry is reused. A
marker that no longer matches (a bumped board, a moved farm, a hand over it) triggers a
detection, rate-limited while the marker stays hidden; a periodic detection measures drift.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .farm_outline import MIN_CONTRAST, refine_rotation
from .layout import Board, Layout
from .lens import Lens

DICTIONARY = cv2.aruco.DICT_4X4_50
MIN_MAIN_MARKERS = 3
# RMS distance between the marker corners seen and where the fit puts them, above which a
# fit is refused. With a lens calibration the fits on the real-table renders measured
# 0.35–1.07 px in ordinary frames (up to 1.07 with the 90° camera) and 1.0–3.3 px in blurred
# ones (σ 1.6–2.6 px: the corners are found less precisely); without one the lens's bending
# is part of the error (1.1–8.0 px on the ordinary frames; farms, at the frame's edges, the
# worst), so an uncalibrated camera is allowed more and its health says so.
MAX_FIT_PX = 3.0
MAX_FIT_PX_NO_LENS = 6.0
AGREE_PX = 2.0  # markers this close to where the last good pose puts them: camera not moved
# The main board's pose kept while the camera has not moved (``pose_kept``): with fewer than
# ``MIN_MAIN_MARKERS`` of its markers decoded, the last good pose (an earlier frame's, or the
# calibration's: the same camera on its stand) is kept when the corners of the markers that
# do decode lie within this RMS of where it puts them: the limit a new fit must meet.
KEEP_PX = MAX_FIT_PX
# the last detection pass's threshold: a pixel is white above its window's mean less this
# (the dictionary's 7 merged a quiet zone 1–2 px wide with a dark table beside it)
THIN_QUIET_ZONE_C = 14.0
# A marker still missing after those passes is looked for once more on the frame enlarged
# twice (cubic) and sharpened: a 25 mm farm marker 20 px wide under a blur of σ 2 px has
# cells of 3 px, too few for the contour and bit sampling to hold; enlarged, its square's
# outline and cells span twice the pixels (the bench's real-hard table 3 of seed 1: the
# yellow farm's marker, decoded in none of the passes above in its first contents, was
# so in all four). Dear (76 ms CPU on a 1280×720 frame), so at most once per
# ``recheck_every`` frames: a farm out of the camera's view (a two-player game) would
# ask for it at every detection.
FINE_SCALE = 2.0
# A farm's fit above the limit is tried again without the corner farthest from it (three
# corners still over-determine its rigid pose: 6 coordinates, 3 unknowns). Blurred, a
# marker's corner is pulled toward dark print next to its 5 mm quiet zone: on the real-hard
# renders of seed 1 the refused farms had one or two corners 5-7 px from the true ones,
# the others 1-2 px. The three corners' fit must meet the same limit for the same corner
# noise (scaled by its freedom); on the real-hard renders of seeds 1-3 (26 farms above the
# limit): 17 placed so, 1.6 px from the true pose at the far corner (median; max 5.7), 6
# refused that would have been 3.4 (« Twelfth session: hard light » in docs/vision.md)
DROP_FROM = 4
# Corners found at half resolution lie farther from the true ones than those found at full
# resolution in a blurred frame (a farm's marker is 30-40 px wide; halved, its corners are
# located on a 15-20 px square, and the sub-pixel refinement's 7×7 window on the frame
# does not bring them back under a blur of σ 2 px): on the real-hard renders of seed 1
# (24 tables, first contents, 95 markers decoded both ways) 1.59 px RMS from the true
# corners at half resolution (90th percentile 2.72, max 3.93) against 1.51 (2.01, 2.88) at
# full; 16 markers 0.8-1.8 px better at full, none worse, all of them farms'. A fit refused
# on half-resolution corners is tried again on the full-resolution ones (table 23's white
# farm: 2.9 px on three corners, refused; on the full-resolution corners it fits).


def project(hom: np.ndarray, pts: np.ndarray, lens: Lens | None) -> np.ndarray:
    """Board mm points (n×2) -> frame pixels: the homography gives ideal pixels, the lens
    (if calibrated) bends them as the camera does."""
    ideal = cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(1, -1, 2), hom)[0]
    return ideal if lens is None else lens.distort(ideal)


def _marker_bits(dictionary: cv2.aruco.Dictionary, marker_id: int) -> np.ndarray:
    """The 6×6 cells of a marker (border included), 1 = white."""
    img = cv2.aruco.generateImageMarker(dictionary, marker_id, 6)
    return (img > 127).astype(np.float32)


@dataclass
class Geometry:
    """Board name -> homography (board mm -> frame pixels, or ideal pixels when the tracker
    has a lens: ``project`` them) and what the last update did."""

    boards: dict[str, np.ndarray] = field(default_factory=dict)
    version: int = 0  # bumps whenever a homography changes
    detected: bool = False  # a detection ran on this frame
    drift_px: float = 0.0  # largest marker corner shift seen by the last detection
    hidden: set[int] = field(default_factory=set)  # markers that did not match this frame
    errors: dict[str, float] = field(default_factory=dict)  # board -> RMS fit error, px
    refused: dict[str, str] = field(default_factory=dict)  # board -> why it is not placed
    kept: dict[str, str] = field(default_factory=dict)  # board -> why its last pose is kept


def _rigid(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The rotation + translation (3x3) taking src points to dst (least squares, 2-D).

    A farm lies in the table plane like the main board, so its pose there has three
    degrees of freedom: fitting those from its one marker is far steadier than a full
    homography from four close corners.
    """
    cs, cd = src.mean(0), dst.mean(0)
    a, b = src - cs, dst - cd
    u, _s, vt = np.linalg.svd(a.T @ b)
    r = (u @ vt).T
    if np.linalg.det(r) < 0:
        vt[1] *= -1
        r = (u @ vt).T
    t = cd - r @ cs
    return np.array([[r[0, 0], r[0, 1], t[0]], [r[1, 0], r[1, 1], t[1]], [0, 0, 1]])


def _plane_pose(src: np.ndarray, dst: np.ndarray, k: np.ndarray) -> np.ndarray:
    """The homography (board mm -> ideal pixels) of a plane seen by a camera of matrix
    ``k``: its pose (6 degrees of freedom) fitted to the markers' corners, rather than a
    free homography (8): with three markers seen, a free homography extrapolated to the
    fourth corner 5-8 px off on blurred frames. With all four seen the free homography
    stays (it absorbs a lens calibration's small errors: on 12 real-ordinary renders the
    pose read 2 item regions more wrong)."""
    obj = np.concatenate([src, np.zeros((len(src), 1), np.float32)], axis=1)
    _ok, rvec, tvec = cv2.solvePnP(obj, dst, k, None, flags=cv2.SOLVEPNP_IPPE)
    _ok, rvec, tvec = cv2.solvePnP(obj, dst, k, None, rvec, tvec, useExtrinsicGuess=True,
                                   flags=cv2.SOLVEPNP_ITERATIVE)
    rot, _j = cv2.Rodrigues(rvec)
    hom = k @ np.column_stack([rot[:, 0], rot[:, 1], tvec.ravel()])
    out: np.ndarray = hom / hom[2, 2]
    return out


def pose_kept(hom: np.ndarray, src: np.ndarray, dst: np.ndarray, calibrated: bool
              ) -> tuple[bool, str]:
    """Whether a board's last good pose ``hom`` still holds for the corners seen (``src``
    board mm, ``dst`` ideal pixels): their RMS distance from where it puts them is within
    ``KEEP_PX`` (the camera has not moved). Returns that and a sentence for the health
    panel (``calibrated``: the pose is the calibration's, not an earlier frame's)."""
    res = cv2.perspectiveTransform(src[None], hom)[0] - dst
    rms = float(np.sqrt((res ** 2).sum(axis=1).mean()))
    whose = "the calibration's pose" if calibrated else "the last good pose"
    seen = f"{len(src) // 4} marker(s) seen {rms:.1f} px from it"
    if rms <= KEEP_PX:
        return True, f"{whose} kept: {seen}"
    return False, f"{whose} not kept: {seen} (above {KEEP_PX} px: the camera has moved)"


class MarkerTracker:
    """Keeps the board homographies up to date from the ArUco markers of a layout."""

    def __init__(self, layout: Layout, detect_scale: float = 0.5, recheck_every: int = 60,
                 move_px: float = 1.5, lens: Lens | None = None,
                 kept: dict[str, np.ndarray] | None = None) -> None:
        self.layout = layout
        # poses found before this tracker's first frame (the calibration's, same camera):
        # kept only while the markers this tracker decodes agree with them (``pose_kept``)
        self.kept = dict(kept or {})
        self.lens = lens
        self.detect_scale = detect_scale
        self.recheck_every = recheck_every
        self.move_px = move_px
        self.dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        params.perspectiveRemovePixelPerCell = 8
        params.perspectiveRemoveIgnoredMarginPerCell = 0.25
        self.detector = cv2.aruco.ArucoDetector(self.dictionary, params)
        # a last pass for a marker whose quiet zone the lens squeezes to a pixel or two
        # against a dark table: a lower threshold keeps that thin white band apart
        thin = cv2.aruco.DetectorParameters()
        thin.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        thin.perspectiveRemovePixelPerCell = 8
        thin.perspectiveRemoveIgnoredMarginPerCell = 0.25
        thin.adaptiveThreshConstant = THIN_QUIET_ZONE_C
        self.thin_detector = cv2.aruco.ArucoDetector(self.dictionary, thin)
        self.geometry = Geometry()
        self.corners: dict[int, np.ndarray] = {}  # marker id -> 4x2 frame px
        self._bits = {mid: _marker_bits(self.dictionary, mid)
                      for b in layout.boards.values() for mid in b.markers}
        self._cells = self._cell_points()
        self._cell_px: dict[str, tuple[np.ndarray, tuple[int, int], np.ndarray, np.ndarray]] = {}
        self._frames = 0
        self._cooldown = 0
        self._fine_at: int | None = None  # the frame of the last enlarged pass
        self.detections = 0

    def _cell_points(self) -> dict[int, np.ndarray]:
        pts: dict[int, np.ndarray] = {}
        for b in self.layout.boards.values():
            for mid, (x, y) in b.markers.items():
                step = b.marker_mm / 6
                grid = [(x + (i + 0.5) * step, y + (j + 0.5) * step)
                        for j in range(6) for i in range(6)]
                pts[mid] = np.array(grid, np.float32)
        return pts

    def _board_of(self, mid: int) -> Board | None:
        return self.layout.board_of(mid)

    def _matches(self, frame: np.ndarray) -> set[int]:
        """Known markers whose cells no longer show their pattern (one gather per board, of
        the frame's BGR or grey pixels)."""
        bad: set[int] = set()
        h, w = frame.shape[:2]
        for name, hom in self.geometry.boards.items():
            ids = list(self.layout.boards[name].markers)
            hit = self._cell_px.get(name)
            if hit is None or hit[0] is not hom or hit[1] != (w, h):
                # the cells' pixels: projected once per pose (kept with the pose itself)
                pts = np.concatenate([self._cells[m] for m in ids])
                p = project(hom, pts, self.lens)
                hit = (hom, (w, h), np.clip(p[:, 1].round().astype(np.intp), 0, h - 1),
                       np.clip(p[:, 0].round().astype(np.intp), 0, w - 1))
                self._cell_px[name] = hit
            _hom, _size, ys, xs = hit
            px = frame[ys, xs]
            if px.ndim == 2:  # BGR pixels: grey as the whole frame's conversion gives them
                px = cv2.cvtColor(px[None], cv2.COLOR_BGR2GRAY)[0]
            v = px.astype(np.float32).reshape(len(ids), 36)
            bits = np.stack([self._bits[m].ravel() for m in ids]) > 0.5
            hi = (v * bits).sum(1) / np.maximum(bits.sum(1), 1)
            lo = (v * ~bits).sum(1) / np.maximum((~bits).sum(1), 1)
            spread = v.max(1) - v.min(1)
            wrong = ((v > ((lo + hi) / 2)[:, None]) != bits).sum(1)
            ok = (hi - lo >= 0.5 * spread) & (spread >= 40) & (wrong <= 2)
            bad.update(m for m, good in zip(ids, ok, strict=True) if not good)
        return bad

    def detect(self, gray: np.ndarray, scale: float | None = None,
               sharpen: bool = False, thin: bool = False) -> dict[int, np.ndarray]:
        """Detect markers (at ``detect_scale``, on an unsharp-masked copy if ``sharpen``,
        with the lower threshold of ``thin_detector`` if ``thin``; corners refined on the
        frame itself); their corners in ideal pixels when the tracker has a lens. A scale
        above 1 enlarges the frame (cubic)."""
        self.detections += 1
        s = scale or self.detect_scale
        small = gray if s == 1 else cv2.resize(
            gray, None, fx=s, fy=s, interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_CUBIC)
        if sharpen:
            small = cv2.addWeighted(small, 3.0, cv2.GaussianBlur(small, (0, 0), 3.0 * max(s, 1)),
                                    -2.0, 0)
        detector = self.thin_detector if thin else self.detector
        corners, ids, _ = detector.detectMarkers(small)
        found: dict[int, np.ndarray] = {}
        if ids is None:
            return found
        for c, i in zip(corners, ids.ravel(), strict=True):
            mid = int(i)
            if self._board_of(mid) is None:
                continue
            pts = (c.reshape(4, 2) / s).astype(np.float32)
            cv2.cornerSubPix(gray, pts, (3, 3), (-1, -1),
                             (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.05))
            found[mid] = pts if self.lens is None else self.lens.undistort(pts)
        return found

    def _agrees(self, old: np.ndarray, src: np.ndarray, dst: np.ndarray) -> bool:
        """The markers seen sit where the old pose puts them (the camera has not moved)."""
        a = cv2.perspectiveTransform(src[None], old)[0]
        return float(np.abs(a - dst).max()) < AGREE_PX

    def _farm(self, gray: np.ndarray, main: np.ndarray, board: Board, src: np.ndarray,
              dst: np.ndarray, limit: float
              ) -> tuple[np.ndarray | None, str, np.ndarray, np.ndarray]:
        """A farm's pose (its homography, or None and why) from its marker's corners
        (``src`` board mm, ``dst`` ideal pixels) mapped into the main board's plane,
        turned to where its outline shows (``farm_outline``); and the corners it rests
        on. A fit above ``limit`` is tried once more without the corner farthest from it
        (``drop_outlier``)."""
        flat = cv2.perspectiveTransform(dst[None], np.linalg.inv(main))[0]
        centre = (float(src[:, 0].mean()), float(src[:, 1].mean()))
        hom: np.ndarray | None = None
        why = ""
        for attempt in range(2):
            rigid, _turn, contrast = refine_rotation(gray, main, _rigid(src, flat),
                                                     board.size_mm, centre, self.lens)
            if contrast < MIN_CONTRAST:
                why = (f"its outline is not seen (contrast {contrast:.0f} < "
                       f"{MIN_CONTRAST:.0f}): its rotation would rest on its marker alone")
                return None, why, src, dst
            hom = main @ rigid
            res = np.linalg.norm(cv2.perspectiveTransform(src[None], hom)[0] - dst, axis=1)
            rms = float(np.sqrt((res ** 2).mean()))
            if attempt:
                # the same corner noise leaves a smaller RMS on fewer corners: a rigid pose
                # (3 unknowns) through n corners keeps 2n - 3 of their 2n coordinates'
                # freedom, so the limit scales by sqrt((2n - 3) / 2n) against four corners'
                n = len(src)
                if rms > limit * np.sqrt((2 * n - 3) / (2 * n) / (5 / 8)):
                    why = f"fit error {rms:.1f} px on {n} of its marker's corners"
                    return None, why, src, dst
                break
            if rms <= limit or len(src) < DROP_FROM:
                break
            keep = np.arange(len(src)) != int(res.argmax())
            src, dst, flat = src[keep], dst[keep], flat[keep]
        return hom, why, src, dst

    def _fit(self, found: dict[int, np.ndarray], gray: np.ndarray,
             unmatched: set[int] | None = None
             ) -> tuple[dict[str, np.ndarray], float, dict[str, float], dict[str, str]]:
        """(poses, drift, fit errors, refusals) from the markers found in ``gray``. A farm's
        pose: its marker mapped into the main board's plane, turned to its outline
        (``farm_outline``); refused when that outline is not seen. A board whose new fit
        is refused keeps its last good pose while nothing has moved: its markers' corners
        sit where that pose puts them, or (``unmatched``: the markers whose cells no
        longer show their pattern through the current poses) its markers' cells still
        show their pattern there."""
        limit = MAX_FIT_PX if self.lens is not None else MAX_FIT_PX_NO_LENS
        boards: dict[str, np.ndarray] = {}
        errors: dict[str, float] = {}
        refused: dict[str, str] = {}
        kept = self.geometry.kept = {}
        drift = 0.0
        for name, board in sorted(self.layout.boards.items(), key=lambda kv: kv[0] != "main"):
            ids = [m for m in board.markers if m in found]
            old = self.geometry.boards.get(name)
            if not ids:
                if name == "main" and old is not None:
                    # none of its markers decoded, none seen moving: its pose stays (as
                    # ``update`` keeps any such board), and the farms are placed in it
                    boards[name] = old
                continue
            src = np.array([p for m in ids for p in board.marker_corners(m)], np.float32)
            dst = np.concatenate([found[m] for m in ids]).astype(np.float32)
            main = boards.get("main")
            why = ""
            hom: np.ndarray | None = None
            if (name != "main" and old is not None and main is not None
                    and main is self.geometry.boards.get("main")):
                shift = float(np.abs(cv2.perspectiveTransform(src[None], old)[0] - dst).max())
                if shift < self.move_px:  # nothing has moved: pose and error kept, not refitted
                    drift = max(drift, shift)
                    boards[name] = old
                    continue
            if name == "main" and len(ids) < MIN_MAIN_MARKERS:
                last = old if old is not None else self.kept.get(name)
                why = (f"{len(ids)} of its {len(board.markers)} markers seen; "
                       f"{MIN_MAIN_MARKERS} are needed")
                if last is not None:
                    ok, note = pose_kept(last, src, dst, old is None)
                    if ok:
                        boards[name] = last
                        kept[name] = note
                        continue
                    why = f"{why}; {note}"
            elif name != "main" and main is None:
                why = "the main board is not placed (a farm is not placed from its marker alone)"
            elif name != "main" and main is not None:
                hom, why, src, dst = self._farm(gray, main, board, src, dst, limit)
            elif self.lens is not None and len(ids) < len(board.markers):
                hom = _plane_pose(src, dst, self.lens.k)
            else:
                hom, _ = cv2.findHomography(src, dst, 0)
            err = 0.0
            if hom is not None:
                res = cv2.perspectiveTransform(src[None], hom)[0] - dst
                err = float(np.sqrt((res ** 2).sum(axis=1).mean()))
                if err > limit:
                    why, hom = f"fit error {err:.1f} px (above {limit} px)", None
            if hom is None:
                still = unmatched is not None and not set(board.markers) & unmatched
                if old is not None and (still or self._agrees(old, src, dst)):
                    boards[name] = old  # too little to fit anew, but nothing has moved
                else:
                    refused[name] = why or "no fit"
                continue
            errors[name] = round(err, 3)
            if old is not None:
                a = cv2.perspectiveTransform(src[None], old)[0]
                shift = float(np.abs(a - dst).max())
                drift = max(drift, shift)
                if shift < self.move_px:
                    boards[name] = old
                    continue
            boards[name] = hom
        return boards, drift, errors, refused

    def update(self, frame: np.ndarray) -> Geometry:
        """Follow the boards in this frame (BGR or grey); returns the current geometry."""
        self._frames += 1
        g = self.geometry
        g.detected = False
        bad = self._matches(frame) if g.boards else set()
        g.hidden = bad
        missing_boards = len(g.boards) < len(self.layout.boards)
        due = (not g.boards or self._frames % self.recheck_every == 0
               or (bad and self._cooldown <= 0)
               or (missing_boards and self._frames % 15 == 0))
        if self._cooldown > 0:
            self._cooldown -= 1
        if not due:
            return g
        # the whole frame in grey only when markers are looked for
        gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        found = self.detect(gray)
        full: dict[int, np.ndarray] | None = None
        if any(m not in found for m in self._bits) and self.detect_scale != 1:
            # small markers can be lost at half resolution: look again at full
            full = self.detect(gray, 1.0)
            found = {**full, **found}
        if any(m not in found for m in self._bits):
            # blurred markers: once more on a sharpened copy
            found = {**self.detect(gray, 1.0, sharpen=True), **found}
        if any(m not in found for m in self._bits):
            # a quiet zone squeezed thin at the frame's edge: once more, threshold lowered
            found = {**self.detect(gray, 1.0, thin=True), **found}
        if any(m not in found for m in self._bits) and (
                self._fine_at is None or self._frames - self._fine_at >= self.recheck_every):
            # a small blurred marker: once more on the frame enlarged (``FINE_SCALE``)
            self._fine_at = self._frames
            found = {**self.detect(gray, FINE_SCALE, sharpen=True), **found}
        g.detected = True
        boards, drift, errors, refused = self._fit(found, gray, bad)
        if refused and self.detect_scale != 1:
            # a fit refused on corners found at half resolution: again on the corners
            # found at full resolution (see the note on half-resolution corners above)
            full = self.detect(gray, 1.0) if full is None else full
            better = {m: full[m] for name in refused
                      for m in self.layout.boards[name].markers if m in full}
            if better:
                boards, drift, errors, refused = self._fit({**found, **better}, gray, bad)
        # boards whose markers are hidden but were not seen moving keep their geometry
        for name, hom in g.boards.items():
            if name not in boards and name not in refused and not any(
                    m in found for m in self.layout.boards[name].markers):
                boards[name] = hom
        g.errors = {n: e for n, e in {**g.errors, **errors}.items() if n in boards}
        g.refused = refused
        g.drift_px = drift
        if bad - set(found):
            self._cooldown = 5  # a hidden marker: do not detect every frame for it
        changed = set(boards) != set(g.boards) or any(
            boards[n] is not g.boards.get(n) for n in boards)
        if changed:
            g.boards = boards
            g.version += 1
        self.corners.update(found)
        return g
