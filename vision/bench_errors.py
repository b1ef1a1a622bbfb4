"""``companion vision-bench --errors``: which cube regions and tracks the bench's images
read wrong, and how.

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
or "off by n" cells.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .bench import cases
from .layout import Layout
from .read_parts import Reading
from .table import TableView


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


def errors(layout: Layout, per_condition: int, seed: int = 1,
           conditions: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Per condition: failures by kind and way, the confusions tallied, and every
    failure listed with its image's index."""
    out: dict[str, dict[str, Any]] = {}
    for name in conditions or []:
        by_way: Counter[str] = Counter()
        confusions: Counter[str] = Counter()
        listing: list[dict[str, Any]] = []
        for i, (view, shot, reading) in enumerate(cases(layout, per_condition, seed, name)):
            for f in failures(layout, reading, view, shot.covered):
                by_way[f"{f['kind']}: {f['how']}"] += 1
                confusions.update(f"{f['kind']}: {c}" for c in f["confusions"])
                listing.append({"image": i, **f})
        out[name] = {"failures": dict(by_way.most_common()),
                     "confusions": dict(confusions.most_common()), "listing": listing}
    return out


def report(errs: dict[str, dict[str, Any]]) -> str:
    """The listing as text, condition by condition."""
    lines: list[str] = []
    for name, e in errs.items():
        lines.append(f"== {name}: {len(e['listing'])} cube regions and tracks not exact")
        lines += [f"  {n:4}  {k}" for k, n in e["failures"].items()]
        if e["confusions"]:
            lines.append("  confusions:")
            lines += [f"  {n:4}  {k}" for k, n in e["confusions"].items()]
        for f in e["listing"]:
            lines.append(f"  image {f['image']:3} {f['region']:16} {f['how']:10} "
                         f"want {f['want']} got {f['got']} {' '.join(f['confusions'])}")
    return "\n".join(lines)
