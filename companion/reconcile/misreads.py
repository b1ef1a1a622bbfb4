"""Camera readings that one misread explains: held as doubted, never a discrepancy the
table must acknowledge, and never the ground for a wrong action.

The product camera misreads about one changed region in ten on the real-table renders
(`docs/vision-bench.json`, ``real-ordinary``: a cube's colour taken for a neighbouring
one, a cube miscounted, a marker a cell off, a figure missed or counted twice), and the
misread stays while the region stays as it is. The rules (docs/sensing.md, "No wrong
action on a guess"):

- a region the game changed and the camera has not read right since, read one misread
  away from the game's value (the reading it made then, not a later one), is *doubted*
  and *uncertain*: left out of the comparison (it neither rules a path in nor out, and
  the players need not touch the board), its reading kept in ``doubted``; a path that
  changes a doubted region is asked, never applied (nothing seen vouches for that
  change). A region read right once and then one off while the game did not change it
  (a cube knocked off a space) is not doubted: that is a discrepancy, as before;
- a single explanation is asked, never applied, when another path the search reached
  shows what is seen on every camera region but one, read one misread from that path's
  value there, changed or not: a move may change a region and the camera misread it
  back to its old value (a figure recalled home, its old place still read with it: a
  birth explained the rest, seed 1 game 2 purposeful camera at commit 92fac03);
- when no path explains the table, each region the camera reads changed (or as before,
  under a hand: a cube taken, its space still read with it) is in turn left out of
  the comparison: the paths that then explain the rest and predict, for that region, a
  value one misread from its reading are candidates, checked by the usual doubts (a
  single one is applied only if no other misread would explain another path);
- a single explanation changing an action space no hand came near since the last commit,
  while a hand was seen over another action space it leaves as it was, waits out
  transients (``misread_wait``) and is then asked, never applied: the hand went
  elsewhere, so the change may be a shadow or a misread and the truth a move where the
  hand went (seed 5 heavy, purposeful, camera, action 396: a take from the crafts space
  read as unchanged, a shadow over the church one orange short, « takes orange from the
  church » applied);
- the hands vouch by being seen (eleventh session, narrowed in the twelfth): when the
  camera saw a hand over every camera region a single explanation changes, a doubted
  region it changes under the hand, read as it leaves it, is no doubt, unless a take of
  the same cube from another space would explain the table. A hand not seen proves
  nothing (the camera misses 4.2 % of them): a rival is not dropped for it.

A part of `Reconciler`, which holds the state these methods use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from companion import village as v
from companion.village import zones
from companion.village.actions import Buyout, MassDraw, TakeCube
from companion.village.picture import RegionValue, piece_zone_names
from companion.village.vocabulary import Space

from .chance import ChanceReader
from .observed import ByColour, ObservedTable
from .search import Node, Path, PathCache, SearchResult, region_taker

# regions the camera reads and may misread: cubes, tracks, goods, figures by colour, the
# first-player tokens (the vision bench's `first_player` row; thirteenth session)
_CAMERA_KINDS = frozenset({zones.SPACE, zones.SUPPLY, zones.TIME, zones.PRESTIGE, zones.GOODS,
                           zones.FIRST_PLAYER})


def camera_read(region: str, value: RegionValue) -> bool:
    """True when ``value`` of ``region`` is what a camera reads (not a tag reader's ids)."""
    return zones.split(region)[0] in _CAMERA_KINDS or isinstance(value, ByColour)


def one_misread(expected: RegionValue | None, seen: RegionValue) -> bool:
    """True when reading ``seen`` where ``expected`` stands is one misread: a marker a
    cell off, one count one off, or one cube of a colour read as another (a swap);
    figures by colour: one figure missed or counted twice."""
    if expected is None:
        return False
    if isinstance(seen, ByColour):
        if not isinstance(expected, tuple):
            return False
        want = dict(ByColour.of(expected))
        got = dict(seen.counts)
        return sum(abs(got.get(c, 0) - want.get(c, 0)) for c in {*want, *got}) == 1
    if isinstance(expected, int) or isinstance(seen, int):
        return isinstance(expected, int) and isinstance(seen, int) and abs(expected - seen) == 1
    if len(expected) != len(seen) or not all(
            isinstance(x, int) for x in (*expected, *seen)):
        return False
    diffs = [int(s) - int(e) for e, s in zip(expected, seen, strict=True)]
    off = sum(abs(d) for d in diffs)
    return off == 1 or (off == 2 and sum(diffs) == 0)


class _Both:
    """A node's picture read from its two parts without merging them."""

    __slots__ = ("others", "pieces")

    def __init__(self, pieces: dict[str, RegionValue], others: dict[str, RegionValue]) -> None:
        self.pieces, self.others = pieces, others

    def __getitem__(self, k: str) -> RegionValue | None:
        got = self.pieces.get(k)
        return self.others.get(k) if got is None else got


class MisreadDoubts:
    """The misread doubts of `Reconciler` (its state, declared for the type checker)."""

    if TYPE_CHECKING:
        _cache: PathCache
        _seen: dict[str, RegionValue]
        table: ObservedTable

        def _explain(self, st: v.GameState, observed: dict[str, RegionValue],
                     reader: ChanceReader) -> SearchResult: ...
        def _newborn_rivals(self, path: Path, rivals: list[Path],
                            observed: dict[str, RegionValue]) -> list[Path]: ...

    def _init_misreads(self) -> None:
        self.doubted: dict[str, RegionValue] = {}  # region → the reading held as a misread
        self._read_right: set[str] = set()  # regions read right since the game changed them
        self._game_was: dict[str, RegionValue] = {}
        self._first: dict[str, RegionValue | None] = {}  # its reading since the game changed it
        # for a reading that came after the game changed the region (the camera's next one):
        # the game's picture then, and when the reading came (`_read_this_move`)
        self._first_at: dict[str, tuple[dict[str, RegionValue], float]] = {}
        self._before: dict[str, RegionValue] = {}  # the game's value before it changed it
        self._raw_seen: dict[str, RegionValue] = {}  # the last look's readings, none left out
        # every reading of each region the looks made since the game last changed
        self._seen_since: dict[str, set[RegionValue]] = {}
        # regions read as before that the last look left out as misread back (a hand over
        # them): when the game then changes them, that reading is a misread of the change
        self._read_back: dict[str, RegionValue] = {}
        # this look's readings left out to find an explanation (`_one_read_wrong`): a
        # rival must be one misread from each of them as well (`fits_left_out`)
        self._left_out: dict[str, RegionValue] = {}
        self._stepped_on: set[Path] = set()  # this look's paths `_one_step_on` found: asked
        # the last `_rival_scan`: (the cache's nodes, what it was made of, its rivals)
        self._rival_memo: tuple[dict[Path, Node], tuple[object, ...],
                                list[tuple[Path, bool, str]]] | None = None

    def _doubt_rereads(self, observed: dict[str, RegionValue]) -> dict[str, RegionValue]:
        """``observed`` without its doubted regions (see the module docstring): they are
        uncertain, compared with nothing; sets ``doubted``. Call after the cache is reset
        to the state."""
        base = self._cache.base
        if self._game_was is not base:
            for k, b in base.items():
                if k in self._game_was and self._game_was[k] != b:
                    # the reading in hand when the game changed it if it showed a change
                    # (the move was seen by it), else the camera's next one: a later
                    # move's change, read right, is not taken for a misread of this one
                    seen = self._raw_seen.get(k)
                    self._before[k] = self._game_was[k]
                    back = seen == self._game_was[k] and self._read_back.get(k) != seen
                    self._first[k] = None if back else seen
                    self._first_at.pop(k, None)
                    if seen == b or self._fill_seen(k, self._game_was[k], b):
                        self._read_right.add(k)
                    else:
                        self._read_right.discard(k)
            self._game_was = base
            self._seen_since = {}
        self._raw_seen = observed
        for k, val in observed.items():
            self._seen_since.setdefault(k, set()).add(val)
        self._read_back = {}
        self._stepped_on = set()
        self._rival_memo = None  # a new look: its scan is made anew (and the old let go)
        doubted: dict[str, RegionValue] = {}
        for k, val in observed.items():
            if k not in base:
                continue
            # a reading of what the game showed before is the table not changed (yet, or
            # still showing a move the players undid on the tablet), not a misread of the
            # change: compared as it is (a discrepancy once it stays)
            if k in self._first and self._first[k] is None and val != self._before.get(k):
                self._first[k] = val
                self._first_at[k] = (base, max((c.since for (_s, r), c in self.table.cells.items()
                                                if r == k), default=float("inf")))
            if base[k] == val:
                self._read_right.add(k)
            # only the reading made when the game changed it: a new one (the camera read
            # it again, a hand having moved something there) is compared as it is (seed 1
            # heavy: a take read right on a region doubted before was hidden)
            elif (k not in self._read_right and self._first.get(k) == val
                  and camera_read(k, val) and one_misread(base[k], val)):
                doubted[k] = val
        self.doubted = doubted
        return {k: val for k, val in observed.items() if k not in doubted}

    def _fill_seen(self, k: str, was: RegionValue, now: RegionValue) -> bool:
        """True when action space ``k`` went from empty to ``now`` (a fill: nothing else
        lays cubes there) and a look read it as ``now`` before the game changed: the fill
        was seen right, a later reading is another move's (seed 1, action 43)."""
        return (zones.split(k)[0] == zones.SPACE and isinstance(was, tuple)
                and not any(was) and now in self._seen_since.get(k, ()))

    def _fits_left_out(self, value_of: Callable[[str], RegionValue | None]) -> bool:
        """True when a rival's value (``value_of`` a region) is the reading, or one misread
        from it, in each region this look left out to find its explanation
        (`_one_read_wrong`): the explanation needs one misread there, so a rival needs at
        most that one too, else it is further off than the two misreads
        `_two_misreads_rivals` allows (seed 1, camera, game 1, action 46: a take of another
        colour, three cubes off in the space left out, asked beside the take)."""
        return all(value_of(k) == val or one_misread(value_of(k), val)
                   for k, val in self._left_out.items())

    def _hand_elsewhere(self, path: Path, observed: dict[str, RegionValue]) -> bool:
        """True when ``path`` (a path the search reached) changes an action space no hand
        came near since the last commit, while a hand was over another action space the
        path leaves as it was: a cube is taken by a hand, and the camera saw the hand go
        elsewhere (see the module docstring; only action spaces: a hand is seen over the
        place it takes from, not always over every region a move changes, as in the
        rendered game, where it rests over the first region changed)."""
        hands = self.table.handled
        node = self._cache.nodes.get(path)
        if node is None or not any(zones.split(k)[0] == zones.SPACE for k in hands):
            return False
        base = self._cache.base
        reg = _Both(node.pieces(), node.others())
        changed = {k for k in observed if k in base and zones.split(k)[0] == zones.SPACE
                   and camera_read(k, observed[k]) and reg[k] != base[k]}
        return bool(changed - hands) and any(
            zones.split(k)[0] == zones.SPACE and k not in changed for k in hands)

    def _no_hand_seen(self, path: Path, observed: dict[str, RegionValue]) -> bool:
        """True when every region ``path`` (a path the search reached) changes is read by
        the camera alone and no hand was seen over any of them since the last commit:
        nothing moves there without a hand, so the change is a shadow or a bumped board
        (it passes) or a hand the camera missed (fourteenth session: a privilege applied
        from a shadow over the first-player marker's place; random play, seed 1, camera,
        game 0, action 268). Such a path waits out the transients, then is asked. Only
        with a camera that reports hands (it has reported one): a feed of readings alone
        says nothing of hands."""
        node = self._cache.nodes.get(path)
        if node is None or not self.table.hands_reported:
            return False
        base = self._cache.base
        reg = _Both(node.pieces(), node.others())
        changed = [k for k in observed if k in base and reg[k] != base[k]]
        if not changed or not all(camera_read(k, observed[k]) for k in changed):
            return False
        return not self.table.handled.intersection(changed)

    def _changes_doubted(self, path: Path) -> bool:
        """True when ``path`` (a path the search reached) changes a doubted region: the
        region was left out of the comparison, so nothing seen vouches for that change
        (its reading is the one made before the move: seed 7 heavy on branch s8-15, a
        take applied from a space whose old misread it made true, the real take's space
        read back as it was). Such a path is asked, never applied."""
        if path in self._stepped_on:  # its one region was read wrong: nothing vouches
            return True
        if not self.doubted:
            return False
        node = self._cache.nodes.get(path)
        if node is None:
            return True
        base = self._cache.base
        reg = _Both(node.pieces(), node.others())
        changed = [k for k in self.doubted if reg[k] != base[k]
                   and not self._read_this_move(k, reg[k])]
        return bool(changed) and not self._vouched(path, changed, reg)

    def _read_this_move(self, k: str, value: RegionValue | None) -> bool:
        """True when doubted ``k``'s reading first came after the game's last change and
        after a hand of this move (a heap unread since an earlier move changed it), and a
        path leaves ``value``, that reading, there: this move's reading, not an old misread
        the path makes true (seed 2, action 34: Red's supply read right with a take)."""
        first = self._first_at.get(k)
        hands = self.table.hand_seen
        return (first is not None and first[0] is self._cache.base and bool(hands)
                and first[1] >= min(hands.values()) and value == self.doubted[k])

    def _vouched(self, path: Path, changed: list[str], reg: _Both) -> bool:
        """True when the hands vouch for ``path``'s change of the doubted regions
        ``changed``: the camera saw a hand over every camera region it changes, those
        included, and reads there exactly what it leaves (the old misread come true: a
        hand moved something there, and the camera read it anew); and a take of the same
        cube from another space read back as it was (`_taken_elsewhere`) would need a
        hand where none came (eleventh session)."""
        saw = self._hands_saw(path, self._seen)
        if saw is None or any(k not in saw or reg[k] != self.doubted[k] for k in changed):
            return False
        # a take of the same cube from another space read back as it was: a hand not seen
        # there is no proof that none came (a missed hand), so it is asked
        return not self._taken_elsewhere(path, self._seen)

    def _taken_elsewhere(self, path: Path, observed: dict[str, RegionValue]) -> list[Path]:
        """For a path taking a cube from a doubted space: the same path with that cube
        taken from another space whose reading shows no change, when it is legal and
        shows ``observed`` on every other region (that space read back as it was after
        the take: the truth of the wrong actions of seed 7 heavy on branch s8-15). They
        are asked with it, so the prompt holds the truth either way (they are not in the
        path cache: nothing after this looks them up there)."""
        if not self.doubted:
            return []
        base = self._cache.base
        out: list[Path] = []
        for i, step in enumerate(path):
            if not (isinstance(step, TakeCube) and zones.space(step.space) in self.doubted):
                continue
            for sp in Space:
                other = zones.space(sp)
                if sp == step.space or observed.get(other) != base.get(other):
                    continue
                rival = (*path[:i], replace(step, space=sp), *path[i + 1:])
                node = self._node_of(rival)
                if node is None:
                    continue
                reg = _Both(node.pieces(), node.others())
                if all(reg[k] == val for k, val in observed.items() if k != other):
                    out.append(rival)
        return out

    def _node_of(self, path: Path) -> Node | None:
        """The state ``path`` leads to: the search's (the cache), else computed beside it
        (never into the cache: the search's count of states computed, and so where it is
        cut, stays its own); None when a step is illegal."""
        cache = self._cache
        if path in cache.nodes:
            return cache.nodes[path]
        node = cache.nodes[()]
        for i in range(1, len(path) + 1):
            known = cache.nodes.get(path[:i])
            if known is not None:
                node = known
                continue
            if not v.is_legal(node.state, path[i - 1]):
                return None
            node = Node(v.apply_unchecked(node.state, path[i - 1]), node)
        return node

    def _misread_rivals(self, path: Path, observed: dict[str, RegionValue]) -> list[Path]:
        """Other explanations of the table were one camera region read one misread off
        (a cube's colour or count, a marker a cell off, a figure missed or counted twice,
        the region changed or read as unchanged): the paths the search reached (the
        cache) that show ``observed`` on every region but one camera region, whose
        reading is one misread from their value there, a region they change (the camera
        reads a region anew when a hand changed it); none prefixing or extending
        ``path`` (a move more or less, not a rival). In the regions this look left out to
        find ``path`` (`_one_read_wrong`), a rival must show the reading or one misread
        from it too (`_fits_left_out`: else it needs more misreads than the rule for two
        allows; thirteenth session). One pass over the states computed, shared by every
        path asked about in the same look (`_rival_scan`), no new search: a single
        explanation with such a rival is asked with it."""
        # a buy-out naming figures: its payment is seen by the camera alone, and a figure's
        # way from the bag to the church is a mass draw's as well; the payment may be a
        # misread of goods no hand touched (random play, seed 1, hub+camera, game 2,
        # action 37: « buys yellow-1a out » applied, nobody bought, the mass drew it)
        paid = any(isinstance(a, Buyout) and a.members for a in path)
        # a first-player marker's place a hand came near is read anew when it leaves, and
        # may be misread then though nothing changed there: a place read empty or taken is
        # a move (a privilege) wherever a misread puts it (hub+camera, heavy, random play,
        # seed 5, action 84: « Blue takes privilege 1 » applied from the marker's place
        # read empty after a hand over the council space; Blue had done nothing more)
        hands = {k for k in self.table.came_near if zones.split(k)[0] == zones.FIRST_PLAYER}
        out: list[Path] = []
        for m, changes, off in self._rival_scan(observed):
            n = min(len(m), len(path))
            if m[:n] != path[:n] and (changes or paid or off in hands):
                out.append(m)
        # a rival bringing home a figure where the farm's reader read a newborn's tag
        # needs a lost read as well (newborns.py)
        return self._newborn_rivals(path, out, observed)

    def _rival_scan(self, observed: dict[str, RegionValue]) -> list[tuple[Path, bool, str]]:
        """The paths of the cache that show ``observed`` but for one camera region, read
        one misread from their value there, with whether they change that region or make
        a doubt come true, and that region (what `_misread_rivals` asks of a rival whatever
        the path). Within a look, the last scan again while the cache, ``observed``,
        ``doubted`` and the regions left out are the same (the cache only grows: a path
        added makes a new scan); each look scans anew (`_doubt_rereads`)."""
        nodes = self._cache.nodes
        key = (len(nodes), tuple(observed.items()), tuple(self.doubted.items()),
               tuple(self._left_out.items()))
        memo = self._rival_memo
        if memo is not None and memo[0] is nodes and memo[1] == key:
            return memo[2]
        found = self._scan_rivals(observed)
        self._rival_memo = (nodes, key, found)
        return found

    def _scan_rivals(self, observed: dict[str, RegionValue]) -> list[tuple[Path, bool, str]]:
        """`_rival_scan` without the memo: one pass over the states computed."""
        base = self._cache.base
        doubted = {k: val for k, val in self.doubted.items() if k in base}
        keys = [k for k in observed if k in base]
        soft = [k for k in keys if camera_read(k, observed[k])]
        if not soft:  # no camera region to be misread (the tag readers alone): no rival
            return []
        hard = [k for k in keys if not camera_read(k, observed[k])]
        # the regions that changed first: most states differ there, and are passed at once
        soft.sort(key=lambda k: base[k] == observed[k])
        # the parts of a state's picture the search compared (computed already)
        pieces = set(piece_zone_names(self._cache.nodes[()].state))
        near = self._left_out  # the regions left out to find the explanation
        need_p = any(k in pieces for k in (*keys, *doubted, *near))
        need_o = any(k not in pieces for k in (*keys, *doubted, *near))
        # the tag readers' regions, compared as one tuple per part of the picture
        hard_p = region_taker([k for k in hard if k in pieces])
        hard_o = region_taker([k for k in hard if k not in pieces])
        want_p = tuple(observed[k] for k in hard if k in pieces)
        want_o = tuple(observed[k] for k in hard if k not in pieces)
        out: list[tuple[Path, bool, str]] = []
        for m, node in self._cache.nodes.items():
            if not m:
                continue
            if (want_p and hard_p(node.pieces()) != want_p) or (
                    want_o and hard_o(node.others()) != want_o):
                continue
            reg = _Both(node.pieces() if need_p else {}, node.others() if need_o else {})
            if not self._fits_left_out(reg.__getitem__):
                continue
            # a doubted region (left out of ``observed``) the rival changes must show its
            # reading: else the rival needs a second misread there
            if any(reg[k] != base[k] and reg[k] != val for k, val in doubted.items()):
                continue
            off: str | None = None
            for k in soft:
                if reg[k] != observed[k]:
                    if off is not None:
                        break
                    off = k
            else:
                # the camera misreads a region when it reads it anew, after a hand changed
                # it: the rival must change that region (a skip is no rival of a birth),
                # unless the rival makes a doubt come true (its reading vouches for nothing,
                # and a shadow misreads a region no hand touched: seed 8 heavy, action 352,
                # a take from the church applied while the doubted travel space's take was
                # the truth); a buy-out's payment stands in for either (`_misread_rivals`)
                if off is not None and one_misread(reg[off], observed[off]):
                    true_doubt = any(reg[k] != base[k] for k in doubted)
                    out.append((m, reg[off] != base[off] or true_doubt, off))
        return out

    def _hands_saw(self, path: Path, observed: dict[str, RegionValue],
                   ) -> frozenset[str] | None:
        """The regions a hand came near since the last commit, when the camera saw a hand
        over every camera region ``path`` (a path the search reached) changes: the camera
        saw this move's hands (`_vouched`; a rival is not dropped for a region no hand was
        seen over: the camera misses hands, twelfth session). None
        when no hand was seen, or a region ``path`` changes had none (a hand missed, the
        hands forgotten at a commit): then the hands vouch for nothing."""
        hands = self.table.handled
        node = self._cache.nodes.get(path)
        if not hands or node is None:
            return None
        base = self._cache.base
        reg = _Both(node.pieces(), node.others())
        changed = [k for k in observed if k in base and camera_read(k, observed[k])
                   and reg[k] != base[k]]
        if not changed or any(k not in hands for k in changed):
            return None
        return frozenset(hands)

    def _drawn_instead(self, path: Path, observed: dict[str, RegionValue]) -> list[Path]:
        """For a path buying figures out before a mass draw: the same path with those
        figures bought by nobody and drawn by the mass instead (added to the draw, or in
        place of a monk), when it is legal and shows ``observed`` but for at most one camera
        region read one misread off, changed by a hand or not (the coin paid seen by the
        camera alone). The chance reader reads a draw from the church's first window, so
        a drawn figure already moved on is not read as drawn and the search does not reach
        that path (random play, seed 1, hub+camera, game 2, action 37: « buys yellow-1a
        out » applied, nobody bought, the mass drew it). Asked with ``path``."""
        base = self._cache.base
        keys = [k for k in observed if k in base]
        out: list[Path] = []
        for i, step in enumerate(path):
            if not (isinstance(step, Buyout) and step.members):
                continue
            j = next((j for j in range(i + 1, len(path)) if isinstance(path[j], MassDraw)),
                     None)
            if j is None:
                continue
            draw = path[j]
            assert isinstance(draw, MassDraw)
            members = tuple(step.members)
            draws = [(*draw.figures, *members)]
            if "monk" in draw.figures:
                rest = list(draw.figures)
                for _m in members:
                    if "monk" in rest:
                        rest.remove("monk")
                draws.append((*rest, *members))
            for figures in dict.fromkeys(draws):
                rival = (*path[:i], replace(step, members=()), *path[i + 1:j],
                         replace(draw, figures=figures), *path[j + 1:])
                node = self._node_of(rival)
                if node is None:
                    continue
                reg = _Both(node.pieces(), node.others())
                off = [k for k in keys if reg[k] != observed[k]]
                if len(off) <= 1 and self._fits_left_out(reg.__getitem__) and all(
                        camera_read(k, observed[k]) and one_misread(reg[k], observed[k])
                        for k in off):
                    # kept in the cache: the prompt and the weighing look it up there
                    self._cache.nodes[rival] = node
                    out.append(rival)
        return out

    def _two_misreads_rivals(self, path: Path, observed: dict[str, RegionValue],
                             ) -> list[Path]:
        """For a single explanation found with a camera region left out (it needs one
        misread): the other paths the search reached that show ``observed`` but for at most
        two camera regions, each read one misread from their value there, changed by a hand
        or not. At ``heavy`` noise two misreads in one move happen (seed 8 heavy, action
        237: a take from the council, the council read with a cube of another colour and
        the untouched market read one short; the leave-one-out found a take from the
        market). Such a rival is asked with it. One pass over the states computed."""
        base = self._cache.base
        doubted = {k: val for k, val in self.doubted.items() if k in base}
        keys = [k for k in observed if k in base and k not in doubted]
        soft = [k for k in keys if camera_read(k, observed[k])]
        hard = [k for k in keys if not camera_read(k, observed[k])]
        out: list[Path] = []
        for m, node in self._cache.nodes.items():
            n = min(len(m), len(path))
            if not m or m[:n] == path[:n]:
                continue
            reg = _Both(node.pieces(), node.others())
            if any(reg[k] != observed[k] for k in hard):
                continue
            if any(reg[k] != base[k] and reg[k] != val for k, val in doubted.items()):
                continue
            off: list[str] = []
            for k in soft:
                if reg[k] != observed[k]:
                    off.append(k)
                    if len(off) > 2 or not one_misread(reg[k], observed[k]):
                        break
            else:
                out.append(m)
        return out

    def _one_step_on(self, path: Path, k: str, val: RegionValue,
                     seen: dict[str, RegionValue]) -> list[Path]:
        """The one-step continuations of ``path`` (a path matching ``seen``, the table with
        region ``k`` left out, but not one misread from ``k``'s reading ``val``) that change
        ``k`` to a value one misread from ``val`` and still match ``seen``: the search extends
        no matching path, so a move whose only change was misread (a harvest, the goods
        read one item off) is never reached past the path it continues (the empty one).
        Tried only where a hand came (a cube knocked off a space, no hand over it, stays a
        discrepancy), and asked, never applied (`_changes_doubted`: a knocked cube under a
        hand reads like a plague cube taken with one colour misread). Kept in the cache
        (the weighing looks them up there); none past a chance point."""
        node = self._cache.nodes[path]
        if node.state.phase in ("fill_bag", "mass_draw"):
            return []
        was = _Both(node.pieces(), node.others())[k]
        out: list[Path] = []
        for action in v.legal_actions(node.state):
            longer = (*path, action)
            child = self._node_of(longer)
            if child is None:
                continue
            reg = _Both(child.pieces(), child.others())
            if (reg[k] != was and one_misread(reg[k], val)
                    and all(reg[x] == y for x, y in seen.items())):
                self._cache.nodes.setdefault(longer, child)
                self._stepped_on.add(longer)
                out.append(longer)
        return out

    def _one_read_wrong(self, st: v.GameState, observed: dict[str, RegionValue],
                        ) -> tuple[list[Path], dict[str, RegionValue]]:
        """No path explains ``observed`` (the doubted regions already left out): the paths
        that explain it but for one camera region, read one misread from what they
        predict there (each region read changed, or read as before under a hand, left
        out in turn), and the readings to weigh them with (those regions left out; the
        ones read as before kept in ``_read_back``: once the game changes them, that
        reading is doubted). Nothing when a search was cut short."""
        base = self._cache.base
        found: dict[str, Path] = {}
        left_out: set[str] = set()
        for k in sorted(observed):
            val = observed[k]
            if k not in base or not camera_read(k, val):
                continue
            # a region read as before is left out only when a hand came near it: the move
            # may have changed it and the camera misread it back (a cube taken, the space
            # still read with it); without a hand nothing there changed
            if base[k] == val and k not in self.table.came_near:
                continue
            seen = {x: y for x, y in observed.items() if x != k}
            result = self._explain(st, seen, ChanceReader(seen))
            if result.cut:
                return [], observed
            for m in result.matches:
                node = self._cache.nodes[m]
                there = _Both(node.pieces(), node.others())[k]
                if m and (there == val or one_misread(there, val)):
                    found.setdefault(repr([a.to_json() for a in m]), m)
                    left_out.add(k)
                elif there != val and k in self.table.came_near:  # the move may go on
                    for longer in self._one_step_on(m, k, val, seen):  # past it (asked)
                        found.setdefault(repr([a.to_json() for a in longer]), longer)
                        left_out.add(k)
        self._read_back = {k: observed[k] for k in left_out if base[k] == observed[k]}
        return list(found.values()), {x: y for x, y in observed.items() if x not in left_out}
