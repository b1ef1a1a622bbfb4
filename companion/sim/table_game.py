"""A whole game at the simulated table: the true actions played by people in simulated
time, seen through a sensor setup, the real reconciler deciding, and the players
answering its prompts, putting the board right after a discrepancy and entering on the
tablet what no sensor saw (`play`). The behaviour of those people is ``Noise``
(`companion.sim.behaviour`).
"""

from __future__ import annotations

import random
from typing import Any

from companion import village as v
from companion.reconcile.asking import too_long
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler
from companion.sim.behaviour import MOVE, Noise
from companion.sim.camera_causes import TracedReconciler, prompt_cause
from companion.sim.link import Counts, SimLink, equivalent
from companion.sim.table import FRAME, SimTable
from companion.village import zones

__all__ = ["play"]


def play(header: dict[str, Any], truth: list[dict[str, Any]], setup: str, noise: Noise,
         rng: random.Random, *, settle: float = 0.5) -> Counts:
    """Play one game's true actions through the setup; return what happened to them."""
    counts = Counts()
    counts.actions = sum(1 for a in truth if a["type"] != "reveal_customers")
    link = SimLink(header, truth, counts)
    # the real reconciler, noting which of its guards fired (the touches' causes)
    rec = TracedReconciler(link, settle=settle)
    sim = SimTable(setup, noise, rng, link.st, rec, counts)
    rec.covered = frozenset(sim.hub)  # the zone map: where the tag readers are
    # the players' answers draw from their own stream (when they answer depends on what
    # the reconciler asks), so the table's moves and noise stay the same for any reconciler
    clock = _Clock(sim, rec, link, counts, noise, random.Random(rng.random()))
    sim.start(0.0)
    clock.run(MOVE)
    st = link.st
    moves = [i for i, a in enumerate(truth) if a["type"] != "reveal_customers"]
    knocks = set(rng.sample(moves, min(noise.knocks, len(moves)))) if sim.camera else set()
    glitches = rng.sample(moves, min(noise.shadows + noise.bumps, len(moves)))
    shadows = set(glitches[:noise.shadows])
    bumps = set(glitches[noise.shadows:])
    depth = rec.depth
    i = 0
    while i < len(truth):
        a = truth[i]
        if a["type"] == "reveal_customers":
            clock.to_tablet(i)
            link.mode = "manual"
            link.submit(a, "tablet", link.n, [])
            st = v.apply(st, a)
            sim.move(clock.t, st, [])
            clock.done = i + 1
            i += 1
            continue
        batch = [a]
        if (rng.random() < noise.batch and i + 1 < len(truth)
                and truth[i + 1]["type"] != "reveal_customers"):
            batch.append(truth[i + 1])
        nxt = i + len(batch)
        early = (noise.early and nxt < len(truth) and truth[nxt]["type"] == "take"
                 and _player(truth[nxt]) != _player(batch[-1])
                 and rng.random() < noise.early)
        if early:
            batch.append(truth[nxt])
        # the search looks ``depth`` actions ahead: what it could not see before is
        # entered on the tablet (the pad alone sees nothing but taps)
        clock.to_tablet(i if setup == "pad" else i - (depth - len(batch)))
        before = st
        for b in batch:
            st = v.apply(st, b)
        if early:  # the next player's cube is taken before the current player finished
            mid = before
            for b in batch[:-2]:
                mid = v.apply(mid, b)
            take = batch[-1]
            sim.override = {k: val for k, val in sim._regions(st).items()
                            if k in (zones.zone(zones.SPACE, take["space"]),
                                     zones.zone(zones.SUPPLY, take["player"]))}
            clock.done = i + len(batch) - 2  # the moves before the last two are made
            sim.move(clock.t, mid, [])
            sim.override = {}
            clock.run(rng.uniform(0.8, 2.0))
        last = batch[-2] if early else batch[-1]
        if (noise.steps and last["type"] == "train" and last.get("good")
                and rng.random() < 0.5):  # the figure placed, then the good produced
            half = before
            for b in batch[:batch.index(last)]:
                half = v.apply(half, b)
            sim.move(clock.t, v.apply(half, {**last, "good": None}), [])
            clock.run(rng.uniform(0.5, 2.5))
        clock.done = i + len(batch)
        sim.move(clock.t, st, batch)
        if i in knocks:
            sim.knock(clock.t + 0.3)
        if i in shadows:
            sim.glitch(clock.t + rng.uniform(1.0, 3.0), 1, 0.6, 1.5)
        if i in bumps:
            sim.glitch(clock.t + rng.uniform(1.0, 3.0), 3, 0.5, 2.0)
        i += len(batch)
        same = i < len(truth) and _player(truth[i]) is not None and (
            _player(truth[i]) == _player(batch[-1]))
        clock.run(rng.uniform(0.5, 2.5) if noise.steps and same
                  else rng.uniform(*noise.turn_gap))
    clock.run(MOVE)
    clock.to_tablet(len(truth))
    counts.untrue_at = sorted(clock.untrue.values())
    counts.timings = rec.timings
    counts.table_timings = rec.table_timings
    counts.tick_timings = rec.tick_timings
    return counts


class _Clock:
    """Simulated time: delivers observations, ticks the reconciler; the players answer it."""

    def __init__(self, sim: SimTable, rec: Reconciler, link: SimLink, counts: Counts,
                 noise: Noise | None = None, rng: random.Random | None = None) -> None:
        self.sim, self.rec, self.link, self.counts = sim, rec, link, counts
        self.noise = noise or Noise()
        self.rng = rng or random.Random(0)
        self.t = 0.0
        self.next_frame = 0.0
        self.fixes: dict[int, int] = {}
        self.done = 0  # true actions physically made so far
        self.todo: list[tuple[float, Any]] = []  # (when, prompt or discrepancy) to answer
        # prompts shown without the truth (id: seq), until rightly answered "none of these"
        self.untrue: dict[int, int] = {}
        self.causes: dict[int, str] = {}  # prompt id -> what made it a prompt

    def _kind(self, seq: int) -> str:
        """The type of the true action at ``seq`` (what a touch there was about)."""
        return str(self.link.truth[seq]["type"]) if seq < len(self.link.truth) else "end"

    def run(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end:
            # a tick every 0.1 s, as the runtime's; 5 ms after a look that stopped at its
            # share of search work (the runtime ticks again as soon)
            self.t = round(self.t + (0.005 if self.rec.going_on else 0.1), 6)
            if self.sim.camera and self.t >= self.next_frame:
                self.sim.frame(self.t)
                self.next_frame = self.t + FRAME
            self.sim.flush(self.t)
            self.link.mode = "auto"
            for out in self.rec.tick(self.t):
                self._handle(out)
            due = [x for x in self.todo if x[0] <= self.t]
            if due:
                self.todo = [x for x in self.todo if x[0] > self.t]
                for _when, what in due:
                    self._respond(what)

    def _delay(self) -> float:
        if self.rng.random() < self.noise.late_answer:
            return self.rng.uniform(5.0, 15.0)
        return self.rng.uniform(1.0, 4.0) if self.noise.steps else 0.0

    def _handle(self, out: Any) -> None:
        if isinstance(out, Prompt):
            self.counts.prompts += 1
            self.counts.long_prompts += too_long(out.choices or out.words)
            fired = getattr(self.rec, "fired", None)  # a traced reconciler's guards
            if fired is not None:
                self.causes[out.id] = prompt_cause(out.question, out.candidates, fired)
            self._shown(out)
            self.todo.append((self.t + self._delay(), out))
        elif isinstance(out, Discrepancy):
            self.counts.discrepancies += 1
            self.todo.append((self.t + self._delay(), out))
        elif isinstance(out, Proposal):
            pass

    def _shown(self, p: Prompt) -> None:
        if self._truth_in(p) is not None:
            self.counts.prompt_had_truth += 1
        else:
            self.untrue[p.id] = p.seq

    def _truth_in(self, p: Prompt) -> int | None:
        st = self.link.st
        if p.seq != self.link.n:
            return None
        for k, cand in enumerate(p.candidates):
            # a choice standing for several paths (a first step, or a kind of move: the
            # well for some space) holds the truth when one of them is the truth
            paths = [cand] + ([[a.to_json() for a in m] for m in p.stands_for[k]]
                              if p.stands_for and len(p.stands_for[k]) > 1 else [])
            for path in paths:
                true = self.link.truth[p.seq: p.seq + len(path)]
                if len(true) == len(path) and p.seq + len(path) <= self.done and self._same(
                        st, path, true):
                    return k
        return None

    def _respond(self, what: Any) -> None:
        """The players at the tablet: the truth picked, or "none of these" (then the action
        entered), or "nothing happened"; a discrepancy met by putting the board right
        (a second one at the same point: "I will fix the board" and the action entered)."""
        if isinstance(what, Prompt):
            p = self.rec.prompt
            if p is None or p.id != what.id or p.seq != self.link.n:
                # closed meanwhile (the table moved on, or matched again), or about a move
                # entered on the tablet since (the reconciler closes it at its next tick)
                return
            self.counts.answers += 1
            cause = self.causes.get(what.id, "several")
            self.counts.touch(self._kind(what.seq), f"prompt:{cause}")
            k = self._truth_in(what)
            if k is not None and self.rng.random() >= self.noise.none_answer:
                self.link.mode = "prompted"
                follow = self.rec.answer(what.id, k)  # a next step asked, perhaps
                self.link.mode = "auto"
                for out in follow:
                    if isinstance(out, Prompt):  # the same hand answers it next (assumed)
                        self.causes[out.id] = cause  # the next step of the same question
                        self.counts.prompts += 1
                        self.counts.long_prompts += too_long(out.choices or out.words)
                        self._shown(out)
                        self.todo.append((self.t + self.rng.uniform(0.5, 1.5), out))
                    else:
                        self._handle(out)
                return
            happened = self.link.n < self.done
            self.counts.none_right += k is None
            if k is None:
                self.untrue.pop(what.id, None)
            self.rec.decline(what.id, nothing_happened=not happened and what.nothing_happened)
            if happened:
                self.catch_up(self.link.n + 1)
            return
        if isinstance(what, Discrepancy):
            if self.rec.discrepancy is None or self.rec.discrepancy.id != what.id:
                return
            self.counts.acks += 1
            self.counts.touch(self._kind(what.seq), "discrepancy")
            n = self.fixes.get(what.seq, 0)
            self.fixes[what.seq] = n + 1
            if n >= 1:  # put right already and still unexplained: enter it on the tablet
                self.rec.fix_board(what.id)
                self.catch_up(self.link.n + 1)
            self.sim.put_right(self.t + 0.5, [i["region"] for i in what.items])

    def _same(self, st: v.GameState, cand: list[dict[str, Any]],
              true: list[dict[str, Any]]) -> bool:
        for a, b in zip(cand, true, strict=True):
            if not equivalent(st, a, b):
                return False
            st = v.apply(st, b)
        return True

    def to_tablet(self, upto: int) -> None:
        """The players go to the tablet to enter what the sensors have not made known:
        a prompt open there about the first of those moves is answered first (a family
        with a question on the tablet answers it before typing a move), then the rest
        is entered (`catch_up`)."""
        upto = min(upto, len(self.link.truth), self.done)
        for _ in range(8):  # an answer may ask a next step: the same hand answers it
            p = self.rec.prompt
            if self.link.n >= upto or p is None or p.seq != self.link.n:
                break
            self._respond(p)
            if self.rec.prompt is p:
                break
        self.catch_up(upto)

    def catch_up(self, upto: int) -> None:
        """The players enter on the tablet what the sensors have not made known (only what
        has been done on the table)."""
        upto = min(upto, len(self.link.truth), self.done)
        while self.link.n < upto:
            self.link.mode = "manual"
            self.link.submit(self.link.truth[self.link.n], "tablet", self.link.n, [])
        self.link.mode = "auto"


def _player(a: dict[str, Any]) -> str | None:
    p = a.get("player")
    return p if isinstance(p, str) else None
