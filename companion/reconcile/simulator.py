"""A simulated table: a game played by hand, seen through a named sensor setup with noise.

The true game (a record, or random legal play) moves the pieces of a simulated table; the
sensors of the setup report what they see as observations, in simulated time (nothing
sleeps). The real :class:`Reconciler` reads them and submits to a :class:`SimLink`, which
checks every submitted action against the truth. A prompt is answered with the truth, a
discrepancy by putting the board right; what no sensor sees is entered on the tablet (the
link then lags at most one action behind the truth), so every game reaches its end.

Setups (``SETUPS``): ``pad`` (the tap pad only), ``hub`` (tag readers under each farm, at
the black bag's mouth, on each council level and church window), ``camera`` (action spaces,
farms with their cubes, goods and time tracks, the main board's figures, the prestige
track), ``hub+camera``. The tap pad is on the table in every setup: members are tapped
when the engine asks which member dies or is bought out, and in ``pad`` for every action
that names a member.

Noise (``NOISE``), per level: a read missed (a camera frame region dropped, seen again at
the next frame 0.2 s later; a tag reader's read made at a later poll, 0.1-0.3 s on), a
read duplicated, a piece slid across a neighbouring reader on its
way (seen, then gone 0.2 s later), two actions made before the sensors settle, a hand over
the moved regions during every move, and cubes knocked off an action space.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion import village as v
from companion.village import zones
from companion.village.picture import CUBE_ORDER, ITEM_ORDER, RegionValue, picture

from .observations import (
    CubeCounts,
    ItemCounts,
    MarkerCell,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
)
from .reconciler import Discrepancy, Prompt, Proposal, Reconciler, Refused

SETUPS = ("pad", "hub", "camera", "hub+camera")
FRAME = 0.2  # seconds between camera frames (a 5 fps camera)
MOVE = 5.0  # seconds from one move to the next (the move, the sensors settling, a thought)
MEMBER_TYPES = frozenset(
    {"train", "travel", "church", "council_enter", "council_advance", "recall", "church_move"}
)


@dataclass(frozen=True)
class Noise:
    miss: float = 0.0  # a read missed
    dup: float = 0.0  # a read duplicated
    slide: float = 0.0  # a move slides a piece across a neighbouring reader
    batch: float = 0.0  # a move is two actions before the sensors settle
    hands: bool = False  # a hand over the moved regions during every move
    knocks: int = 0  # cubes knocked off an action space per game


NOISE = {
    "none": Noise(),
    "ordinary": Noise(0.02, 0.01, 0.10, 0.05, True, 1),
    "heavy": Noise(0.06, 0.03, 0.30, 0.15, True, 3),
}


def camera_regions(st: v.GameState) -> list[str]:
    """What the camera setup sees (everything on the board and the farms but the unborn,
    the black bag and the stock)."""
    names = picture(st).regions()
    hidden = (zones.UNBORN + ":", zones.BAG, zones.REMOVED, zones.STOCK, zones.GREEN_BAG)
    return [n for n in names if not n.startswith(hidden)]


def hub_zones(st: v.GameState) -> list[str]:
    """Where the hub's tag readers sit."""
    out = [zones.farm(c) for c in st.players] + [zones.BAG]
    out += [zones.zone(zones.COUNCIL, lvl) for lvl in range(1, 5)]
    out += [zones.zone(zones.CHURCH, w) for w in range(1, 5)]
    return out


def equivalent(st: v.GameState, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Same action up to interchangeable figures (same generation in the same place)."""
    return a == b or _norm(st, a) == _norm(st, b)


def _norm(st: v.GameState, a: dict[str, Any]) -> dict[str, Any]:
    def key(m: Any) -> Any:
        if isinstance(m, str) and m in st.members:
            return (m[:-1], st.members[m])
        return m

    out = dict(a)
    for k in ("member", "members", "figures"):
        if k in out:
            out[k] = sorted(map(str, map(key, out[k]))) if isinstance(out[k], list) else key(out[k])
    return out


@dataclass
class Counts:
    """What happened to the true actions of the games played (chance tiles excluded)."""

    actions: int = 0
    auto_correct: int = 0
    auto_wrong: int = 0
    prompted: int = 0
    prompts: int = 0
    prompt_had_truth: int = 0
    manual: int = 0
    discrepancies: int = 0
    taps: int = 0
    timings: list[float] = field(default_factory=list)

    def add(self, other: Counts) -> None:
        for k in ("actions", "auto_correct", "auto_wrong", "prompted", "prompts",
                  "prompt_had_truth", "manual", "discrepancies", "taps"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.timings += other.timings


class SimLink:
    """The reconciler's way in, over a plain engine state, checking against the truth.

    A submitted action equivalent to the true one is applied as the true one (so piece ids
    stay those of the table). A different one counts as wrong: by default the truth is
    applied instead and the submission refused (the players undo it and enter what
    happened); with ``keeps_wrong`` it stays in the game, as it would at a table where
    nobody checks, so it shows in the final state."""

    keeps_wrong = False

    def __init__(self, header: dict[str, Any], truth: list[dict[str, Any]], counts: Counts):
        self.st = v.start(header)
        self.truth = truth
        self.n = 0
        self.counts = counts
        self.mode = "auto"
        self.log: list[tuple[int, str, bool]] = []
        self.wrong: list[tuple[int, dict[str, Any], dict[str, Any]]] = []

    def state(self) -> v.GameState:
        return self.st

    def seq(self) -> int:
        return self.n

    def submit(self, action: dict[str, Any], source: str, expected_seq: int,
               observations: list[dict[str, Any]]) -> int:
        """Raises Refused (stale seq, the record is over, or — unless ``keeps_wrong`` — not
        what happened) and what `v.apply` raises for an illegal action."""
        if expected_seq != self.n:
            raise Refused(f"stale: expected {expected_seq}, at {self.n}")
        if self.n >= len(self.truth):
            raise Refused("the record is over")
        as_submitted = v.apply(self.st, action)  # raises for an illegal one, as the service
        true = self.truth[self.n]
        right = equivalent(self.st, action, true)
        if true["type"] != "reveal_customers":
            if self.mode == "auto":
                self.counts.auto_correct += right
                self.counts.auto_wrong += not right
            elif self.mode == "prompted":
                self.counts.prompted += 1
            else:
                self.counts.manual += 1
        self.log.append((self.n, self.mode, right))
        if not right:
            self.wrong.append((self.n, action, true))
        keep = not right and self.keeps_wrong
        self.st = as_submitted if keep else v.apply(self.st, true)
        self.n += 1
        if not right and not keep:
            raise Refused("not what happened: the players undo it and enter the truth")
        return self.n


class SimTable:
    """The physical table and its sensors: emits observations into the reconciler."""

    def __init__(self, setup: str, noise: Noise, rng: random.Random, st: v.GameState,
                 rec: Reconciler, counts: Counts) -> None:
        if setup not in SETUPS:
            raise ValueError(f"unknown setup {setup!r}; known: {', '.join(SETUPS)}")
        self.noise, self.rng, self.rec, self.counts = noise, rng, rec, counts
        self.camera = camera_regions(st) if "camera" in setup else []
        self.hub = hub_zones(st) if "hub" in setup else []
        self.pad_all = setup == "pad"
        self.knocked: dict[str, int] = {}  # space region → index of the colour knocked off
        self.truth = st
        self.events: list[tuple[float, Observation]] = []
        self.reader_ids = {z: self._ids(st)[z] for z in self.hub}
        self.shown = self._regions(st)

    # -- the physical table --------------------------------------------------------------

    def _ids(self, st: v.GameState) -> dict[str, frozenset[str]]:
        return picture(st).pieces

    def _regions(self, st: v.GameState) -> dict[str, RegionValue]:
        reg = picture(st).regions()
        for name, i in self.knocked.items():
            counts = list(reg[name])  # type: ignore[arg-type]
            counts[i] = max(0, counts[i] - 1)
            reg[name] = tuple(counts)
        return reg

    def _send(self, t: float, obs: Observation, lossy: bool = True) -> None:
        if lossy and self.rng.random() < self.noise.miss:
            return
        self.events.append((t, obs))
        if self.rng.random() < self.noise.dup:
            self.events.append((t + 0.05, obs))

    def _camera_obs(self, t: float, name: str, value: RegionValue,
                    pieces: dict[str, frozenset[str]] | None = None) -> Observation:
        src = "camera:0"
        kind, detail = zones.split(name)
        if kind in zones.CUBE_REGION_KINDS:
            assert isinstance(value, tuple)
            return CubeCounts(src, t, region=name,
                              counts={c.value: n for c, n in zip(CUBE_ORDER, value, strict=True)})
        if kind == zones.GOODS:
            assert isinstance(value, tuple)
            return ItemCounts(src, t, region=name,
                              counts=dict(zip(ITEM_ORDER, value, strict=True)))
        if kind == zones.TIME:
            assert isinstance(value, int) and detail
            return MarkerCell(src, t, track=name, marker=detail, cell=value)
        if kind in (zones.PRESTIGE, zones.FIRST_PLAYER):
            assert isinstance(value, int) and detail
            return MarkerCell(src, t, track=kind, marker=detail, cell=value)
        pieces = pieces if pieces is not None else self._ids(self.truth)
        return ZoneSnapshot(src, t, zone=name, pieces=pieces[name])

    def frame(self, t: float, names: Iterable[str] | None = None, lossy: bool = True) -> None:
        """A camera frame: every region it sees (or ``names``)."""
        reg = self._regions(self.truth)
        pieces = self._ids(self.truth)
        for name in self.camera if names is None else names:
            if name in self.camera:
                self._send(t, self._camera_obs(t, name, reg[name], pieces), lossy)

    def start(self, t: float) -> None:
        for i, z in enumerate(self.hub):
            self._send(t, ZoneSnapshot(f"hub:1/reader:{i}", t, zone=z,
                                       pieces=self.reader_ids[z]), lossy=False)
        self.frame(t, lossy=False)

    def move(self, t: float, new: v.GameState, actions: list[dict[str, Any]]) -> None:
        """The players make ``actions`` (leading to ``new``); the sensors see it."""
        old_reg = self.shown
        self.truth = new
        reg = self._regions(new)
        self.shown = reg
        changed = [k for k in reg if reg[k] != old_reg.get(k)]
        seen_by_camera = [k for k in changed if k in self.camera]
        if self.noise.hands and seen_by_camera:
            self.events.append((t, Occluded("camera:0", t, regions=frozenset(seen_by_camera))))
            self.events.append((t + 0.6, Occluded("camera:0", t + 0.6)))
        ids = self._ids(new)
        for i, z in enumerate(self.hub):
            src = f"hub:1/reader:{i}"
            came = ids[z] - self.reader_ids[z]
            went = self.reader_ids[z] - ids[z]
            self.reader_ids[z] = ids[z]
            if came:
                if self.rng.random() < self.noise.slide:
                    self._slide(t, z, came)
                at = t + 0.15 + self._poll_delay()
                self._send(at, PiecesSeen(src, at, zone=z, pieces=came), False)
            if went:
                at = t + 0.1 + self._poll_delay()
                self._send(at, PiecesGone(src, at, zone=z, pieces=went), False)
        for a in actions:
            for piece in self._taps(a):
                self.counts.taps += 1
                self.events.append((t + 0.3, TagTapped("pad:sim", t + 0.3, reader="sim",
                                                       uid=_uid(piece), piece=piece)))

    def _poll_delay(self) -> float:
        """A read missed at one poll of a tag reader is made at a later poll."""
        delay = 0.0
        while self.rng.random() < self.noise.miss:
            delay += self.rng.uniform(0.1, 0.3)
        return delay

    def _slide(self, t: float, dest: str, pieces: frozenset[str]) -> None:
        others = [z for z in self.hub if z != dest]
        z = self.rng.choice(others)
        src = f"hub:1/reader:{self.hub.index(z)}"
        self.events.append((t + 0.05, PiecesSeen(src, t + 0.05, zone=z, pieces=pieces)))
        self.events.append((t + 0.25, PiecesGone(src, t + 0.25, zone=z, pieces=pieces)))

    def _taps(self, a: dict[str, Any]) -> list[str]:
        if a["type"] == "die" or (self.pad_all and a["type"] in MEMBER_TYPES):
            return [a["member"]]
        if a["type"] == "buyout":
            return list(a["members"])
        return []

    def knock(self, t: float) -> bool:
        """A cube knocked off a space (seen only by a camera). True if one was."""
        reg = self._regions(self.truth)
        full = [n for n in reg if n.startswith("space:") and n not in self.knocked
                and any(reg[n])]  # type: ignore[arg-type]
        if not full or not self.camera:
            return False
        name = self.rng.choice(full)
        counts = reg[name]
        assert isinstance(counts, tuple)
        self.knocked[name] = self.rng.choice([i for i, n in enumerate(counts) if n])
        self.shown = self._regions(self.truth)
        self.frame(t, [name])
        return True

    def put_right(self, t: float, regions: Iterable[str]) -> None:
        """The players put the board right: knocked cubes back, pieces re-seated on their
        readers (read again), the camera sees it all."""
        self.knocked.clear()
        self.shown = self._regions(self.truth)
        ids = self._ids(self.truth)
        for i, z in enumerate(self.hub):
            if self.reader_ids[z] != ids[z]:
                self.reader_ids[z] = ids[z]
                self._send(t, ZoneSnapshot(f"hub:1/reader:{i}", t, zone=z, pieces=ids[z]), False)
        self.frame(t, lossy=False)

    def flush(self, until: float) -> None:
        """Deliver every observation due by ``until`` to the reconciler, in time order."""
        self.events.sort(key=lambda e: e[0])
        while self.events and self.events[0][0] <= until:
            self.rec.observe(self.events.pop(0)[1])


def _uid(piece: str) -> str:
    return "%08X" % (abs(hash(piece)) % 0xFFFFFFFF)


def play(header: dict[str, Any], truth: list[dict[str, Any]], setup: str, noise: Noise,
         rng: random.Random, *, settle: float = 0.5) -> Counts:
    """Play one game's true actions through the setup; return what happened to them."""
    counts = Counts()
    counts.actions = sum(1 for a in truth if a["type"] != "reveal_customers")
    link = SimLink(header, truth, counts)
    rec = Reconciler(link, settle=settle)
    sim = SimTable(setup, noise, rng, link.st, rec, counts)
    clock = _Clock(sim, rec, link, counts)
    sim.start(0.0)
    clock.run(MOVE)
    st = link.st
    moves = [i for i, a in enumerate(truth) if a["type"] != "reveal_customers"]
    knocks = set(rng.sample(moves, min(noise.knocks, len(moves)))) if sim.camera else set()
    depth = rec.depth
    i = 0
    while i < len(truth):
        a = truth[i]
        if a["type"] == "reveal_customers":
            clock.catch_up(i)
            link.mode = "manual"
            link.submit(a, "tablet", link.n, [])
            st = v.apply(st, a)
            sim.move(clock.t, st, [])
            i += 1
            continue
        batch = [a]
        if (rng.random() < noise.batch and i + 1 < len(truth)
                and truth[i + 1]["type"] != "reveal_customers"):
            batch.append(truth[i + 1])
        # the search looks ``depth`` actions ahead: what it could not see before is
        # entered on the tablet (the pad alone sees nothing but taps)
        clock.catch_up(i if setup == "pad" else i - (depth - len(batch)))
        for b in batch:
            st = v.apply(st, b)
        sim.move(clock.t, st, batch)
        if i in knocks:
            sim.knock(clock.t + 0.3)
        i += len(batch)
        clock.run(MOVE)
    clock.catch_up(len(truth))
    counts.timings = rec.timings
    return counts


class _Clock:
    """Simulated time: delivers observations, ticks the reconciler, answers it."""

    def __init__(self, sim: SimTable, rec: Reconciler, link: SimLink, counts: Counts) -> None:
        self.sim, self.rec, self.link, self.counts = sim, rec, link, counts
        self.t = 0.0
        self.next_frame = 0.0
        self.fixes: dict[int, int] = {}

    def run(self, seconds: float) -> None:
        end = self.t + seconds
        while self.t < end:
            self.t = round(self.t + 0.1, 6)
            if self.sim.camera and self.t >= self.next_frame:
                self.sim.frame(self.t)
                self.next_frame = self.t + FRAME
            self.sim.flush(self.t)
            self.link.mode = "auto"
            for out in self.rec.tick(self.t):
                self._handle(out)

    def _handle(self, out: Any) -> None:
        if isinstance(out, Prompt):
            self.counts.prompts += 1
            st = self.link.st
            for k, cand in enumerate(out.candidates):
                true = self.link.truth[out.seq: out.seq + len(cand)]
                if len(true) == len(cand) and self._same(st, cand, true):
                    self.counts.prompt_had_truth += 1
                    self.link.mode = "prompted"
                    self.rec.answer(out.id, k)
                    self.link.mode = "auto"
                    return
        elif isinstance(out, Discrepancy):
            self.counts.discrepancies += 1
            n = self.fixes.get(out.seq, 0)
            self.fixes[out.seq] = n + 1
            if n >= 1:  # put right already and still unexplained: enter it on the tablet
                self.rec.fix_board(out.id)
                self.catch_up(self.link.n + 1)
            self.sim.put_right(self.t + 0.5, [i["region"] for i in out.items])
        elif isinstance(out, Proposal):
            pass

    def _same(self, st: v.GameState, cand: list[dict[str, Any]],
              true: list[dict[str, Any]]) -> bool:
        for a, b in zip(cand, true, strict=True):
            if not equivalent(st, a, b):
                return False
            st = v.apply(st, b)
        return True

    def catch_up(self, upto: int) -> None:
        """The players enter on the tablet what the sensors have not made known."""
        upto = min(upto, len(self.link.truth))
        while self.link.n < upto:
            self.link.mode = "manual"
            self.link.submit(self.link.truth[self.link.n], "tablet", self.link.n, [])
        self.link.mode = "auto"
        if self.rec.prompt is not None and self.rec.prompt.seq != self.link.n:
            self.rec.prompt = None


PLAYS = ("random", "purposeful")


def random_truth(players: int, rng: random.Random,
                 play: str = "random") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A random legal game: its header and actions. ``play``: ``random`` picks uniformly
    among the legal options; ``purposeful`` picks uniformly among those that do something
    (no skip, pass or done while anything else is possible, no well used for a space
    whose action cannot be done). Raises ValueError for another ``play``."""
    if play == "random":
        from companion.simulate import random_game

        game = random_game(players, rng, check=False)
        return game.header, game.actions
    if play != "purposeful":
        raise ValueError(f"unknown play {play!r}; known: {', '.join(PLAYS)}")
    from companion.bags import draw_with_rng
    from companion.simulate import MAX_ACTIONS
    from companion.village.vocabulary import Color

    header = v.make_header([c.value for c in list(Color)[:players]])
    st = v.start(header)
    actions: list[dict[str, Any]] = []
    while st.phase != "over" and len(actions) < MAX_ACTIONS:
        spec = v.chance_spec(st)
        if spec is not None:
            a = draw_with_rng(spec, rng)
        else:
            options = v.legal_actions(st)
            useful = [o for o in options if o.type not in ("skip", "pass", "done")
                      and (o.type != "well"
                           or v.pending(v.apply_unchecked(st, o)).player == st.current_color)]
            a = rng.choice(useful or options).to_json()
        actions.append(a)
        st = v.apply(st, a)
    return header, actions


__all__ = ["NOISE", "PLAYS", "SETUPS", "Counts", "Noise", "SimLink", "SimTable", "camera_regions",
           "equivalent", "hub_zones", "play", "random_truth"]
