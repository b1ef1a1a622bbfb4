"""What the bench's figure and item rows got wrong, region by region, and the confusions
(a part of the one listing, `vision.bench_errors`: ``companion vision-bench --errors
--views 4``).

Every figure zone and item region not read exactly on the bench's own images
(``bench.images``: the same images as its rows), with what lay there and what was read,
and the differences summed as confusions: a piece of one kind read as another
(``horse->wagon``), missed (``coin->-``) or seen where there was none (``-->coin``); a
region hidden, uncertain or on a board not found is said so (``hidden``, ``not read``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .bench import figure_counts, images
from .layout import Layout
from .read import Reading
from .table import TableView

KINDS = {"figures": "zone", "items": "items"}


def confusions(want: dict[str, int], got: dict[str, int]) -> list[str]:
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
                   else " ".join(confusions(want, got)))
            out.append({"region": r.name, "want": want, "got": got, "why": why})
    return out


def failures(layout: Layout, per_condition: int, seed: int = 1, conditions: list[str] | None
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


def main(argv: list[str] | None = None) -> int:
    """``python -m vision.bench_failures``: the one listing of everything the bench read
    wrong (`vision.bench_errors`, ``companion vision-bench --errors``), cubes and tracks
    included."""
    from .bench_errors import main as listing

    return listing(argv)


if __name__ == "__main__":
    raise SystemExit(main())
