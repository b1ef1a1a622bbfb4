"""The misread rivals of a path (`misreads._misread_rivals`) from one pass over the cache
per look (`_rival_scan`), shared by every path asked about: the same rivals, in the same
order, as the pass made for each path alone (`_rivals_alone` below: the rule as it was
written before the scan was shared), a new pass once the cache grows, and none when no
camera region is observed (the tag readers alone)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from companion import village as v
from companion.reconcile.misreads import _Both, camera_read, one_misread
from companion.reconcile.observed import ByColour
from companion.reconcile.reconciler import Reconciler
from companion.reconcile.search import Path, Search
from companion.sim.memory_link import MemoryLink
from companion.sim.table import camera_regions
from companion.village import zones
from companion.village.actions import Buyout
from companion.village.picture import piece_zone_names, regions_of


def _rivals_alone(rec: Reconciler, path: Path, observed: dict[str, Any]) -> list[Path]:
    """The rule of `_misread_rivals`, one pass over the cache for ``path`` alone."""
    base = rec._cache.base
    doubted = {k: val for k, val in rec.doubted.items() if k in base}
    keys = [k for k in observed if k in base]
    soft = [k for k in keys if camera_read(k, observed[k])]
    hard = [k for k in keys if not camera_read(k, observed[k])]
    pieces = set(piece_zone_names(rec._cache.nodes[()].state))
    paid = any(isinstance(a, Buyout) and a.members for a in path)
    out: list[Path] = []
    for m, node in rec._cache.nodes.items():
        n = min(len(m), len(path))
        if not m or m[:n] == path[:n]:
            continue
        reg = _Both(node.pieces(), node.others())
        if any(reg[k] != observed[k] for k in hard) or not rec._fits_left_out(
                reg.__getitem__):
            continue
        if any(reg[k] != base[k] and reg[k] != val for k, val in doubted.items()):
            continue
        off = [k for k in soft if reg[k] != observed[k]]
        if len(off) == 1:
            k = off[0]
            true_doubt = any(reg[d] != base[d] for d in doubted)
            if (reg[k] != base[k] or true_doubt or paid) and one_misread(reg[k], observed[k]):
                out.append(m)
    assert pieces  # the picture's piece zones exist (the scan reads them)
    return out


def _product_camera(st: v.GameState, figures_by_tag: bool) -> dict[str, Any]:
    """What the product camera reads of ``st`` (figures by colour), or with the figures'
    zones read by the tag readers (hub+camera)."""
    reg = regions_of(st)
    out: dict[str, Any] = {}
    for name in camera_regions(st, ideal=False):
        value = reg[name]
        if zones.split(name)[0] in zones.PIECE_ZONE_KINDS and not figures_by_tag:
            value = ByColour(dict(ByColour.of(value)))
        out[name] = value
    return out


def _looks(situations: dict[str, Any]) -> Iterator[tuple[Reconciler, dict[str, Any]]]:
    """A reconciler whose cache holds the search of a camera look at the table after a
    take, a training or a council move (several setups of what is observed)."""
    for kind in ("take", "train", "council_enter", "use_well"):
        for st, a in situations.get(kind, [])[:3]:
            after = v.apply(st, a)
            for by_tag in (False, True):
                for observed in _misread_once(st, _product_camera(after, by_tag)):
                    rec = Reconciler(MemoryLink(st))
                    result = Search(rec._cache, st, observed, depth=3, budget=1500).run()
                    assert result is not None
                    yield rec, observed


def _misread_once(st: v.GameState, observed: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """``observed``, then ``observed`` with each region of cubes the move changed read with
    one cube's colour swapped (what makes rivals: paths one misread off)."""
    yield observed
    before = regions_of(st)
    for k, val in observed.items():
        if (zones.split(k)[0] in zones.CUBE_REGION_KINDS and val != before[k]
                and any(val)):
            i = next(i for i, n in enumerate(val) if n)
            swapped = list(val)
            swapped[i] -= 1
            swapped[(i + 1) % len(val)] += 1
            yield {**observed, k: tuple(swapped)}


def test_the_shared_scan_gives_each_path_the_rivals_its_own_pass_gave(
        situations: dict[str, Any]) -> None:
    checked = found = 0
    for rec, observed in _looks(situations):
        paths = list(rec._cache.nodes)[1:400]
        for path in paths:
            got = rec._misread_rivals(path, observed)
            assert got == _rivals_alone(rec, path, observed)
            checked += 1
            found += bool(got)
    assert checked > 500 and found > 10, (checked, found)  # the rule met, not only passed


def test_a_look_passes_the_cache_once_for_every_path_asked(
        situations: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    rec, observed = next(_looks(situations))
    passes = []
    scan = Reconciler._scan_rivals
    monkeypatch.setattr(Reconciler, "_scan_rivals",
                        lambda self, obs: passes.append(1) or scan(self, obs))
    for path in list(rec._cache.nodes)[1:30]:
        rec._misread_rivals(path, observed)
    assert len(passes) == 1


def test_a_path_added_to_the_cache_is_scanned_and_new_doubts_scan_anew(
        situations: dict[str, Any]) -> None:
    for rec, observed in _looks(situations):
        cache = rec._cache
        path = next((p for p in list(cache.nodes)[1:400]
                     if _rivals_alone(rec, p, observed)), None)
        if path is None:
            continue
        m = _rivals_alone(rec, path, observed)[-1]
        node = cache.nodes.pop(m)  # a rival not in the cache yet
        assert m not in rec._misread_rivals(path, observed)
        cache.nodes[m] = node  # the weighing adds paths (`_drawn_instead`, `_one_step_on`)
        assert m in rec._misread_rivals(path, observed)
        rec.doubted = {k: val for k, val in observed.items() if camera_read(k, val)}
        assert rec._misread_rivals(path, observed) == _rivals_alone(rec, path, observed)
        return
    raise AssertionError("no look with a misread rival")


def test_no_camera_region_no_rival_and_no_pass(
        situations: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    st, a = situations["train"][0]  # a figure moves: the tag readers see it
    after = regions_of(v.apply(st, a))
    observed = {k: val for k, val in after.items()
                if zones.split(k)[0] in zones.PIECE_ZONE_KINDS}  # the tag readers alone
    rec = Reconciler(MemoryLink(st))
    assert Search(rec._cache, st, observed, depth=3, budget=1500).run() is not None
    assert len(rec._cache.nodes) > 10
    looked = []
    monkeypatch.setattr(_Both, "__getitem__", lambda self, k: looked.append(k))
    for path in list(rec._cache.nodes)[1:50]:
        assert rec._misread_rivals(path, observed) == []
    assert looked == []
