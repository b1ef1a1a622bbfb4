"""The search: which sequences of legal actions turn the engine's table into the one seen.

Breadth first, up to ``depth`` actions (the engine's automatic consequences come with each
action: deaths without choice, market refills, mass steps). Chance points are crossed only
with the outcome the sensors saw (``chance_from``: a green bag drawn by hand read from the
action spaces as ``fill_bag``, figures out of the black bag as ``mass_draw``); otherwise
the path stops there. Every matching path is returned, but none is extended: a match
followed by actions nobody sees (a skip, a pass) is not another explanation, whereas a
longer path that differs earlier is (a well used for the market, then a pass nobody sees,
against a well used for a space with nothing to do).

Pruning with the difference: a take from a space whose cubes did not change is never
tried, and a path that changed a region which only moves one way within a turn (action
spaces, time and prestige, a family's resources when nothing of that family changed) but
whose observed value did not change is dropped.
Pictures are cached per path, so a search repeated on the same state is cheap.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from companion import village as v
from companion.village import zones
from companion.village.actions import Action, Buyout, TakeCube
from companion.village.picture import RegionValue, regions_of, signature

Path = tuple[Action, ...]
ChanceFrom = Callable[[v.GameState], Action | None]

# Regions that may change and change back within a few actions (resources).
_ELASTIC = (zones.SUPPLY + ":", zones.STOCK, zones.GOODS + ":", zones.GREEN_BAG)


@dataclass
class SearchResult:
    """``matches``: the paths whose picture matches, none extending another (``[()]`` when the table
    already matches); ``nodes``: states computed (not from the cache); ``cut``: the
    budget ran out before the search was complete."""

    matches: list[Path]
    nodes: int
    cut: bool


class PathCache:
    """States, pictures and changed regions by path from one root state (cleared when the
    root changes)."""

    def __init__(self) -> None:
        self.root: v.GameState | None = None
        self.nodes: dict[Path, tuple[v.GameState, dict[str, RegionValue], frozenset[str]]] = {}
        self.children: dict[Path, list[Action]] = {}

    def reset(self, root: v.GameState) -> None:
        if root is not self.root:
            self.root = root
            self.nodes = {(): (root, regions_of(root), frozenset())}
            self.children = {}

    def add(self, path: Path, state: v.GameState) -> None:
        base = self.nodes[()][1]
        reg = regions_of(state)
        self.nodes[path] = (state, reg, frozenset(k for k, x in reg.items() if base[k] != x))


_COLOURED = (zones.SUPPLY, zones.GOODS)


def _elastic(name: str) -> bool:
    return name.startswith(_ELASTIC)


def involved(base: Mapping[str, RegionValue], observed: Mapping[str, RegionValue],
             diff: Iterable[str]) -> set[str]:
    """Colours with something changed on the table: their figures or their farm."""
    out: set[str] = set()
    for k in diff:
        kind, detail = zones.split(k)
        if kind in (zones.FARM, zones.UNBORN, zones.SUPPLY, zones.GOODS, zones.TIME,
                    zones.PRESTIGE) and detail:
            out.add(detail)
        a, b = base[k], observed[k]
        if isinstance(a, tuple) and isinstance(b, tuple):
            for sig in set(a) ^ set(b):
                if isinstance(sig, str):
                    out.add(sig.split("-", 1)[0])
    return out


def member_signatures(action: Action) -> list[str]:
    """Signatures of the members an action names."""
    if isinstance(action, Buyout):
        return [signature(m) for m in action.members]
    member = getattr(action, "member", None)
    return [signature(member)] if isinstance(member, str) else []


def _figure(st: v.GameState, member: str) -> tuple[str, object]:
    """What tells a figure apart for the rules: its signature and where it stands."""
    return signature(member), st.members.get(member)


def fits_taps(st: v.GameState, path: Path, taps: Iterable[str]) -> bool:
    """True when every tapped piece is (interchangeable with) a member the path names,
    places taken in ``st``, the state the path starts from."""
    named = []
    for a in path:
        if isinstance(a, Buyout):
            named += [_figure(st, m) for m in a.members]
        elif isinstance(getattr(a, "member", None), str):
            named.append(_figure(st, a.member))  # type: ignore[attr-defined]
    for piece in taps:
        fig = _figure(st, piece)
        if fig in named:
            named.remove(fig)
        else:
            return False
    return True


def explain(
    cache: PathCache,
    root: v.GameState,
    observed: Mapping[str, RegionValue],
    *,
    depth: int = 3,
    budget: int = 3000,
    chance_from: ChanceFrom | None = None,
) -> SearchResult:
    """The action paths from ``root`` whose picture equals ``observed`` on every region
    observed (none extending another). Never raises for a state the engine made."""
    cache.reset(root)
    base = cache.nodes[()][1]
    observed = {k: val for k, val in observed.items() if k in base}
    diff = frozenset(k for k, val in observed.items() if base[k] != val)
    if not diff:
        return SearchResult([()], 0, False)
    colours = involved(base, observed, diff)
    # regions a path may change on its way: the changed ones, and the resources of the
    # families involved (a cube taken, then paid), or any region nobody observes
    allowed = set(diff) | {k for k in base if k not in observed}
    allowed |= {k for k in observed if _elastic(k) and (
        not k.startswith(_COLOURED) or zones.split(k)[1] in colours)}
    # a figure may pass through a zone (onto the council, then dead at the turn's end)
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
                if not v.is_chance(state):  # a chance outcome depends on what is seen
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


def _options(st: v.GameState, chance_from: ChanceFrom | None) -> list[Action]:
    if v.is_chance(st):
        if chance_from is None:
            return []
        action = chance_from(st)
        return [action] if action is not None and v.is_legal(st, action) else []
    return v.legal_actions(st)


__all__ = ["PathCache", "SearchResult", "explain", "fits_taps", "member_signatures"]
