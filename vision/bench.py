"""``companion vision-bench``: accuracy per condition over rendered tables, and speed.

Accuracy is the fraction of regions read exactly (every cube region's counts, every
track's marker cells) over images rendered with random contents, with its own rows for
the figures counted by colour in every zone (``figures_exact``) and the farms' grain,
coins and goods (``items_exact``); a region the reader
calls occluded counts as not exact unless a hand truly covers it (then it is left out of
the accuracy and checked by the occlusion figures instead). Speed is the reader's time per
1280×720 frame on a steady table, against one ``warpPerspective`` of the frame to a
1000×700 board image measured in the same run.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

import cv2
import numpy as np

from . import calibration, charuco
from .layout import CUBE_COLOURS, FAMILY_COLOURS, ITEM_NAMES, MONK, Layout
from .lens import Lens
from .read import BoardReader, Reading
from .render import Rendered, Scene, on_table, render, render_sheet
from .settle import Settler
from .table import TableView

CONDITIONS: dict[str, Callable[[np.random.Generator], Scene]] = {
    "ordinary": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0),
    "perspective": lambda g: Scene(perspective=0.08, rotation=float(g.uniform(-5, 5)),
                                   blur=0.6, noise=2.0),
    "blur": lambda g: Scene(perspective=0.03, blur=1.6, noise=2.0),
    "noise": lambda g: Scene(perspective=0.03, blur=0.6, noise=7.0),
    "warm": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0, light=(1.12, 0.98, 0.7)),
    "cool": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0, light=(0.8, 0.95, 1.2)),
    "dim": lambda g: Scene(perspective=0.03, blur=0.6, noise=3.0, level=0.45),
    "bright": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0, level=1.2),
    "shadows": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0, shadows=3),
    "hands": lambda g: Scene(perspective=0.03, blur=0.6, noise=2.0,
                             hands=[(float(g.uniform(260, 780)), float(g.uniform(120, 460)))],
                             hand_skin=int(g.integers(5))),
}


# Cameras of the realistic conditions: (horizontal field of view °, k1, k2). The fields of
# view: a Raspberry Pi Camera v2 (62.2°, its documentation), a Logitech C920 (78° diagonal,
# Logitech's figure, = 70° horizontal at 16:9), a 90° wide-angle webcam. The distortion:
# typical barrel values for such lenses, the strongest being the published calibration of
# the CMU Seasons dataset's cameras (1024×768, fx 869 -> 61°, k1 −0.40, k2 0.19).
CAMERAS: list[tuple[float, float, float]] = [
    (62.0, -0.08, 0.02), (70.0, -0.18, 0.05), (90.0, -0.30, 0.09), (61.0, -0.40, 0.19)]
PALE_SKIN = (246, 224, 208)  # very pale skin (RGB), paler than the ideal renderer's five
HAND_SKINS = [(224, 172, 150), (198, 140, 108), (160, 110, 80), (110, 74, 52), (70, 48, 36),
              PALE_SKIN]


def _real(g: np.random.Generator, hard: bool = False) -> Scene:
    """A real-table scene: one of ``CAMERAS``, tilted, light of 2,700–6,500 K after the
    camera's white balance (between the warm and cool casts above), uneven, JPEG."""
    fov, k1, k2 = CAMERAS[int(g.integers(len(CAMERAS)))]
    t = float(g.uniform(0, 1))  # colour temperature, warm (0) to cool (1)
    warm, cool = np.array([1.12, 0.98, 0.7]), np.array([0.8, 0.95, 1.2])
    light = tuple(float(v) for v in warm * (1 - t) + cool * t)
    return Scene(real=True, fov=fov, k1=k1, k2=k2,
                 tilt=float(g.uniform(8, 20) if hard else g.uniform(0, 12)),
                 rotation=float(g.uniform(-3, 3)), light=(light[0], light[1], light[2]),
                 level=float(g.uniform(0.5, 0.75) if hard else g.uniform(0.85, 1.1)),
                 light_deg=float(g.uniform(0, 360)),
                 gradient=float(g.uniform(0.15, 0.3) if hard else g.uniform(0.05, 0.15)),
                 vignetting=float(g.uniform(0.1, 0.25)),
                 blur=float(g.uniform(1.6, 2.6) if hard else g.uniform(0.7, 1.1)),
                 noise=4.5 if hard else 2.5,
                 jpeg=int(g.integers(50, 66) if hard else g.integers(80, 93)),
                 shadows=2 if hard else 0)


def _with_hand(scene: Scene, tip: tuple[float, float], skin: tuple[int, int, int]) -> Scene:
    return replace(scene, hands=[tip], skin=skin)


# Realistic conditions (``Scene.real``): the reader is calibrated as ``docs/vision.md``
# says: the lens from 12 photos of the ChArUco sheet taken with the same camera (rendered,
# computed once per camera), then ``calibrate empty`` on three frames of the empty table
# from the same camera in the same light. ``real-no-lens`` skips the lens, ``real-uncalibrated``
# both (as shipped).
REAL_CONDITIONS: dict[str, Callable[[np.random.Generator, Layout], Scene]] = {
    "real-ordinary": lambda g, lay: _real(g),
    "real-hard": lambda g, lay: _real(g, hard=True),
    "real-hands": lambda g, lay: _with_hand(
        _real(g), (float(g.uniform(260, 780)), float(g.uniform(120, 460))),
        HAND_SKINS[int(g.integers(len(HAND_SKINS)))]),
    "real-pale-hand": lambda g, lay: _with_hand(
        _real(g), on_table(lay, "space:council") or (400.0, 250.0), PALE_SKIN),
    "real-no-lens": lambda g, lay: _real(g),
    "real-uncalibrated": lambda g, lay: _real(g),
}
UNCALIBRATED = {"real-uncalibrated"}
NO_LENS = {"real-no-lens", "real-uncalibrated"}
_LENSES: dict[tuple[float, float, float], Lens] = {}


def camera_lens(scene: Scene, photos: int = 12) -> Lens:
    """The lens of a real scene's camera as ``companion calibrate lens`` computes it from
    photos of the sheet (rendered through that camera; cached per camera)."""
    key = (scene.fov, scene.k1, scene.k2)
    hit = _LENSES.get(key)
    if hit is None:
        page = charuco.sheet()
        shoot = Scene(seed=4, real=True, fov=scene.fov, k1=scene.k1, k2=scene.k2, blur=0.9,
                      noise=2.5, jpeg=85)
        hit = charuco.calibrate(render_sheet(shoot, i, page, charuco.PAGE_MM)
                                for i in range(photos))
        _LENSES[key] = hit
    return hit


def condition_names() -> list[str]:
    """Every condition the bench knows: the ideal renderer's, then the real table's."""
    return [*CONDITIONS, *REAL_CONDITIONS]


def scene_for(name: str, g: np.random.Generator, layout: Layout) -> Scene:
    """The scene of condition ``name`` (raises KeyError for an unknown one)."""
    if name in CONDITIONS:
        return CONDITIONS[name](g)
    return REAL_CONDITIONS[name](g, layout)


# ``calibrate cubes`` as docs/vision.md has a person do it: ten spaces, each colour on
# two of them (one cube on one, two touching on the other); then every colour moved on
# to the next space and a second frame: each colour seen on four spaces
_CUBE_SPACES = ["space:harvest", "space:family", "space:crafts", "space:market",
                "space:travel", "space:council", "space:church", "supply:red",
                "supply:yellow", "supply:blue"]
CUBE_CALIBRATION: list[dict[str, tuple[str, int]]] = [
    {r: (CUBE_COLOURS[(i + k) % 5], 1 + i // 5) for i, r in enumerate(_CUBE_SPACES)}
    for k in (0, 1)]


def reader_for(name: str, layout: Layout, scene: Scene, cubes: bool = True) -> BoardReader:
    """The reader a condition is read with: real tables calibrated on their empty table,
    then (``cubes``) on a frame of ``CUBE_CALIBRATION`` (same camera, same light)."""
    if not scene.real or name in UNCALIBRATED:
        return BoardReader(layout)
    cal = calibration.default()
    if name not in NO_LENS:
        cal = calibration.set_lens(cal, camera_lens(scene))
    # three frames of the empty table, as docs/vision.md has a person take (a marker not
    # decoded in one frame is in another: each board learned from the frames that find it)
    empty = [render(layout, TableView(), replace(scene, hands=[], seed=scene.seed + 1 + k,
                                                 camera=scene.seed)).image
             for k in (0, 1000, 2000)]
    try:
        cal = calibration.capture_empty(cal, empty)
    except calibration.CalibrationError:
        return cal.reader()  # the board was not found empty: read with what there is
    if cubes:
        shots = []
        for k, placed in enumerate(CUBE_CALIBRATION):
            view = TableView(cubes={r: {c: n} for r, (c, n) in placed.items()})
            shots.append((render(layout, view, replace(
                scene, hands=[], seed=scene.seed + 2 + k, camera=scene.seed,
                pieces=scene.seed + 2 + k)).image, placed))
        with contextlib.suppress(calibration.CalibrationError):  # a region not seen: as shipped
            cal = calibration.learn_cubes_against_empty(cal, shots)
    return cal.reader()


def random_view(layout: Layout, g: np.random.Generator, players: int = 4) -> TableView:
    """Random but plausible contents: 0–6 cubes per space, tracks, a few figures."""
    view = TableView()
    colours = list(FAMILY_COLOURS[:players])
    for _board, r in layout.cube_regions():
        if r.name.startswith("supply:") and r.name[7:] not in colours:
            continue
        n = int(g.integers(0, 7 if r.name.startswith("space:") else 6))
        counts: dict[str, int] = {}
        for _ in range(n):
            c = CUBE_COLOURS[int(g.integers(4))] if g.random() > 0.08 else "plague"
            counts[c] = counts.get(c, 0) + 1
        view.cubes[r.name] = counts
    for c in colours:
        view.tracks[f"time:{c}"] = {c: int(g.integers(0, 10))}
    cells = g.choice(50, size=players, replace=g.random() < 0.7)
    view.tracks["prestige"] = {c: int(cells[i]) for i, c in enumerate(colours)}
    for c in colours:
        view.zones[f"farm:{c}"] = [f"{c}-1a", f"{c}-1b"][: int(g.integers(0, 3))]
    # drawn last, so the contents above are those of the rows measured before figures and
    # items were read: figures (a monk now and then) in a few zones of the main board,
    # more on the farms, items on every family's farm
    zones = [r.name for r in layout.boards["main"].regions if r.kind == "zone"]
    for z in g.choice(zones, size=5, replace=False):
        n = int(g.integers(1, 3))
        view.zones[str(z)] = [f"monk-{k}" if g.random() < 0.1
                              else f"{colours[int(g.integers(len(colours)))]}-2{'ab'[k]}"
                              for k in range(n)]
    for c in colours:
        view.zones[f"farm:{c}"] += [f"{c}-3a", f"{c}-3b", f"{c}-4a"][: int(g.integers(0, 4))]
        items: dict[str, int] = {}
        for _ in range(int(g.integers(0, 8))):
            k = ITEM_NAMES[int(g.integers(len(ITEM_NAMES)))]
            items[k] = items.get(k, 0) + 1
        view.items[f"goods:{c}"] = items
    # drawn last too: the first-player tokens (the Next marker home half the time)
    first = colours[int(g.integers(len(colours)))]
    nxt = "home" if g.random() < 0.5 else colours[int(g.integers(len(colours)))]
    view.tokens = {"first": first, "next": nxt}
    return view


def token_track(view: TableView, reading: Reading) -> dict[str, int]:
    """The ``first_player`` track the tokens of ``view`` should read as, over the farms
    the reading found (``vision/read_token.py``)."""
    first, nxt = view.tokens.get("first", ""), view.tokens.get("next", "")
    holder = first if nxt == "home" else nxt
    farms = [b.partition(":")[2] for b, ok in reading.boards.items() if ok and b != "main"]
    return {"home": int(nxt == "home"), **{c: int(c == holder) for c in farms}}


def figure_counts(pieces: list[str]) -> dict[str, int]:
    """Figures by colour, as the reader counts them (a monk is black)."""
    out: dict[str, int] = {}
    for p in pieces:
        c = p.partition("-")[0]
        c = MONK if c == "monk" else c
        out[c] = out.get(c, 0) + 1
    return out


def score(layout: Layout, reading: Reading, truth: TableView,
          covered: set[str], kind: str = "cubes") -> tuple[int, int, int]:
    """(exact, counted, misread-under-hand) over the cube regions and tracks (``kind``
    cubes), the figure zones (``figures``), the item regions (``items``) or the
    first-player tokens (``first_player``: one track per image, counted when the tokens
    lie on boards found)."""
    exact = counted = under = 0
    covered_names = {k.split("/", 1)[1].partition("#")[0] for k in covered}
    if kind == "first_player":
        found = {b.partition(":")[2] for b, ok in reading.boards.items() if ok}
        if not truth.tokens or not set(truth.tokens.values()) <= found | {"home"}:
            return 0, 0, 0  # no tokens, or one on a farm out of sight: nothing to read
        got_track = reading.tracks.get("first_player")
        if any(n.startswith("first_player:") for n in covered_names):
            wrong = got_track is not None and got_track != token_track(truth, reading)
            return 0, 0, int(wrong)
        return int(got_track == token_track(truth, reading)), 1, 0
    every = {r.name: r.kind for b in layout.boards.values() for r in b.regions}
    if kind == "figures":
        names = [n for n, k in every.items() if k == "zone"]
    elif kind == "items":
        names = [n for n, k in every.items() if k == "items"]
    else:
        names = [r.name for _b, r in layout.cube_regions()] + layout.track_names()
    tracks = set(layout.track_names())
    for name in names:
        got: dict[str, int] | None
        if kind == "figures":
            want = figure_counts(truth.zones.get(name, []))
            got = reading.figures.get(name)
        elif kind == "items":
            want = {k: n for k, n in truth.items.get(name, {}).items() if n}
            got = reading.items.get(name)
        elif name in tracks:
            want, got = truth.tracks.get(name, {}), reading.tracks.get(name)
        else:
            want, got = truth.cubes.get(name, {}), reading.cubes.get(name)
        if name in covered_names:
            if got is not None and name not in reading.occluded and got != want:
                under += 1
            continue
        counted += 1
        if got is not None and name not in reading.occluded and got == want:
            exact += 1
    return exact, counted, under


def _table(layout: Layout, name: str, seed: int, i: int
           ) -> tuple[np.random.Generator, Scene, int, TableView, Rendered, BoardReader]:
    """Image ``i`` of condition ``name`` before it is read: its random stream (for more
    contents on the same table), scene, player count, truth, render and calibrated reader.
    The stream of a condition depends on its name only, so adding a condition does not
    change the others' images."""
    ci = sum(map(ord, name)) if name in REAL_CONDITIONS else list(CONDITIONS).index(name)
    g = np.random.default_rng(seed * 100003 + ci * 1009 + i)
    scene = replace(scene_for(name, g, layout), seed=int(g.integers(1 << 30)))
    players = int(g.integers(2, 5))
    view = random_view(layout, g, players=players)
    shot = render(layout, view, scene)
    return g, scene, players, view, shot, reader_for(name, layout, scene)


def case(layout: Layout, name: str, seed: int, i: int
         ) -> tuple[TableView, Rendered, Reading]:
    """Image ``i`` of condition ``name``: its truth, its render and the reading."""
    _g, _scene, _players, view, shot, reader = _table(layout, name, seed, i)
    return view, shot, reader.read(shot.image)


def cases(layout: Layout, per_condition: int, seed: int, name: str
          ) -> Iterator[tuple[TableView, Rendered, Reading]]:
    """The images of condition ``name`` the bench reads (``case`` 0, 1, …)."""
    for i in range(per_condition):
        yield case(layout, name, seed, i)


def images(layout: Layout, name: str, per_condition: int, seed: int = 1, views: int = 1
           ) -> Iterator[tuple[int, int, TableView, Rendered, Reading]]:
    """The bench's images of condition ``name``: (image, view, contents, render, reading).

    View 0 of each image is ``case`` i, the one every row is measured on; views 1…
    (``views`` - 1 of them) are further contents on the same table (same camera, light
    and calibration, other pieces): they widen the figure and item rows at the cost of a
    render and a read each, not a calibration. View 0 depends on nothing drawn after it
    (adding views changes no view 0)."""
    for i in range(per_condition):
        for k, view, shot, reading in _views(layout, name, seed, i, views):
            yield i, k, view, shot, reading


def _views(layout: Layout, name: str, seed: int, i: int, views: int
           ) -> Iterator[tuple[int, TableView, Rendered, Reading]]:
    """Views 0 … ``views`` - 1 of table ``i`` (see `images`), each read by the table's
    one reader: (view number, contents, render, reading)."""
    g, scene, players, view, shot, reader = _table(layout, name, seed, i)
    yield 0, view, shot, reader.read(shot.image)
    for k in range(1, views):
        more = random_view(layout, g, players=players)
        s = int(g.integers(1 << 30))
        shot = render(layout, more, replace(scene, seed=s, camera=scene.seed, pieces=s))
        reader.forget_steady_boards()  # each view read whole, as the first
        yield k, more, shot, reader.read(shot.image, float(k))


def view_reading(layout: Layout, name: str, seed: int, i: int, k: int
                 ) -> tuple[TableView, Reading]:
    """View ``k`` of the bench's table ``i`` of condition ``name`` and its reading, as
    `images` reads it (the views before it read first by the same reader)."""
    *_, (_k, view, _shot, reading) = _views(layout, name, seed, i, k + 1)
    return view, reading


def accuracy(layout: Layout, per_condition: int, seed: int = 1,
             conditions: list[str] | None = None, views: int = 1
             ) -> dict[str, dict[str, float]]:
    """Per condition: fraction exact, images, images read wholly right, boards found, and
    misreads under a hand. Every row is measured on ``views`` contents of each of
    ``per_condition`` images (``images``); the images read wholly right and the boards
    found count view 0 of each."""
    out: dict[str, dict[str, float]] = {}
    for name in conditions or condition_names():
        exact = counted = under = perfect = found = 0
        kinds = {"figures": [0, 0], "items": [0, 0], "first_player": [0, 0]}
        for _i, k, view, shot, reading in images(layout, name, per_condition, seed, views):
            # the cubes and tracks of every view (view 0 alone read 99.7 % where views 1-3
            # of the same tables read 97.3 %: one view is too small a sample); the
            # images read wholly right and the boards found, of view 0
            e, c, u = score(layout, reading, view, shot.covered)
            exact, counted, under = exact + e, counted + c, under + u
            if k == 0:
                perfect += int(e == c)
                found += int(reading.board_found)
            for kind, tally in kinds.items():
                ke, kc, ku = score(layout, reading, view, shot.covered, kind)
                tally[0] += ke
                tally[1] += kc
                under += ku
        out[name] = {"exact": round(exact / max(counted, 1), 4), "images": per_condition,
                     "images_all_right": perfect, "board_found": found,
                     "misread_under_hand": under, "piece_images": per_condition * views,
                     "cubes_tracks_counted": counted,
                     **{f"{k}_exact": round(t[0] / max(t[1], 1), 4) for k, t in kinds.items()},
                     **{f"{k}_counted": t[1] for k, t in kinds.items()}}
    return out


def occlusion_sequences(layout: Layout, sequences: int, seed: int = 7,
                        settle_s: float = 0.5, fps: float = 15.0,
                        real: bool = False) -> dict[str, int]:
    """Hands coming in, resting still over regions, going out, while cubes change.

    Returns how many commits were made for a region while a hand truly covered it, and
    how many commits were made in all. ``real``: real-table frames (``_real``) read by a
    calibrated reader (as the real rows), hands of the six ``HAND_SKINS`` in turn.
    """
    bad = total = frames = 0
    for s in range(sequences):
        g = np.random.default_rng(seed * 7919 + s)
        before = random_view(layout, g)
        after = random_view(layout, g)
        tip = (float(g.uniform(260, 780)), float(g.uniform(120, 460)))
        start = (tip[0] + float(g.uniform(-80, 80)), 600.0 if tip[1] > 290 else -20.0)
        base = Scene(perspective=0.03, blur=0.6, noise=2.0, hand_skin=int(g.integers(5)))
        reader = BoardReader(layout)
        if real:
            base = replace(_real(g), skin=HAND_SKINS[s % len(HAND_SKINS)])
            reader = reader_for("real-ordinary", layout, replace(base, seed=s))
        settler = Settler(settle_s)
        # 10 frames still, the hand sweeps in over 6 frames, rests 20 frames (longer than
        # the settle time) while the cubes under it change, leaves, 15 still frames after.
        plan: list[tuple[TableView, list[tuple[float, float]]]] = [(before, [])] * 10
        for k in range(1, 7):
            f = k / 6
            plan.append((before, [(start[0] + (tip[0] - start[0]) * f,
                                   start[1] + (tip[1] - start[1]) * f)]))
        plan += [(after, [tip])] * 20 + [(after, [])] * 15
        for i, (view, hands) in enumerate(plan):
            pieces = s if view is before else s + 1  # pieces stay put between changes
            shot = render(layout, view, replace(base, seed=s * 1000 + i, camera=s,
                                                pieces=pieces, hands=hands))
            covered = {k.split("/", 1)[1].partition("#")[0] for k in shot.covered}
            for commit in settler.feed(reader.read(shot.image, i / fps)):
                total += 1
                if commit.name in covered:
                    bad += 1
            frames += 1
    return {"committed_under_occlusion": bad, "commits": total, "sequences": sequences,
            "frames": frames}


def _time(fn: Callable[[int], object], frames: int) -> tuple[float, float]:
    """(wall ms, process CPU ms) per call, over ``frames`` calls."""
    c0, t0 = time.process_time(), time.perf_counter()
    for i in range(frames):
        fn(i)
    return ((time.perf_counter() - t0) / frames * 1000, (time.process_time() - c0) / frames * 1000)


def speed(layout: Layout, frames: int = 90, seed: int = 3, real: bool = False
          ) -> dict[str, float]:
    """Reader time per 1280×720 frame and one warpPerspective of the frame to 1000×700,
    on one thread, alternating in the same run (medians of 5 rounds).

    ``ms_per_frame`` is a steady table (camera noise differs frame to frame; pieces stay;
    its reader sees no other frames):
    geometry and unchanged regions are reused, everything is re-read every ``REFRESH``
    frames. ``ms_per_frame_changing`` is a table whose contents change on every frame
    (every region read every frame): the worst case. CPU figures are the process's CPU
    time, less disturbed than wall time on a shared machine. ``real``: real-table frames
    (``_real``, the second of ``CAMERAS``) read by a reader calibrated as in the bench's
    real rows (lens and empty-board model).
    """
    cv2.setNumThreads(1)
    g = np.random.default_rng(seed)
    view = random_view(layout, g)
    base = Scene(perspective=0.03, blur=0.6, noise=2.0)
    if real:
        fov, k1, k2 = CAMERAS[1]
        base = replace(_real(np.random.default_rng(seed)), fov=fov, k1=k1, k2=k2)
    steady = [render(layout, view, replace(base, seed=seed + i, camera=seed,
                                           pieces=seed)).image for i in range(4)]
    changing = [render(layout, random_view(layout, g), replace(
        base, seed=seed + i, camera=seed)).image for i in range(4)]
    # one reader per table: a steady table's reader never sees the changing frames (after
    # a change the regions next to it are read again until the next full reading, up to
    # REFRESH frames: that is the changing table's cost, not a steady one's)
    reader, mover = ((reader_for("real-ordinary", layout, replace(base, seed=seed)),
                      reader_for("real-ordinary", layout, replace(base, seed=seed))) if real
                     else (BoardReader(layout), BoardReader(layout)))
    reader.read(steady[0])  # the first frame detects the markers and builds the plan
    mover.read(changing[0])
    hom = reader.tracker.geometry.boards["main"]
    to_board = np.diag([1000 / 600, 700 / 420, 1.0]) @ np.linalg.inv(hom)
    rows: dict[str, list[tuple[float, float]]] = {"steady": [], "changing": [], "warp": []}
    for _round in range(5):
        rows["steady"].append(_time(lambda i: reader.read(steady[i % 4], i / 15), frames))
        rows["warp"].append(_time(
            lambda i: cv2.warpPerspective(steady[i % 4], to_board, (1000, 700)), frames))
        rows["changing"].append(_time(lambda i: mover.read(changing[i % 4], i / 15), frames))
    med = {k: (float(np.median([w for w, _ in v])), float(np.median([c for _, c in v])))
           for k, v in rows.items()}
    return {"ms_per_frame": round(med["steady"][0], 2), "warp_ms": round(med["warp"][0], 2),
            "ratio_to_warp": round(med["steady"][0] / med["warp"][0], 2),
            "cpu_ms_per_frame": round(med["steady"][1], 2),
            "cpu_warp_ms": round(med["warp"][1], 2),
            "cpu_ratio_to_warp": round(med["steady"][1] / med["warp"][1], 2),
            "ms_per_frame_changing": round(med["changing"][0], 2),
            "cpu_ms_per_frame_changing": round(med["changing"][1], 2),
            "detections": reader.tracker.detections}
