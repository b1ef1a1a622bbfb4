"""The owner's calibration: the layout made exact for their box, their light, their cubes.

Saved as one JSON file (the service keeps it beside the database as ``<db>.camera.json``):
``layout`` (a full copy of the layout file, with corrected rectangles, printed colours and
cube colours), ``references`` (the empty boards as the camera saw them, coarse grid, PNG
in base64), ``area_factor`` (how many top faces one cube covers as seen) and ``lens`` (the
camera's intrinsics and distortion, ``vision.lens``; absent until calibrated).

Steps (``companion calibrate`` and the /calibrate page):

0. ``set_lens`` — the lens computed from photos of the ChArUco sheet (``vision.charuco``);
   done first, since every later step finds the boards through it;
1. ``capture_empty`` — boards laid out without pieces: records what each board looks like
   and each region's printed colour;
2. ``learn_cubes`` — a few cubes of known colours on known spaces (for instance brown on
   the church, pink on crafts…): learns the cube colours and their apparent size;
3. ``move_region`` — drag a rectangle to where the box really prints it.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from . import layout as layout_mod
from .colour import balance
from .cube_size import BoardNotFound
from .geometry import MarkerTracker, project
from .layout import CUBE_COLOURS, Layout, LayoutError
from .lens import Lens, LensError
from .read import BoardReader
from .read_parts import (
    AREA_FACTOR,
    COARSE_STEP,
    CUBE_STEP,
    STEPS,
    TRACK_GRID,
    _cell_grid,
    _grid,
)


class CalibrationError(ValueError):
    """A calibration step that cannot be done (board not found, unknown region…)."""


@dataclass
class Calibration:
    layout_data: dict[str, Any]
    references: dict[str, np.ndarray] = field(default_factory=dict)
    area_factor: float = AREA_FACTOR
    steps: list[str] = field(default_factory=list)  # what has been done, in order
    lens: Lens | None = None
    # the empty board under each cube region at the reader's 1 mm grid ("main/space:harvest")
    cube_refs: dict[str, np.ndarray] = field(default_factory=dict)
    # each cube colour's apparent area against the camera's geometry (``learn_cubes``)
    cube_scale: dict[str, float] = field(default_factory=dict)
    # each board's pose found on the empty table (``capture_empty``: board mm -> ideal
    # pixels): the reader keeps it while the markers it decodes agree (``geometry.pose_kept``)
    poses: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def layout(self) -> Layout:
        return layout_mod.parse(self.layout_data)

    def reader(self) -> BoardReader:
        lay = self.layout
        return BoardReader(lay, self.references or None, self.area_factor,
                           tracker=MarkerTracker(lay, lens=self.lens, kept=self.poses),
                           lens=self.lens, cube_refs=self.cube_refs or None,
                           cube_scale=self.cube_scale or None)

    def tracker(self) -> MarkerTracker:
        """A marker tracker for one still frame (full resolution, this lens)."""
        return MarkerTracker(self.layout, detect_scale=1.0, lens=self.lens)

    def to_json(self) -> dict[str, Any]:
        out = {"version": 1, "layout": self.layout_data, "references": _pngs(self.references),
               "area_factor": self.area_factor, "steps": self.steps}
        if self.cube_refs:
            out["cube_references"] = _pngs(self.cube_refs)
        if self.lens is not None:
            out["lens"] = self.lens.to_json()
        if self.cube_scale:
            out["cube_scale"] = dict(self.cube_scale)
        if self.poses:
            out["poses"] = {n: [round(float(v), 9) for v in h.ravel()]
                            for n, h in self.poses.items()}
        return out


def _pngs(images: dict[str, np.ndarray]) -> dict[str, str]:
    out = {}
    for name, img in images.items():
        ok, png = cv2.imencode(".png", img)
        if ok:
            out[name] = base64.b64encode(png.tobytes()).decode("ascii")
    return out


def _images(data: dict[str, str]) -> dict[str, np.ndarray]:
    out = {}
    for name, b64 in data.items():
        buf = np.frombuffer(base64.b64decode(b64), np.uint8)
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        if img is None:
            raise CalibrationError(f"reference {name!r} is not an image")
        out[name] = img
    return out


def default() -> Calibration:
    """The shipped layout, nothing measured."""
    return Calibration(json.loads(layout_mod.SHIPPED.read_text("utf-8")))


def from_json(data: dict[str, Any]) -> Calibration:
    """Parse the saved form; raises CalibrationError if it is not one."""
    try:
        layout_data = data["layout"]
        layout_mod.parse(layout_data)
        refs = _images(data.get("references", {}))
        lens = Lens.from_json(data["lens"]) if data.get("lens") else None
        return Calibration(layout_data, refs, float(data.get("area_factor", AREA_FACTOR)),
                           list(data.get("steps", [])), lens,
                           _images(data.get("cube_references", {})),
                           {str(k): float(v) for k, v in data.get("cube_scale", {}).items()},
                           {str(k): np.array(v, np.float64).reshape(3, 3)
                            for k, v in data.get("poses", {}).items()})
    except (KeyError, TypeError, ValueError, LayoutError, LensError) as exc:
        if isinstance(exc, CalibrationError):
            raise
        raise CalibrationError(f"not a camera calibration: {exc}") from None


def load(path: Path) -> Calibration:
    """The calibration saved at ``path``, or the default if there is none yet.

    Raises CalibrationError for a file that is not a calibration.
    """
    if not path.exists():
        return default()
    try:
        return from_json(json.loads(path.read_text("utf-8")))
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{path}: not JSON: {exc}") from None


def save(path: Path, cal: Calibration) -> None:
    """Write atomically (a temporary file, then a rename)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(cal.to_json(), indent=1) + "\n", "utf-8")
    tmp.replace(path)


def _geometry(cal: Calibration, frame: np.ndarray) -> dict[str, np.ndarray]:
    boards = cal.tracker().update(frame).boards
    if "main" not in boards:
        raise CalibrationError("the main board's corner markers are not all visible")
    return boards


def set_lens(cal: Calibration, lens: Lens) -> Calibration:
    """The calibration with this lens. The empty boards recorded before were sampled
    through the old geometry: record them again (``capture_empty``)."""
    return Calibration(cal.layout_data, cal.references, cal.area_factor,
                       [*cal.steps, "lens"], lens, cal.cube_refs)


def _sample(frame: np.ndarray, hom: np.ndarray, grid: np.ndarray,
            lens: Lens | None = None) -> np.ndarray:
    pts = project(hom, grid.reshape(-1, 2), lens)
    m = pts.reshape(grid.shape).astype(np.float32)
    out: np.ndarray = cv2.remap(frame, m[..., 0].copy(), m[..., 1].copy(), cv2.INTER_LINEAR)
    return out


def _poses(cal: Calibration, frames: Sequence[np.ndarray]
           ) -> dict[str, list[tuple[int, np.ndarray, float]]]:
    """Each board's pose in every frame that finds it: board -> [(frame index, homography,
    fit error px)] (each frame read on its own, so a pose found in one is never carried
    into the next)."""
    out: dict[str, list[tuple[int, np.ndarray, float]]] = {}
    for i, frame in enumerate(frames):
        geometry = cal.tracker().update(frame)
        for name, hom in geometry.boards.items():
            out.setdefault(name, []).append((i, hom, geometry.errors.get(name, 0.0)))
    return out


def find_boards(cal: Calibration, frames: Sequence[np.ndarray]) -> dict[str, list[int]]:
    """Which frames each board is found in: board name -> indices into ``frames``."""
    return {n: [i for i, _h, _e in p] for n, p in _poses(cal, frames).items()}


def learned_boards(cal: Calibration) -> set[str]:
    """The boards the empty-board model holds (``capture_empty`` placed them)."""
    return {k.partition("/")[0] for k in cal.cube_refs}


def not_learned(cal: Calibration) -> list[str]:
    """The layout's boards left out of the empty-board model, in layout order (empty while
    there is no model): the reader holds them back (uncertain) until they are learned."""
    have = learned_boards(cal)
    return [n for n in cal.layout.boards if have and n not in have]


def capture_empty(cal: Calibration, frames: np.ndarray | Sequence[np.ndarray]
                  ) -> Calibration:
    """Record the empty boards from one frame or several of the still, empty table: the
    coarse picture of each board (hands), each region's printed colour, and the board under
    each cube region, figure zone and item region at the reader's grid (the empty-board
    model pieces are told from). Each board is placed in every frame that finds it (a hand
    or a shadow hiding a farm's marker in one frame does not lose that farm) and learned as
    the median over those frames (so the camera's noise mostly cancels). The model is made
    anew: a board found in no frame is left out of it (``not_learned`` names it; the reader
    then holds its regions back).

    Raises CalibrationError if no frame is given or the main board is found in none.
    """
    shots = [frames] if isinstance(frames, np.ndarray) else list(frames)
    if not shots:
        raise CalibrationError("no frame of the empty table")
    poses = _poses(cal, shots)
    if "main" not in poses:
        raise CalibrationError("the main board's corner markers are not all visible in "
                               f"any of the {len(shots)} frame(s)")
    lay = cal.layout

    def sample(name: str, grid: np.ndarray) -> np.ndarray:
        stack = np.stack([_sample(shots[i], hom, grid, cal.lens)
                          for i, hom, _e in poses[name]])
        out: np.ndarray = np.median(stack, axis=0).round().astype(np.uint8)
        return out

    new = copy.deepcopy(cal.layout_data)
    refs: dict[str, np.ndarray] = {}
    cube_refs: dict[str, np.ndarray] = {}
    for name in poses:
        board = lay.boards[name]
        refs[name] = sample(name, _grid((0, 0, *board.size_mm), COARSE_STEP))
        for r in board.regions:
            if r.kind in STEPS:
                cube_refs[f"{name}/{r.key}"] = sample(name, _grid(r.rect, STEPS[r.kind]))
            elif r.kind == "track":
                cube_refs[f"{name}/{r.key}"] = sample(name, _cell_grid(r.rect, TRACK_GRID))
    main = lay.boards["main"]
    for r_data, r in zip(new["boards"]["main"]["regions"], main.regions, strict=True):
        px = sample("main", _grid(r.rect, 2.0)).reshape(-1, 3)
        r_data["print"] = [int(v) for v in np.median(px, axis=0)[::-1]]
    farms = sorted((n for n in poses if n.startswith("farm:")), key=lambda n: -len(poses[n]))
    if farms:  # the farm seen in the most frames gives the printed colours all farms share
        for r_data, r in zip(new["boards"]["farm"]["regions"], lay.boards[farms[0]].regions,
                             strict=True):
            px = sample(farms[0], _grid(r.rect, 2.0)).reshape(-1, 3)
            r_data["print"] = [int(v) for v in np.median(px, axis=0)[::-1]]
    # the pose each board fits best (least error): the reader keeps it while the camera has
    # not moved (``geometry.pose_kept``), so a frame whose markers decode too few is read
    kept = {n: min(p, key=lambda ihe: ihe[2])[1] for n, p in poses.items()}
    return Calibration(new, refs, cal.area_factor, [*cal.steps, "empty"], cal.lens, cube_refs,
                       poses=kept)


def learn_cubes(cal: Calibration, frame: np.ndarray,
                placed: dict[str, tuple[str, int]]) -> Calibration:
    """Learn cube colours and size from regions holding ``count`` cubes of one colour.

    ``placed``: region name (``space:church``) -> (colour, count). Raises CalibrationError
    for an unknown region or colour, or a region where no cube stands out.
    """
    for region, (colour, count) in placed.items():
        if colour not in CUBE_COLOURS or count < 1:
            raise CalibrationError(f"{region}: {colour!r} × {count} is not a cube colour and count")
    if cal.cube_refs:
        return learn_cubes_against_empty(cal, [(frame, placed)])
    boards = _geometry(cal, frame)
    lay = cal.layout
    new = copy.deepcopy(cal.layout_data)
    factors = []
    for region, (colour, count) in placed.items():
        hit = next(((b, r) for b, r in lay.cube_regions() if r.name == region), None)
        if hit is None or hit[0] not in boards:
            raise CalibrationError(f"no visible cube region {region!r}")
        r = hit[1]
        x0, y0, x1, y1 = r.rect
        grid = _grid((x0 + 2, y0 + 2, x1 - 2, y1 - 2), CUBE_STEP)  # not the printed border
        px = _sample(frame, boards[hit[0]], grid, cal.lens).reshape(-1, 3)
        bal = balance(px, np.array(r.print_rgb[::-1], np.float32)).astype(np.float32)
        ref = np.array(r.print_rgb[::-1], np.float32)
        far = np.abs(bal - ref).max(axis=1) > 45
        far = cv2.morphologyEx(far.reshape(grid.shape[:2]).astype(np.uint8), cv2.MORPH_OPEN,
                               np.ones((3, 3), np.uint8)).ravel() > 0
        if np.count_nonzero(far) < 0.5 * (lay.cube_mm / CUBE_STEP) ** 2:
            raise CalibrationError(f"{region}: no cube stands out from the board")
        cube = bal[far]
        lum = cube.mean(axis=1)
        top = cube[lum >= np.median(lum)]  # the lit top faces, not the sides
        new["colours"]["cubes"][colour] = [int(v) for v in top.mean(axis=0)[::-1]]
        factors.append(np.count_nonzero(far) / count / (lay.cube_mm / CUBE_STEP) ** 2)
    factor = float(np.median(factors)) if factors else cal.area_factor
    return Calibration(new, cal.references, round(factor, 3), [*cal.steps, "cubes"], cal.lens,
                       cal.cube_refs, poses=cal.poses)


def learn_cubes_against_empty(cal: Calibration,
                              shots: Sequence[tuple[np.ndarray, dict[str, tuple[str, int]]]]
                              ) -> Calibration:
    """``learn_cubes`` once the empty board is known, from one or more frames (each with
    its ``placed``): the cubes are what differs from the board (never their shadows); each
    colour is learnt from the lit faces, under the light that makes the markers' white
    paper white (as the reader then classifies), and its apparent area against the
    camera's geometry (``Calibration.cube_scale``), both the median over the regions that
    held it (a cube on a space printed near its own colour looks smaller there: more
    regions per colour, a steadier figure). A region not seen or where no cube stands out
    is skipped, and so is a frame where the main board is not found; raises
    CalibrationError for a region the layout does not have, a colour seen nowhere, or no
    frame with the board."""
    reader = cal.reader()
    scale: dict[str, list[float]] = {}
    lit: dict[str, list[np.ndarray]] = {}
    kept = []
    for frame, placed in shots:
        try:
            seen = reader.measure_cubes(frame, placed)
        except BoardNotFound:
            continue  # a frame where the board's markers are not decoded: left out
        except ValueError as exc:
            raise CalibrationError(str(exc)) from None
        kept.append((frame, placed))
        for region, (colour, _count) in placed.items():
            if region in seen:
                lit.setdefault(colour, []).append(seen[region].rgb)
                scale.setdefault(colour, []).append(seen[region].scale)
    if not kept:
        raise CalibrationError("the board is not found in any of the frames: are its "
                               "markers in view and sharp?")
    missing = sorted({c for _f, placed in shots for c, _n in placed.values()} - set(lit))
    if missing:
        raise CalibrationError(f"no cube of {', '.join(missing)} seen: is the board in view, "
                               "uncovered, the cubes where they were named?")
    new = copy.deepcopy(cal.layout_data)
    for colour, rgbs in lit.items():
        new["colours"]["cubes"][colour] = [int(v) for v in np.rint(np.median(rgbs, axis=0))]
    # the apparent areas measured again with the colours just learnt, as the reader will
    # count them: under the layout's guessed colours part of a cube in a dim frame is no
    # cube colour, and one orange cube of a real-hard table then counted as two
    learnt = replace(cal, layout_data=new)
    scale = {}
    reader = learnt.reader()
    for frame, placed in kept:
        seen = reader.measure_cubes(frame, placed)  # the frames were read once already
        for region, (colour, _n) in placed.items():
            if region in seen:
                scale.setdefault(colour, []).append(seen[region].scale)
    cube_scale = {**cal.cube_scale,
                  **{c: round(float(np.median(v)), 3) for c, v in scale.items()}}
    return replace(learnt, steps=[*cal.steps, "cubes"], cube_scale=cube_scale)


def move_region(cal: Calibration, board: str, key: str,
                rect: tuple[float, float, float, float]) -> Calibration:
    """Set a region's rectangle (board mm). ``board`` is ``main`` or ``farm`` (all farms
    share one layout); ``key`` is the region name, with ``#cell`` for a track cell.

    Raises CalibrationError for an unknown region or an empty rectangle.
    """
    if board not in ("main", "farm"):
        raise CalibrationError("board is 'main' or 'farm'")
    x0, y0, x1, y1 = rect
    if not (x0 < x1 and y0 < y1):
        raise CalibrationError(f"empty rectangle {rect}")
    new = copy.deepcopy(cal.layout_data)
    name, _, cell = key.partition("#")
    for r in new["boards"][board]["regions"]:
        # farm names are templates (time:{colour}): any farm's name, or the kind, matches
        same = (r["name"].partition(":")[0] == name.partition(":")[0] if board == "farm"
                else r["name"] == name)
        r_cell = "" if r.get("cell") is None else str(r["cell"])
        if same and r_cell == cell:
            r["rect"] = [round(float(v), 1) for v in rect]
            # the moved region's empty-board picture no longer fits: record the empty
            # boards again (until then that region is read as without calibration)
            def same_region(k: str) -> bool:
                rname = k.partition("/")[2].partition("#")[0]
                return (rname.partition(":")[0] == name.partition(":")[0]
                        and k.startswith("farm:")) if board == "farm" else rname == name

            cube_refs = {k: v for k, v in cal.cube_refs.items() if not same_region(k)}
            return Calibration(new, cal.references, cal.area_factor,
                               [*cal.steps, f"moved {board}/{key}"], cal.lens, cube_refs,
                               cal.cube_scale, cal.poses)
    raise CalibrationError(f"no region {key!r} on the {board} board")
