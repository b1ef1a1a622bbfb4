"""The search's shortcuts change nothing it decides: on every search the simulated table
asks for, through every setup, the search as it was before (kept here verbatim: every
state's whole picture, every region compared) returns the same matches, the same cut and
the same count of states computed, each with its own cache, as ``search.explain`` and as
a ``search.Search`` run in shares over several looks."""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Mapping
from typing import Any

import pytest
from reconcile_kit import game_states

from companion import village as v
from companion.reconcile import reconciler
from companion.reconcile import search as new
from companion.reconcile.chance import ChanceReader
from companion.reconcile.search import (
    ChanceFrom,
    Path,
    SearchResult,
    _elastic,
    _options,
    involved,
)
from companion.sim.behaviour import NOISE
from companion.sim.play_styles import random_truth
from companion.sim.table import SETUPS, camera_regions, hub_zones
from companion.sim.table_game import play
from companion.village import zones
from companion.village.actions import TakeCube
from companion.village.picture import RegionValue, picture, piece_regions, regions_of

_COLOURED = (zones.SUPPLY, zones.GOODS)


class OldPathCache:
    """``search.PathCache`` before the shortcuts."""

    def __init__(self) -> None:
        self.root: v.GameState | None = None
        self.nodes: dict[Path, tuple[v.GameState, dict[str, RegionValue], frozenset[str]]] = {}
        self.children: dict[Path, list[Any]] = {}

    def reset(self, root: v.GameState) -> None:
        if root is not self.root:
            self.root = root
            self.nodes = {(): (root, regions_of(root), frozenset())}
            self.children = {}

    def add(self, path: Path, state: v.GameState) -> None:
        base = self.nodes[()][1]
        reg = regions_of(state)
        self.nodes[path] = (state, reg, frozenset(k for k, x in reg.items() if base[k] != x))


def old_explain(
    cache: OldPathCache,
    root: v.GameState,
    observed: Mapping[str, RegionValue],
    *,
    depth: int = 3,
    budget: int = 3000,
    chance_from: ChanceFrom | None = None,
) -> SearchResult:
    """``search.explain`` before the shortcuts, verbatim."""
    cache.reset(root)
    base = cache.nodes[()][1]
    observed = {k: val for k, val in observed.items() if k in base}
    diff = frozenset(k for k, val in observed.items() if base[k] != val)
    if not diff:
        return SearchResult([()], 0, False)
    colours = involved(base, observed, diff)
    allowed = set(diff) | {k for k in base if k not in observed}
    allowed |= {k for k in observed if _elastic(k) and (
        not k.startswith(_COLOURED) or zones.split(k)[1] in colours)}
    allowed |= {k for k in observed if zones.split(k)[0] in zones.PIECE_ZONE_KINDS}
    settle = [k for k in observed if k in allowed and k not in diff]
    nodes = 0
    frontier: list[Path] = [()]
    matches: list[Path] = []
    for _level in range(depth):
        nxt: list[Path] = []
        for path in frontier:
            state = cache.nodes[path][0]
            kids = cache.children.get(path)
            if kids is None:
                kids = _options(state, chance_from)
                if not v.is_chance(state):
                    cache.children[path] = kids
            for action in kids:
                if isinstance(action, TakeCube):
                    name = zones.space(action.space)
                    if name in observed and name not in diff:
                        continue
                child = (*path, action)
                hit = cache.nodes.get(child)
                if hit is None:
                    if nodes >= budget:
                        return SearchResult(matches, nodes, True)
                    nodes += 1
                    cache.add(child, v.apply_unchecked(state, action))
                    hit = cache.nodes[child]
                changed = hit[2]
                if not changed <= allowed:
                    continue
                reg = hit[1]
                if all(reg[k] == observed[k] for k in diff) and not any(
                    k in changed for k in settle
                ):
                    matches.append(child)
                elif hit[0].phase != "over":
                    nxt.append(child)
        frontier = nxt
    return SearchResult(matches, nodes, False)


class Both:
    """Stands for ``Search`` in the reconciler: runs the old search on a cache of its own
    beside every new search once it is over (however many looks it took, each stopping
    after its share of work), and checks they agree."""

    def __init__(self) -> None:
        self.shadows: dict[int, tuple[new.PathCache, OldPathCache]] = {}
        self.searches = self.cut = self.matched = self.nodes = self.resumed = 0

    def search_class(self) -> type[new.Search]:
        both = self

        class Checked(new.Search):
            def __init__(self, cache: new.PathCache, root: v.GameState,
                         observed: Mapping[str, RegionValue], **kw: Any) -> None:
                self.shadow = both.shadows.setdefault(id(cache), (cache, OldPathCache()))[1]
                self.args = (root, dict(observed), kw)
                self.checked = False
                self.shadowed = 0  # states the shadow has computed for this search
                super().__init__(cache, root, observed, **kw)

            def run(self, work: float = float("inf")) -> SearchResult | None:
                got = super().run(work)
                root, observed, kw = self.args
                budget = kw.get("budget", 3000)
                if got is None:  # stopped after its share: the shadow computes as many
                    both.resumed += 1
                    if self.nodes > self.shadowed:
                        old_explain(self.shadow, root, observed,
                                    **{**kw, "budget": self.nodes - self.shadowed})
                        self.shadowed = self.nodes
                elif not self.checked:
                    self.checked = True
                    want = old_explain(self.shadow, root, observed,
                                       **{**kw, "budget": budget - self.shadowed})
                    assert (got.matches, got.cut, got.nodes) == (
                        want.matches, want.cut, self.shadowed + want.nodes)
                    both.searches += 1
                    both.cut += got.cut
                    both.matched += bool(got.matches) and got.matches != [()]
                    both.nodes += got.nodes
                return got

        return Checked


def run_games(monkeypatch: pytest.MonkeyPatch, setups: tuple[str, ...], noises: list[str],
              plays: list[str], games: int, players: int, cut: int | None) -> dict[str, Both]:
    out = {}
    for setup in setups:
        both = out[setup] = Both()
        monkeypatch.setattr(reconciler, "Search", both.search_class())
        for p in plays:
            for g in range(games):
                header, truth = random_truth(players, random.Random(f"eq/{p}/{g}"), p)
                if cut is not None:
                    truth = truth[:cut]
                for noise in noises:
                    play(header, truth, setup, NOISE[noise], random.Random(f"{g}/{setup}/{noise}"))
        assert both.searches > 50, (setup, vars(both))
        assert setup == "pad" or both.matched > 10, (setup, vars(both))  # the pad sees no region
    return out


def test_the_pictures_in_two_parts_are_the_whole_picture() -> None:
    for st, _a in game_states(3)[::7]:
        assert regions_of(st) == picture(st).regions()


def test_same_decisions_on_a_simulated_game_through_every_setup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    out = run_games(monkeypatch, SETUPS, ["ordinary"], ["purposeful"], 1, 2, 140)
    assert out["hub"].cut > 0  # the searches the shortcuts are for
    assert out["hub"].resumed > 0  # searches that went on over several looks


@pytest.mark.slow
@pytest.mark.parametrize("setup", SETUPS)
def test_same_decisions_on_whole_games_at_every_noise_and_play(
        monkeypatch: pytest.MonkeyPatch, setup: str) -> None:
    # both play styles at ordinary noise; every noise level with
    # VILLAGE_SEARCH_EQUIVALENCE=all (three times as long: 13,458 searches, all identical);
    # one setup per test, so a parallel run spreads them (tests/conftest.py)
    noises = list(NOISE) if os.environ.get("VILLAGE_SEARCH_EQUIVALENCE") == "all" else [
        "ordinary"]
    out = run_games(monkeypatch, (setup,), noises, ["purposeful", "random"], 1, 3, None)
    print({s: vars(b) | {"shadows": len(b.shadows)} for s, b in out.items()})
    assert setup != "hub" or out["hub"].cut > 0


def test_one_cache_for_different_sensors_on_the_same_states(
        situations: dict[str, list[tuple[v.GameState, dict[str, Any]]]]) -> None:
    """Searches from one root with different regions observed share the cache (the
    reconciler retries a region with each source's reading): the parts of the picture
    computed for one search serve the next."""
    compared = 0
    for kind in sorted(situations):
        for st, action in situations[kind]:
            after = v.apply(st, action)
            seen = regions_of(after)
            views = [set(hub_zones(st)), set(camera_regions(st)),
                     set(hub_zones(st)) | set(camera_regions(st)), set(seen)]
            cache, shadow = new.PathCache(), OldPathCache()
            for names in (*views, *reversed(views)):
                observed = {k: x for k, x in seen.items() if k in names}
                kw: dict[str, Any] = {"budget": 400, "chance_from": ChanceReader(observed)}
                got = new.explain(cache, st, observed, **kw)
                want = old_explain(shadow, st, observed, **kw)
                assert (got.matches, got.cut, got.nodes) == (want.matches, want.cut, want.nodes)
                compared += 1
    assert compared > 500


def test_the_piece_zones_follow_the_figures_that_moved() -> None:
    states = [st for seed in (2, 4) for st, _a in game_states(seed)]
    for before, after in itertools.pairwise(states[::3]):
        got = new.moved_pieces(piece_regions(before), before.members, after.members)
        assert got == piece_regions(after)
