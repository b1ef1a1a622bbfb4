"""``companion vision-bench --errors`` (or ``python -m vision.bench_errors``): what the
bench's images read wrong, and how — every cube region and track, figure zone and item
region (``--views`` contents of each image, as the bench's rows),
each image's camera and light (``image_light``: lens, level, colour, unevenness, blur,
JPEG, shadows), with ``--crops DIR`` a picture of each wrong region
(``python -m vision.bench_failures``, its older name, runs the same).

Each region not exact on an image (the same images as ``bench.accuracy``) is put in one
kind (a space of the main board, a farm's supply, a time track, the prestige track) and
one way of failing:

- ``hidden``: held back as under a hand where no hand is (the hand test's part);
- ``uncertain``: read, but no number given (something strange, a count that fits badly);
- ``not placed``: its board was not found or its fit refused;
- ``wrong``: a number given, and wrong.

A wrong cube region's differences are paired into confusions: each cube of colour *a*
missing beside one of *b* too many is "a→b"; what is left is "a missed" or "b invented".
A wrong track's colour is "missed" (not seen), "invented" (seen on a track without it)
or "off by n" cells. A figure zone or item region read wrong (``wrong_regions``) has its
differences as ``a->b`` (a piece of one kind read as another: ``horse->wagon``), ``a->-``
(missed) or ``-->b`` (seen where there was none); hidden, uncertain or on a board not
found, it is said so (``hidden``, ``not read``).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .bench import CONDITIONS, REAL_CONDITIONS, figure_counts, images, scene_for
from .layout import Layout, load
from .read_parts import Reading
from .render import Rendered
from .table import TableView


def image_light(layout: Layout, name: str, seed: int, i: int) -> dict[str, Any]:
    """The camera and light of the bench's image ``i`` of condition ``name`` (as
    ``bench._table`` draws them): lens (field of view), light's level and colour (RGB
    gains: warm has red above blue), unevenness, blur (σ px), JPEG quality, shadows."""
    ci = sum(map(ord, name)) if name in REAL_CONDITIONS else list(CONDITIONS).index(name)
    s = scene_for(name, np.random.default_rng(seed * 100003 + ci * 1009 + i), layout)
    return {"fov": s.fov, "level": round(s.level, 2),
            "light": [round(float(v), 2) for v in s.light], "gradient": round(s.gradient, 2),
            "blur": round(s.blur, 2), "jpeg": s.jpeg, "shadows": s.shadows}


def _light_text(li: dict[str, Any]) -> str:
    r, _g, b = li["light"]
    tint = "warm" if r > b * 1.05 else "cool" if b > r * 1.05 else "neutral"
    return (f"{li['fov']:.0f}° lens, light {li['level']:.2f} {tint}, uneven "
            f"{li['gradient']:.2f}, blur {li['blur']:.2f} px, JPEG {li['jpeg']}, "
            f"{li['shadows']} shadows")


def region_kind(name: str) -> str:
    """The kind a cube region or track is listed under."""
    if name.startswith("supply:"):
        return "supply"
    if name.startswith("time:"):
        return "time track"
    if name == "prestige":
        return "prestige"
    return "space"


def cube_confusions(want: dict[str, int], got: dict[str, int]) -> list[str]:
    """The differences of a wrong cube reading as confusions (module docstring)."""
    delta = {c: got.get(c, 0) - want.get(c, 0) for c in {*want, *got}}
    short = [c for c in sorted(delta) for _ in range(-delta[c]) if delta[c] < 0]
    extra = [c for c in sorted(delta) for _ in range(delta[c]) if delta[c] > 0]
    out = [f"{a}→{b}" for a, b in zip(short, extra, strict=False)]
    out += [f"{a} missed" for a in short[len(extra):]]
    out += [f"{b} invented" for b in extra[len(short):]]
    return out


def track_confusions(want: dict[str, int], got: dict[str, int]) -> list[str]:
    """The differences of a wrong track reading, one per colour."""
    out = []
    for c in sorted({*want, *got}):
        if c not in got:
            out.append(f"{c} missed")
        elif c not in want:
            out.append(f"{c} invented")
        elif got[c] != want[c]:
            out.append(f"{c} off by {abs(got[c] - want[c])}")
    return out


def failures(layout: Layout, reading: Reading, truth: TableView, covered: set[str]
             ) -> list[dict[str, Any]]:
    """Every cube region and track of one image not read exactly (and not truly under a
    hand): its name, kind, way of failing, truth, reading and confusions."""
    covered_names = {k.split("/", 1)[1].partition("#")[0] for k in covered}
    placed = {r.name: b for b, r in layout.cube_regions()}
    placed.update({r.name: b.name for b in layout.boards.values() for r in b.regions
                   if r.kind == "track"})
    tracks = set(layout.track_names())
    out: list[dict[str, Any]] = []
    for name in placed:
        if name in covered_names:
            continue
        is_track = name in tracks
        want = (truth.tracks if is_track else truth.cubes).get(name, {})
        want = {c: n for c, n in want.items() if is_track or n}
        got = (reading.tracks if is_track else reading.cubes).get(name)
        board = placed[name]
        if not reading.boards.get(board, False):
            how = "not placed"
        elif name in reading.uncertain:
            how = "uncertain"
        elif name in reading.occluded:
            how = "hidden"
        elif got is None:
            how = "not placed"
        elif got == want:
            continue
        else:
            how = "wrong"
        conf: list[str] = []
        if how == "wrong" and got is not None:
            conf = (track_confusions if is_track else cube_confusions)(want, got)
        out.append({"region": name, "kind": region_kind(name), "how": how, "want": want,
                    "got": got, "confusions": conf})
    return out


KINDS = {"figures": "zone", "items": "items"}


def piece_confusions(want: dict[str, int], got: dict[str, int]) -> list[str]:
    """How ``got`` differs from ``want`` (counts by kind), as ``a->b`` pairs: each piece
    missing of one kind paired with one too many of another (a misread), then what is left
    (``a->-`` missed, ``-->b`` seen where there was none)."""
    short = Counter({k: n - got.get(k, 0) for k, n in want.items() if n > got.get(k, 0)})
    extra = Counter({k: n - want.get(k, 0) for k, n in got.items() if n > want.get(k, 0)})
    out: list[str] = []
    for a in sorted(short):
        for b in sorted(extra):
            while short[a] and extra[b]:
                out.append(f"{a}->{b}")
                short[a] -= 1
                extra[b] -= 1
    out += [f"{a}->-" for a in sorted(short) for _ in range(short[a])]
    out += [f"-->{b}" for b in sorted(extra) for _ in range(extra[b])]
    return out


def wrong_regions(layout: Layout, reading: Reading, truth: TableView, covered: set[str],
                  kind: str) -> list[dict[str, Any]]:
    """The regions of ``kind`` (figures or items) not read exactly, as ``bench.score``
    counts them (a region a hand truly covers is left out), each with what lay there,
    what was read (None: not read) and why."""
    covered_names = {k.split("/", 1)[1].partition("#")[0] for k in covered}
    out: list[dict[str, Any]] = []
    for b in layout.boards.values():
        for r in b.regions:
            if r.kind != KINDS[kind] or r.name in covered_names:
                continue
            if kind == "figures":
                want = figure_counts(truth.zones.get(r.name, []))
                got = reading.figures.get(r.name)
            else:
                want = {k: n for k, n in truth.items.get(r.name, {}).items() if n}
                got = reading.items.get(r.name)
            hidden = r.name in reading.occluded or r.key in reading.occluded
            if got == want and not hidden:
                continue
            why = ("hidden" if hidden else "not read" if got is None
                   else " ".join(piece_confusions(want, got)))
            out.append({"region": r.name, "want": want, "got": got, "why": why})
    return out


def piece_failures(layout: Layout, per_condition: int, seed: int = 1, conditions: list[str] | None
             = None, views: int = 1) -> dict[str, dict[str, Any]]:
    """Per condition: every figure zone and item region read wrong on the bench's images
    (``wrong``: image, view, kind, region, want, got, why) and the confusions summed over
    them by kind (``confusion``: ``{"items": {"horse->wagon": 3, …}, …}``)."""
    out: dict[str, dict[str, Any]] = {}
    for name in conditions or ["real-ordinary", "real-hard"]:
        wrong: list[dict[str, Any]] = []
        conf: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
        for i, v, truth, shot, reading in images(layout, name, per_condition, seed, views):
            for kind in KINDS:
                for w in wrong_regions(layout, reading, truth, shot.covered, kind):
                    wrong.append({"image": i, "view": v, "kind": kind, **w})
                    conf[kind].update(w["why"].split())
        out[name] = {"wrong": wrong,
                     "confusion": {k: dict(c.most_common()) for k, c in conf.items()}}
    return out


def crop(layout: Layout, shot: Rendered, region: str, step: float = 0.5,
         margin: float = 4.0) -> np.ndarray | None:
    """Region ``region`` of a render as the camera saw it, upright (BGR; ``margin`` mm
    around it, a sample every ``step`` mm, from where the board truly lies); None for a
    region the layout does not have."""
    board = next((b for b in layout.boards.values() for r in b.regions
                  if r.name == region), None)
    if board is None:
        return None
    rects = [q.rect for q in board.regions if q.name == region]  # a track: all its cells
    x0, y0 = min(q[0] for q in rects) - margin, min(q[1] for q in rects) - margin
    x1, y1 = max(q[2] for q in rects) + margin, max(q[3] for q in rects) + margin
    xs, ys = np.arange(x0, x1, step), np.arange(y0, y1, step)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)
    at = shot.to_frame(board.name, grid).astype(np.float32).reshape(len(ys), len(xs), 2)
    out: np.ndarray = cv2.remap(shot.image, at[..., 0], at[..., 1], cv2.INTER_LINEAR)
    return out


def errors(layout: Layout, per_condition: int, seed: int = 1,
           conditions: list[str] | None = None, views: int = 1,
           crops: Path | None = None) -> dict[str, dict[str, Any]]:
    """Per condition: the cube regions and tracks not exact (view 0 of each image, as the
    bench's row): failures by kind and way, the confusions tallied, every failure listed
    with its image's index; and the figure zones and item regions read wrong on
    ``views`` contents of each image (``pieces``: ``wrong_regions``,
    with their confusions). With ``crops``, each wrong region's crop is written there
    (``<condition>_<image>.<view>_<region>.png``)."""
    out: dict[str, dict[str, Any]] = {}
    if crops is not None:
        crops.mkdir(parents=True, exist_ok=True)
    for name in conditions or []:
        by_way: Counter[str] = Counter()
        confusions: Counter[str] = Counter()
        listing: list[dict[str, Any]] = []
        wrong: list[dict[str, Any]] = []
        conf: dict[str, Counter[str]] = {k: Counter() for k in KINDS}
        light = {i: image_light(layout, name, seed, i) for i in range(per_condition)}
        for i, k, view, shot, reading in images(layout, name, per_condition, seed, views):
            found: list[str] = []
            for f in failures(layout, reading, view, shot.covered):  # every view, as the row
                by_way[f"{f['kind']}: {f['how']}"] += 1
                confusions.update(f"{f['kind']}: {c}" for c in f["confusions"])
                listing.append({"image": i, "view": k, **f})
                found.append(f["region"])
            for kind in KINDS:
                for w in wrong_regions(layout, reading, view, shot.covered, kind):
                    wrong.append({"image": i, "view": k, "kind": kind, **w})
                    conf[kind].update(w["why"].split())
                    found.append(w["region"])
            for region in found if crops is not None else []:
                img = crop(layout, shot, region)
                if img is not None and crops is not None:
                    cv2.imwrite(str(crops / f"{name}_{i}.{k}_{region.replace(':', '_')}.png"),
                                cv2.resize(img, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST))
        out[name] = {"failures": dict(by_way.most_common()), "light": light,
                     "confusions": dict(confusions.most_common()), "listing": listing,
                     "pieces": {"wrong": wrong,
                                "confusion": {k: dict(c.most_common()) for k, c in conf.items()}}}
    return out


def report(errs: dict[str, dict[str, Any]]) -> str:
    """The listing as text, condition by condition."""
    lines: list[str] = []
    for name, e in errs.items():
        if e.get("light"):
            lines.append(f"== {name}: each image's camera and light")
            lines += [f"  image {i:3}: {_light_text(li)}" for i, li in e["light"].items()]
        lines.append(f"== {name}: {len(e['listing'])} cube regions and tracks not exact")
        lines += [f"  {n:4}  {k}" for k, n in e["failures"].items()]
        if e["confusions"]:
            lines.append("  confusions:")
            lines += [f"  {n:4}  {k}" for k, n in e["confusions"].items()]
        for f in e["listing"]:
            lines.append(f"  image {f['image']:3} {f['region']:16} {f['how']:10} "
                         f"want {f['want']} got {f['got']} {' '.join(f['confusions'])}")
        pieces = e.get("pieces")
        if pieces is None:
            continue
        lines.append(f"== {name}: {len(pieces['wrong'])} figure zones and item regions wrong")
        for kind, c in pieces["confusion"].items():
            lines.append(f"  {kind}: " + ", ".join(f"{k} {n}" for k, n in c.items()))
        for w in pieces["wrong"]:
            lines.append(f"  image {w['image']:3}.{w['view']} {w['region']:18} want {w['want']} "
                         f"got {w['got']}  {w['why']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.bench_errors``: the listing (``companion vision-bench --errors``
    is the same)."""
    p = argparse.ArgumentParser(prog="python -m vision.bench_errors", description=__doc__)
    p.add_argument("--conditions", default="real-ordinary,real-hard")
    p.add_argument("--per-condition", type=int, default=12)
    p.add_argument("--views", type=int, default=1, help="contents per calibrated table")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--crops", type=Path, help="write each wrong region's crop here")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    got = errors(load(), args.per_condition, args.seed, args.conditions.split(","),
                 args.views, args.crops)
    print(json.dumps(got, indent=1) if args.json else report(got))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
