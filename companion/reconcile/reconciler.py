"""The reconciler: settled observations in, actions, prompts and discrepancies out.

Feed it observations (:meth:`Reconciler.observe`) and the time (:meth:`Reconciler.tick`).
When everything has settled and no hand is over the table, it compares what the sensors
see with ``picture(state)`` on the regions they cover and searches the legal actions that
explain the difference (``search.explain``):

- exactly one explanation → submitted through the ``TableLink`` (a ``Proposal``);
- several (or one only a detail no sensor sees tells apart: which payment, which good) →
  a ``Prompt`` with every candidate; :meth:`answer` submits the one picked;
- none → a ``Discrepancy`` naming region, expected and seen, open until the table matches
  again or it is resolved (:meth:`resolve`, :meth:`fix_board`).

A member tapped on the pad narrows the candidates, and when the table shows nothing new
it answers a decision that names a member (who dies, trains, travels, goes to church, is
bought out): the pending one, or one an unseen step (a skip) would bring.

No wrong action is ever applied on a guess (issue 15): a path with a step no sensor sees
(a skip, a pass, a well use that left no trace) is asked, never applied on the strength
of the other steps; a move that may be the first half of a compound one (a training
whose good is produced a moment later) waits for its natural second step; a difference
no action explains waits out transients before it is raised; a tap that fits no decision
is said, not read as another one.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion import village as v
from companion.village import zones
from companion.village.actions import Buyout, FillBag
from companion.village.picture import RegionValue, regions_of
from companion.village.vocabulary import MemberId

from .answers import TableAnswers
from .asking import ask as asking
from .chance import ChanceReader, fill_change_words, fill_question
from .closing import Closing
from .disagreement import Disagreements
from .doubts import PathDoubts
from .lead import SharedLead
from .misreads import MisreadDoubts
from .newborns import Newborns
from .observations import Observation, to_json
from .observed import ByColour, ObservedTable
from .outcomes import (
    JSON,
    Closed,
    Discrepancy,
    Outcome,
    Prompt,
    Proposal,
    Refused,
    TableLink,
    UnknownOpen,
    Waiting,
    _GoOn,
)
from .search import Path, PathCache, Search, SearchResult, fits_taps, member_signatures, names_now
from .weighing import (
    TRACELESS,
    UNSEEN,
    _about_taps,
    _conflict_key,
    _continues,
    _difference,
    _figure,
    _fingerprint,
    _only_pieces,
    _source,
    _tap_may_come_late,
    _tap_paths,
    _words,
    signature_of,
)

__all__ = [
    "TRACELESS",
    "UNSEEN",
    "Closed",
    "Discrepancy",
    "Outcome",
    "Prompt",
    "Proposal",
    "Reconciler",
    "Refused",
    "TableLink",
    "UnknownOpen",
    "Waiting",
    "signature_of",
]


@dataclass
class Reconciler(TableAnswers, Closing, PathDoubts, MisreadDoubts, Disagreements,
                 SharedLead, Newborns):
    """See the module docstring. ``listener`` receives every outcome as it happens."""

    link: TableLink
    settle: float = 0.5
    tap_settle: float = 1.5
    # seconds of quiet before asking what the next move would show: longer than the 0.5-2.5 s
    # between a turn's two steps in the behaviour model (docs/sensing.md), shorter than the
    # 4-12 s between two players' turns (waiting longer, the next turns pile up unexplained)
    ask_after: float = 3.5
    # seconds of stillness before a move that may be half done is committed, per action
    # kind (train: its good is produced after the figure is placed, docs/sensing.md)
    second_step: dict[str, float] = field(default_factory=lambda: {"train": 3.5})
    unseen_wait: float = 3.0  # stillness before asking about a path with an unseen step
    discrepancy_wait: float = 3.0  # stillness before a difference nothing explains is raised
    # stillness before a region is taken as misread (misreads.py): longer than the behaviour
    # model's longest transient, a bumped board's 2 s (seed 1 heavy: a take applied from the
    # wrong space with one region left out while a bump lasted)
    misread_wait: float = 3.0
    late_tap: float = 15.0  # a tap naming a member of a proposal this recent confirms it
    # seconds after a lone tap that a tap of an earlier decision may still come (the
    # behaviour model's taps made 2-6 s late, assumed: docs/sensing.md)
    late_first_tap: float = 6.0
    covered: frozenset[str] = frozenset()  # zones a tag reader covers (the hubs' zone map)
    depth: int = 3
    budget: int = 1500  # new states per search: a search needing more is cut (and said)
    # the work of one look (`search.Search.run`: a new state or a list of legal actions 1,
    # a cached state 0.2): a search needing more goes on at the next tick from where it
    # stopped, so no look holds the thread long (docs/sensing.md "Compute per look")
    look_work: float = 200.0
    listener: Callable[[Outcome], None] | None = None
    table: ObservedTable = field(init=False)
    timings: list[float] = field(default_factory=list)  # thread CPU seconds per look
    table_timings: list[float] = field(default_factory=list)  # the same per table seen
    # thread CPU seconds per tick outside its look (settling, the checks before deciding
    # whether to look): what every tick costs even when the table has not changed
    tick_timings: list[float] = field(default_factory=list)
    prompt: Prompt | None = None
    discrepancy: Discrepancy | None = None
    waiting: Waiting | None = None
    _held: bool = False  # this look holds a half-done move (the waiting line stays)
    _cache: PathCache = field(default_factory=PathCache)
    _last: tuple[Any, ...] | None = None
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _dismissed: tuple[Any, ...] | None = None
    _waiting: bool = False  # several matches the player's next action will tell apart
    _rejected: set[tuple[int, str]] = field(default_factory=set)  # undone proposals
    _due: float | None = None  # look again then, even if nothing changed
    _declined: tuple[Any, ...] | None = None  # the look whose prompt was declined
    _recent: list[tuple[float, frozenset[str]]] = field(default_factory=list)  # applied
    _history: list[tuple[float, int, Any]] = field(default_factory=list)  # (seen, seq, members)
    _now: float = 0.0
    _look_spent: float = 0.0  # search work done in this look
    _going_on: bool = False  # the last look stopped at its share: go on at the next tick
    _searches: dict[Any, Search] = field(default_factory=dict)  # this table's, by observed
    _reader: ChanceReader = field(default_factory=lambda: ChanceReader({}))
    _seen: dict[str, RegionValue] = field(default_factory=dict)  # the last look's table
    _misread_fill: FillBag | None = None  # a green-bag fill read that the bag cannot hold
    _asked_conflicts: set[Any] = field(default_factory=set)  # disagreements asked about
    _part_asked: int | None = None  # a prompt asking only a path's unseen steps
    _asked_from: float | None = None  # `read_at` of the look that raised the prompt

    def __post_init__(self) -> None:
        self.table = ObservedTable(settle=self.settle)
        self._init_misreads()
        self._init_newborns()

    # -- input ---------------------------------------------------------------------------

    def observe(self, obs: Observation) -> None:
        self.table.observe(obs)

    def tick(self, now: float | None = None) -> list[Outcome]:
        """Settle, and if the settled table changed, reconcile. Returns the outcomes (a
        prompt whose move was entered on the tablet is closed first: closing.py)."""
        started = time.thread_time()
        looks = len(self.timings)
        try:
            now = time.monotonic() if now is None else now
            self._note_commit()
            stale = self._close_stale(self.link.seq())
            return stale + self._look(now)
        finally:
            spent = time.thread_time() - started
            if len(self.timings) > looks:
                spent -= self.timings[-1]
            self.tick_timings.append(spent)

    def _look(self, now: float) -> list[Outcome]:
        self.table.tick(now)
        if not self.table.quiet(now):
            return []
        taps = list(dict.fromkeys(self.table.tapped()))  # a figure tapped twice: once
        if taps and now - self._last_tap() < self.tap_settle:
            return []
        st, seq = self.link.state(), self.link.seq()
        self._remember(now, seq, st)
        # each tap by its time: the same figure tapped again after "nothing happened" is
        # a new question
        seen, disagreeing = self.table.look_key(now)
        key = (seq, seen, tuple((t.piece, t.t) for t in self.table.taps), disagreeing)
        ask = self._waiting and now - self.table.last_change >= self.ask_after
        due = self._due is not None and now >= self._due
        going_on = self._going_on and key == self._last
        if key == self._last and not ask and not due and not going_on:
            return []
        observed = self.table.settled(now)
        conflicts = self.table.conflicts(now)
        if not going_on:
            self._searches = {}
        self._last = key
        self._now = now
        started = time.thread_time()
        kept = (self.prompt, self.discrepancy, self.waiting, self._waiting, self._due)
        self._waiting = False
        self._due = None
        self._held = False
        self._look_spent = 0
        self._going_on = False
        try:
            out: list[Outcome] = []
            # a disagreement is asked once: while the sources keep reading what they read
            # then, the region stays out of the comparison (a move there is asked)
            fresh = {r: vals for r, vals in conflicts.items()
                     if _conflict_key(r, vals) not in self._asked_conflicts}
            if fresh and not taps:
                asked = self._disagreement(st, seq, observed, fresh)
                if asked is not None:
                    out = asked
            if not out:
                out = self._reconcile(st, seq, observed, taps, ask)
            if self.waiting is not None and not self._held:
                out += self._emit([self._close_waiting("moved on")])
            return out
        except _GoOn:  # nothing said or done: the same look goes on at the next tick
            self.prompt, self.discrepancy, self.waiting, self._waiting, self._due = kept
            self._going_on = True
            return []
        finally:
            spent = time.thread_time() - started
            self.timings.append(spent)
            if going_on and self.table_timings:
                self.table_timings[-1] += spent
            else:
                self.table_timings.append(spent)

    @property
    def going_on(self) -> bool:
        """True when the last look stopped at its share of work: tick again soon."""
        return self._going_on

    def _explain(self, st: v.GameState, observed: dict[str, RegionValue],
                 reader: ChanceReader) -> SearchResult:
        """``explain`` within this look's share of work, going on with the search this
        table started in an earlier look. Raises _GoOn when the share ran out first (the
        look goes on at the next tick). Sets ``_reader``: the chance reader it used."""
        key = tuple(sorted(observed.items()))
        search = self._searches.get(key)
        if search is None or search.root is not st or self._cache.root is not st:
            search = Search(self._cache, st, observed, depth=self.depth, budget=self.budget,
                            chance_from=reader)
            self._searches[key] = search
        before = search.work
        result = search.run(self.look_work - self._look_spent)
        self._look_spent += search.work - before
        self._reader = search.chance_from  # type: ignore[assignment]
        if result is None:
            raise _GoOn
        return result

    def _remember(self, now: float, seq: int, st: v.GameState) -> None:
        """Where the figures stood at each seq seen lately (a late tap names a figure
        that has just moved)."""
        h = self._history
        if h and h[-1][1] == seq:
            h[-1] = (now, seq, h[-1][2])
            return
        h.append((now, seq, st.members))
        while len(h) > 1 and now - h[0][0] > self.late_tap:
            h.pop(0)

    def _moved_lately(self, st: v.GameState, piece: str) -> bool:
        member = MemberId(piece)  # a sensed piece: the lookups give None if not a member
        return any(members.get(member) != st.members.get(member)
                   for t, _s, members in self._history if self._now - t <= self.late_tap)

    def _last_tap(self) -> float:
        return max((t.t for t in self.table.taps), default=float("-inf"))

    # -- the work ------------------------------------------------------------------------

    def _reconcile(self, st: v.GameState, seq: int, observed: dict[str, RegionValue],
                   taps: list[str], ask: bool = False) -> list[Outcome]:
        observed = self._doubt_rereads(self._unread_arrivals(st, observed))
        self._seen = observed
        self._left_out = {}
        result = self._explain(st, observed, ChanceReader(observed))
        reader = self._reader
        self._misread_fill = reader.impossible_fill
        if not result.matches and not result.cut and reader.variants:
            result = self._misread_fills(st, observed, reader.variants)
        # a search cut short may have missed the truth: neither act nor ask, say so
        matches = [] if result.cut else result.matches
        out: list[Outcome] = []
        still = self._now - self.table.last_change
        left_out: dict[str, RegionValue] = {}  # regions the matches were found without
        if not matches and not result.cut and still >= self.misread_wait:
            full = observed
            matches, observed = self._one_read_wrong(st, observed)  # one region misread
            left_out = {k: val for k, val in full.items() if k not in observed}
            self._left_out = left_out
            if len(matches) == 1:  # perhaps two misread: a rival needing two is asked too
                matches = matches + self._two_misreads_rivals(matches[0], full)
        if matches == [()]:
            d = self.discrepancy
            if d is not None and not (d.seq == seq and _about_taps(d)):
                out.append(self._close_discrepancy("table matches"))
            if taps:
                out += self._tap_answer(st, seq, taps, observed)
            elif self.prompt is not None:
                out.append(self._close_prompt("table matches"))
            return self._emit(out)
        if self.discrepancy is not None and matches:
            out.append(self._close_discrepancy("explained"))
        keep_taps = False
        if taps:
            fitting = [m for m in matches if fits_taps(st, m, taps)]
            keep_taps = not fitting  # the taps answer a later decision: keep them for it
            # several figures tapped (one perhaps by mistake) do not pick among members the
            # camera counts by colour only (which one trained): those stay asked (issue 16)
            by_colour = any(isinstance(x, ByColour) for x in observed.values())
            if fitting and len(taps) > 1 and by_colour:
                matches = fitting + [m for m in matches if m not in fitting]
            else:
                matches = fitting or matches
        if len(matches) == 1 and self._rejected and (
            _fingerprint(st), repr([a.to_json() for a in matches[0]])
        ) in self._rejected:
            matches = []
        unseen = (keep_taps and names_now(st, taps)) or any(  # tapped, left out: ask
            self._unseen(m, observed, left_out) or self._unread(m, observed) for m in matches)
        # a path changing a doubted (uncertain) region: asked at once, never applied (the
        # next step would not vouch for it either)
        doubt = any(self._changes_doubted(m) for m in matches)
        if doubt:
            rivals = [r for m in matches for r in self._taken_elsewhere(m, observed)]
            matches = list(dict.fromkeys(matches + rivals))
        if len(matches) == 1 and not unseen:
            matches = matches + self._other_members(matches[0], observed)
        if len(matches) == 1 and not unseen:
            matches = matches + self._one_misread_away(matches[0], observed)
        if len(matches) == 1 and not unseen:  # one region misread, changed or not
            matches = matches + self._misread_rivals(matches[0], observed)
        if len(matches) == 1 and not unseen:  # a figure bought out, or drawn at mass
            matches = matches + self._drawn_instead(matches[0], observed)
        if len(matches) == 1 and not unseen and not doubt and (
                self._hand_elsewhere(matches[0], observed)  # seen changed where no hand
                or self._no_hand_seen(matches[0], observed)):  # came (misreads.py)
            if still < self.misread_wait:  # a shadow, a bumped board: wait it out
                self._due = self.table.last_change + self.misread_wait
                return self._emit(out)
            doubt = True  # then asked, with what two misreads would explain
            matches = matches + self._two_misreads_rivals(matches[0], observed)
        if len(matches) == 1 and not unseen and not doubt:
            wait, what = self._second_step(matches[0])
            if still < wait:  # perhaps half done: wait for the second step
                self._due = self.table.last_change + wait
                out += self._hold(seq, self._said(matches[0]), what)
                return self._emit(out)
            if self._under_hand(matches[0]):  # what it changes is not seen yet: wait
                self._due = self._now + 0.5
                return self._emit(out)
            if self.prompt is not None:
                out.append(self._close_prompt("moved on"))
            kept = list(self.table.taps) if keep_taps else []
            out += self._submit([a.to_json() for a in matches[0]], seq, prompted=False)
            self.table.taps = kept + self.table.taps
            return self._emit(out)
        lead = (self._sure_lead(st, matches, observed)
                if matches and not taps and not doubt and not unseen else ())
        if lead:  # every explanation begins so: applied, the rest asked (lead.py)
            if self.prompt is not None:
                out.append(self._close_prompt("moved on"))
            out += self._submit([a.to_json() for a in lead], seq, prompted=False,
                                keep_hands=self._rest_regions(lead, matches))
            return self._emit(out)
        if matches and not doubt:  # several half done (which figure trained): the same wait
            wait, what = max(self._second_step(m) for m in matches)
            if still < wait:
                self._due = self.table.last_change + wait
                out += self._hold(seq, self._said_in_common(matches), what)
                return self._emit(out)
        if matches and not ask and not doubt and _continues(self._cache, matches):
            self._waiting = True  # e.g. the well: the space's action will show which
            out += self._hold(seq, self._said_in_common(matches),
                              "the next step, which will show which it was")
            return self._emit(out)
        if matches and unseen and still < self.unseen_wait:
            self._due = self.table.last_change + self.unseen_wait  # the player may go on
            return self._emit(out)
        if matches:
            part = (self._unseen_part(matches, observed, left_out) if unseen and not taps
                    and not self._rest_doubted(matches, observed) else matches)
            if self._last != self._declined:  # only the unseen steps asked (doubts.py)
                out.append(self._new_prompt(seq, part, maybe_nothing=_only_pieces(
                    self._cache.base, observed)))
                self._part_asked = self.prompt.id if part != matches and self.prompt else None
            return self._emit(out)
        if self._last in (self._dismissed, self._declined):
            return self._emit(out)
        if still < self.discrepancy_wait:  # a shadow, a bumped board: wait it out
            self._due = self.table.last_change + self.discrepancy_wait
            return self._emit(out)
        if self.prompt is not None:
            out.append(self._close_prompt("moved on"))
        out.append(self._new_discrepancy(st, seq, observed, result.cut))
        return self._emit(out)

    def _said(self, path: Path) -> str:
        root = self._cache.root
        return _words(root if root is not None else self.link.state(),
                      [a.to_json() for a in path])

    def _said_in_common(self, matches: list[Path]) -> str:
        """The steps every candidate starts with, in words; else whose move it is."""
        common: list[Any] = []
        for steps in zip(*matches, strict=False):
            if any(a != steps[0] for a in steps):
                break
            common.append(steps[0])
        if common:
            return self._said(tuple(common))
        who = getattr(matches[0][0], "player", None)
        return f"{str(who).capitalize()} has begun a move" if who else "A move has begun"

    def _hold(self, seq: int, seen: str, what: str) -> list[Outcome]:
        """Say that the move seen so far (``seen``, in words) waits for ``what``; once per
        move."""
        self._held = True
        words = f"{seen}: waiting for {what}"
        w = self.waiting
        if w is not None and w.seq == seq and w.words == words:
            return []
        out: list[Outcome] = [self._close_waiting("moved on")] if w is not None else []
        self.waiting = Waiting(next(self._ids), seq, words)
        return [*out, self.waiting]

    def _tap_answer(self, st: v.GameState, seq: int, taps: list[str],
                    observed: dict[str, RegionValue]) -> list[Outcome]:
        """A tap with nothing else new answers a decision naming a member: the pending one,
        or one that a step nobody sees (a skip, a pass) would bring; the first tap a
        decision naming one member (later taps wait for the next decision), all of them a
        buy-out. One fitting the pending decision alone → submitted; several → asked; none
        → said (a tap naming a member of a recent proposal confirms it, and is dropped).
        Taps that may still come, late, are waited for first (`late_first_tap`)."""
        paths = _tap_paths(st, taps, observed)
        late = all(self._moved_lately(st, p) for p in taps)  # perhaps a late tap
        # a tap fitting a decision that may be a second tap of the move just made, or that
        # may come after a late tap of the decision before: wait for the taps still to come
        last = self._last_tap()
        if self._now - last < self.late_first_tap and (
                (late and paths) or _tap_may_come_late(st, taps)):
            self._due = last + self.late_first_tap
            return []
        if not paths:
            self.table.committed(self.table.read_at())  # the taps answer nothing
            recent = set().union(*(m for t, m in self._recent if self._now - t <= self.late_tap))
            if late or all(signature_of(p) in recent for p in taps):
                return []  # a late or second tap of what was just done
            return [self._tap_discrepancy(seq, taps)]
        several = len({_figure(st, p) for p in taps}) > 1 and not any(
            isinstance(p[-1], Buyout) for _n, p in paths)  # one of them tapped by mistake
        if len(paths) == 1 and len(paths[0][1]) == 1 and not late and not several:
            used, path = paths[0]
            rest = self.table.taps[used:]
            out = self._submit([path[0].to_json()], seq, prompted=False)
            self.table.taps = rest
            return out
        if self._last == self._declined:
            return []
        return [self._new_prompt(seq, [p for _n, p in paths], maybe_nothing=True)]

    def _tap_discrepancy(self, seq: int, taps: list[str]) -> Discrepancy:
        names = ", ".join(zones.piece_words(p) for p in taps)
        them = "it" if len(taps) == 1 else "them"
        what = f"{names} tapped on the pad, but no decision names {them} now"
        self.discrepancy = Discrepancy(next(self._ids), seq, [
            {"region": "pad", "what": what, "expected": None, "seen": list(taps)}], what)
        return self.discrepancy

    def _submit(self, actions: list[JSON], seq: int, *, prompted: bool, forget: bool = True,
                hands_after: float | None = None,
                keep_hands: frozenset[str] = frozenset()) -> list[Outcome]:
        """Submit ``actions``, handing over and forgetting (``forget``) what led to them
        but the hands seen after ``hands_after`` (else this look's `read_at`) or over
        ``keep_hands``."""
        before = self.link.state()
        after = self.table.read_at() if hands_after is None else hands_after
        observations = ([to_json(o) for o in self.table.committed(after, keep_hands)]
                        if forget else [])
        source = _source(observations, prompted)
        done: list[JSON] = []
        for action in actions:
            try:
                seq = self.link.submit(action, source, seq, observations)
            except (Refused, v.RulesError):
                break  # the table moved on meanwhile: the next tick looks again
            done.append(action)
        if not done:
            return []
        self._note_commit()
        proposal = Proposal(next(self._ids), seq, done, _words(before, done), observations,
                            start=seq - len(done))
        named = frozenset(sig for a in done for sig in member_signatures(v.parse_action(a)))
        self._recent = [r for r in self._recent if self._now - r[0] <= self.late_tap]
        self._recent.append((self._now, named))
        return [proposal]

    def _new_prompt(self, seq: int, matches: list[Path], maybe_nothing: bool = False) -> Prompt:
        kinds = {m[-1].type for m in matches}
        st = self.link.state()
        read = self._misread_fill
        fills = read is not None and all(any(isinstance(a, FillBag) for a in m)
                                         for m in matches)
        asked = asking(st, matches, "Which was it?" if len(kinds) > 1
                       else "Which one exactly? (the sensors cannot tell)",
                       label=(lambda a: fill_change_words(read, a)  # type: ignore[arg-type]
                              if isinstance(a, FillBag) else None) if fills else None)
        if fills:
            asked.question = fill_question(self._reader.short)
        cands = [[a.to_json() for a in m] for m in asked.paths]
        if (self.prompt is not None and self.prompt.seq == seq
                and self.prompt.candidates == cands):
            return self.prompt
        self._asked_from = self.table.read_at()
        regions = self._changed_regions()
        self.prompt = Prompt(next(self._ids), seq, asked.question, cands, asked.words,
                             nothing_happened=maybe_nothing, choices=asked.choices,
                             shared=asked.shared,
                             changed=[zones.place_words(r) for r in regions],
                             regions=regions, stands_for=asked.stands_for)
        return self.prompt

    def _changed_regions(self) -> list[str]:
        """The regions the sensors see changed from the game's picture (last look)."""
        base, seen = self._cache.base, self._seen
        return sorted(k for k, val in seen.items() if k in base and base[k] != val)

    def _new_discrepancy(self, st: v.GameState, seq: int, observed: dict[str, RegionValue],
                         cut: bool) -> Discrepancy:
        expected = regions_of(st)
        items = [
            _difference(k, expected[k], val)
            for k, val in sorted(observed.items())
            if k in expected and expected[k] != val
        ]
        words = "; ".join(i["what"] for i in items)
        if cut:
            words = "too many ways this could have happened: enter it on the tablet; " + words
        self.discrepancy = Discrepancy(next(self._ids), seq, items, words)
        return self.discrepancy

    def _require_discrepancy(self, discrepancy_id: int) -> Discrepancy:
        d = self.discrepancy
        if d is None or d.id != discrepancy_id:
            raise UnknownOpen(f"no open discrepancy {discrepancy_id}")
        return d
