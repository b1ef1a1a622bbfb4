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
States are cached per path, so a search repeated on the same state is cheap, with their
pictures computed only as far as the regions observed need (the piece zones, shared with
the parent's when no figure moved; the rest): with only the tag readers under the board,
a state costs its action and a look at where the figures stand. A child whose observed
regions are the parent's is neither dropped nor a match, as its parent was not. None of
this changes which states are computed, so a search is cut exactly where it was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import itemgetter

from companion import village as v
from companion.village import zones
from companion.village.actions import Action, Buyout, TakeCube
from companion.village.picture import (
    RegionValue,
    other_regions,
    other_regions_after,
    piece_regions,
    piece_zone_names,
    signature,
)
from companion.village.vocabulary import MemberId, Space

Path = tuple[Action, ...]
ChanceFrom = Callable[[v.GameState], list[Action]]  # the legal outcomes the table shows

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


class Node:
    """A state reached by a path, with its picture computed in two parts only when asked
    (the search compares only the regions observed): the piece zones (shared with the
    parent's when no figure moved) and the other regions."""

    __slots__ = ("_others", "_pieces", "parent", "state")

    def __init__(self, state: v.GameState, parent: Node | None) -> None:
        self.state = state
        self.parent = parent
        self._pieces: dict[str, RegionValue] | None = None
        self._others: dict[str, RegionValue] | None = None

    def pieces(self) -> dict[str, RegionValue]:
        if self._pieces is None:
            up = self.parent
            if up is None or up._pieces is None:
                self._pieces = piece_regions(self.state)
            elif up.state.members == self.state.members:
                self._pieces = up._pieces  # the same object: no figure moved
            else:
                self._pieces = moved_pieces(up._pieces, up.state.members, self.state.members)
        return self._pieces

    def others(self) -> dict[str, RegionValue]:
        if self._others is None:
            up = self.parent
            if up is None or up._others is None:
                self._others = other_regions(self.state)
            else:  # from the parent's: only what the action changed is recounted
                self._others = other_regions_after(self.state, up.state, up._others)
        return self._others


def _piece_zone(member: str, loc: tuple[str, object]) -> str:
    """The piece zone of a member standing at ``loc`` (as ``piece_regions`` names it)."""
    kind, where = loc
    if kind == "grave":
        return zones.GRAVES
    if kind in ("farm", "unborn"):
        return kind + ":" + member.split("-", 1)[0]
    return kind if where is None else f"{kind}:{where}"


def moved_pieces(before: dict[str, RegionValue], was: Mapping[MemberId, tuple[str, object]],
                 now: Mapping[MemberId, tuple[str, object]]) -> dict[str, RegionValue]:
    """``piece_regions`` of a state whose members stand at ``now``, from ``before``, those
    of a state whose members stood at ``was``: only the zones a figure left or entered
    are recomputed."""
    out = dict(before)
    changed: dict[str, list[str]] = {}
    for member, loc in was.items() - now.items():
        z = _piece_zone(member, loc)
        sigs = changed.setdefault(z, list(out[z]))  # type: ignore[arg-type]
        sigs.remove(member[:-1])
    for member, loc in now.items() - was.items():
        z = _piece_zone(member, loc)
        changed.setdefault(z, list(out[z])).append(member[:-1])  # type: ignore[arg-type]
    for z, sigs in changed.items():
        out[z] = tuple(sorted(sigs))
    return out


class PathCache:
    """States (and their pictures, as far as computed) by path from one root state
    (cleared when the root changes)."""

    def __init__(self) -> None:
        self.root: v.GameState | None = None
        self.base: dict[str, RegionValue] = {}
        self.nodes: dict[Path, Node] = {}
        self.children: dict[Path, list[Action]] = {}

    def reset(self, root: v.GameState) -> None:
        if root is not self.root:
            self.root = root
            node = Node(root, None)
            self.base = {**node.pieces(), **node.others()}
            self.nodes = {(): node}
            self.children = {}

    def state(self, path: Path) -> v.GameState:
        return self.nodes[path].state


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
    return signature(member), st.members.get(MemberId(member))  # None: not a member


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


def names_now(st: v.GameState, taps: Iterable[str]) -> bool:
    """True when a decision pending in ``st`` names every tapped piece (whom to buy out,
    which member dies…): taps no explanation of the table names, though the decision
    now could, say the table left something out (a coin paid, misread)."""
    return any(fits_taps(st, (a,), taps) for a in v.legal_actions(st))


REVISIT = 0.2  # the work of passing a state already computed, against computing one


def region_taker(keys: list[str]) -> Callable[[Mapping[str, RegionValue]], tuple[RegionValue, ...]]:
    """A function giving the values of ``keys`` in a picture, as a tuple (in C)."""
    if not keys:
        return lambda _reg: ()
    if len(keys) == 1:
        key = keys[0]
        return lambda reg: (reg[key],)
    return itemgetter(*keys)


class _Checks:
    """A search's comparisons on one part of a picture: ``fixed`` regions must keep their
    root value, ``diff`` regions must show the observed value and ``still`` ones the root
    value for a match (the same comparisons, region by region, as ``!=`` and ``==``)."""

    __slots__ = ("_diff", "_fixed", "_still", "diff_wanted", "fixed_root", "still_root")

    def __init__(self, fixed: list[str], diff: list[str], still: list[str],
                 base: Mapping[str, RegionValue], observed: Mapping[str, RegionValue]) -> None:
        self._fixed, self._diff = region_taker(fixed), region_taker(diff)
        self._still = region_taker(still)
        self.fixed_root = tuple(base[k] for k in fixed)
        self.diff_wanted = tuple(observed[k] for k in diff)
        self.still_root = tuple(base[k] for k in still)

    def moved(self, reg: Mapping[str, RegionValue]) -> bool:
        """True when a region that may not change here did."""
        return bool(self._fixed(reg) != self.fixed_root)

    def shows(self, reg: Mapping[str, RegionValue]) -> bool:
        """True when every changed region shows its observed value, every other its root
        value."""
        return bool(self._diff(reg) == self.diff_wanted and self._still(reg) == self.still_root)


class Search:
    """One search from ``root`` for ``observed`` (see `explain`) that can stop when its
    share of work is spent and go on later from where it stopped: ``run(work)``.

    ``budget`` counts the new states of the whole search (a search that needs more is
    cut: ``SearchResult.cut``); ``work`` in `run` counts new states, the legal actions
    listed from a state (1 each) and, at `REVISIT` each, states already in the cache, so
    a look passing thousands of cached states is bounded too."""

    def __init__(self, cache: PathCache, root: v.GameState,
                 observed: Mapping[str, RegionValue], *, depth: int = 3,
                 budget: int = 3000, chance_from: ChanceFrom | None = None) -> None:
        cache.reset(root)
        self.cache, self.depth, self.budget, self.chance_from = cache, depth, budget, chance_from
        self.root = root
        self.work = 0.0  # the work done so far, over every run
        base = cache.base
        self.observed = observed = {k: val for k, val in observed.items() if k in base}
        diff = frozenset(k for k, val in observed.items() if base[k] != val)
        self.done: SearchResult | None = None
        if not diff:
            self.done = SearchResult([()], 0, False)
            return
        colours = involved(base, observed, diff)
        # regions a path may change on its way: the changed ones, and the resources of the
        # families involved (a cube taken, then paid), or any region nobody observes
        allowed = set(diff) | {k for k in base if k not in observed}
        allowed |= {k for k in observed if _elastic(k) and (
            not k.startswith(_COLOURED) or zones.split(k)[1] in colours)}
        # a figure may pass through a zone (onto the council, then dead at the turn's end)
        allowed |= {k for k in observed if zones.split(k)[0] in zones.PIECE_ZONE_KINDS}
        # Only observed regions are ever compared: a path is dropped when an observed
        # region not allowed to change did, and matches when every changed region shows
        # its observed value while every other observed region is back to (or still at)
        # its root value.
        piece_names = set(piece_zone_names(root))
        self.seen_pieces = any(k in piece_names for k in observed)
        self.seen_others = any(k not in piece_names for k in observed)
        fixed = [k for k in observed if k not in allowed]
        still = [k for k in observed if k not in diff]  # settle and fixed: root value
        # each check compares one tuple of regions with the tuple wanted, per part of the
        # picture (piece zones, the rest): no merged picture per state
        self.checks = {part: _Checks([k for k in fixed if (k in piece_names) == part],
                                     [k for k in diff if (k in piece_names) == part],
                                     [k for k in still if (k in piece_names) == part],
                                     base, observed)
                       for part in (True, False)}
        # a take from a space observed unchanged is never tried
        skipped = {k for k in observed if k.startswith(zones.SPACE + ":") and k not in diff}
        self.skip_takes = frozenset(s for s in Space if zones.space(s) in skipped)
        self.nodes = 0
        self.level = 0
        self.frontier: list[Path] = [()]
        self.at = 0  # the next path of the frontier to expand
        self.nxt: list[Path] = []
        self.matches: list[Path] = []

    def run(self, work: float = float("inf")) -> SearchResult | None:
        """Go on for about ``work`` (see the class docstring): the result when the search
        is over (complete, or cut by its budget), None when the work ran out first (call
        again). Never raises for a state the engine made."""
        if self.done is not None:
            return self.done
        cache = self.cache
        on_pieces, on_others = self.checks[True], self.checks[False]
        seen_pieces = self.seen_pieces
        spent = 0.0
        while self.level < self.depth:
            while self.at < len(self.frontier):
                if spent >= work:
                    self.work += spent
                    return None
                path = self.frontier[self.at]
                parent = cache.nodes[path]
                state = parent.state
                kids = cache.children.get(path)
                if kids is None:
                    kids = _options(state, self.chance_from)
                    spent += 1  # the legal actions cost about what a new state costs
                    if not v.is_chance(state):  # a chance outcome depends on what is seen
                        cache.children[path] = kids
                nxt: list[Path] = []
                matches: list[Path] = []
                for action in kids:
                    if isinstance(action, TakeCube) and action.space in self.skip_takes:
                        continue
                    child = (*path, action)
                    node = cache.nodes.get(child)
                    if node is None:
                        if self.nodes >= self.budget:
                            self.work += spent
                            self.done = SearchResult(self.matches + matches, self.nodes,
                                                     True)
                            return self.done
                        self.nodes += 1
                        spent += 1
                        node = cache.nodes[child] = Node(v.apply_unchecked(state, action),
                                                         parent)
                    else:
                        spent += REVISIT
                    # a parent in the frontier was allowed and did not match: a child
                    # showing the same observed regions is allowed and does not match
                    if self.seen_others:
                        others = node.others()
                        pieces = node.pieces() if seen_pieces else None
                    elif node.pieces() is parent.pieces():
                        if node.state.phase != "over":
                            nxt.append(child)
                        continue
                    else:
                        others, pieces = None, node.pieces()
                    if (others is not None and on_others.moved(others)) or (
                            pieces is not None and on_pieces.moved(pieces)):
                        continue
                    if (others is None or on_others.shows(others)) and (
                            pieces is None or on_pieces.shows(pieces)):
                        matches.append(child)
                    elif node.state.phase != "over":
                        nxt.append(child)
                # a path's children are taken in whole (a stop inside would count some twice)
                self.nxt += nxt
                self.matches += matches
                self.at += 1
            self.frontier, self.nxt, self.at = self.nxt, [], 0
            self.level += 1
        self.work += spent
        self.done = SearchResult(self.matches, self.nodes, False)
        return self.done


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
    observed (none extending another), in one go (`Search` for one that can stop and go
    on). Never raises for a state the engine made."""
    result = Search(cache, root, observed, depth=depth, budget=budget,
                    chance_from=chance_from).run()
    assert result is not None
    return result


def _options(st: v.GameState, chance_from: ChanceFrom | None) -> list[Action]:
    if v.is_chance(st):
        if chance_from is None:
            return []
        return chance_from(st)
    return v.legal_actions(st)


__all__ = [
    "REVISIT",
    "Node",
    "PathCache",
    "Search",
    "SearchResult",
    "explain",
    "fits_taps",
    "member_signatures",
    "names_now",
    "region_taker",
]
