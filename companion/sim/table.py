"""A simulated table: a game played by people, seen through a named sensor setup.

The true game (a record, or random legal play) moves the pieces of a simulated table; the
sensors of the setup report what they see as observations, in simulated time (nothing
sleeps). The real :class:`Reconciler` reads them and submits to a :class:`SimLink`, which
checks every submitted action against the truth. The players answer a prompt (with the
truth, or "none of these" when it is not there), put the board right after a discrepancy,
and enter on the tablet what no sensor saw, so every game reaches its end.

Setups (``SETUPS``): ``pad`` (the tap pad only), ``hub`` (tag readers under each farm, at
the black bag's mouth, on each council level and church window), ``camera`` (what the
product's camera emits, ``companion/sensors/camera.py``: the cubes on the action spaces
and the farms' supplies, the time and prestige markers, figures by colour in every zone
the camera's layout covers, grain, coins and goods on the farms), ``hub+camera``, and
``camera-ideal`` (every region on the board and the farms, figures by member and goods
included, no misread: for comparison). The tap pad is on the table in
every setup: members are tapped when the engine asks which member dies or is bought out,
and in ``pad`` for every action that names a member.

Noise (``NOISE``): the behaviour of people and devices, each rate in ``Noise`` with its
source in ``docs/sensing.md``; ``ordinary`` is a table as it is, ``heavy`` multiplies the
rates by 3, ``none`` is ideal (every move alone, 5 s apart, read perfectly). The camera's
misread rates are read from ``docs/vision-bench.json`` (what ``companion vision-bench``
measures), row ``CAMERA_CONDITION`` (the real-table renders, not the ideal renderer), so
the bench follows the real pipeline as it improves.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from companion import village as v
from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    ItemCounts,
    MarkerCell,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    ZoneSnapshot,
)
from companion.reconcile.observed import colour_of
from companion.reconcile.reconciler import Discrepancy, Prompt, Proposal, Reconciler, Refused
from companion.village import zones
from companion.village.picture import CUBE_ORDER, ITEM_ORDER, RegionValue, picture
from companion.village.vocabulary import is_member

SETUPS = ("pad", "hub", "camera", "hub+camera", "camera-ideal")
FRAME = 0.2  # seconds between camera frames (a 5 fps camera)
MOVE = 5.0  # seconds from one move to the next at noise "none"
MEMBER_TYPES = frozenset(
    {"train", "travel", "church", "council_enter", "council_advance", "recall", "church_move"}
)
VISION_BENCH = Path(__file__).resolve().parents[2] / "docs" / "vision-bench.json"
# ``companion vision-bench`` of docs/vision.md, when the file is not beside the package
VISION_ACCURACY = {"ordinary": 0.9975, "hands": 0.9856, "real-ordinary": 0.8438}
# The vision bench's row the simulated product camera misreads at: the real-table renders
# (lens distortion, printed artwork, 3-D cubes lit from one side, JPEG), calibrated as the
# docs say. The ideal renderer's row ("ordinary") shares the reader's assumptions and
# flatters it (figures and items 100 % there, 98 % and 69 % on the real-table renders).
CAMERA_CONDITION = "real-ordinary"


def vision_kind_accuracy(kind: str, condition: str = CAMERA_CONDITION) -> float:
    """The vision bench's accuracy for one kind of reading (``figures``: figures by colour
    in a zone; ``items``: a farm's grain, coins and goods) under ``condition``, from
    ``docs/vision-bench.json``'s ``accuracy_by_kind``; the cubes-and-tracks accuracy when
    the file has no such row."""
    try:
        got = json.loads(VISION_BENCH.read_text())["accuracy_by_kind"][condition][kind]
        return float(got)
    except (OSError, ValueError, KeyError, TypeError):
        return vision_accuracy().get(condition, VISION_ACCURACY[CAMERA_CONDITION])


def vision_accuracy() -> dict[str, float]:
    """Per-region accuracy of the real camera pipeline by condition, from
    ``docs/vision-bench.json`` (``companion vision-bench --json``); the figures of
    docs/vision.md when the file is not there."""
    try:
        got = json.loads(VISION_BENCH.read_text())["accuracy"]
        return {k: float(x) for k, x in got.items()}
    except (OSError, ValueError, KeyError, TypeError):
        return dict(VISION_ACCURACY)


@dataclass(frozen=True)
class Noise:
    """What people and devices do; rates are per event named, sources in docs/sensing.md."""

    miss: float = 0.0  # a read made late: a camera region at the next frame, a tag a poll on
    dup: float = 0.0  # a read duplicated
    slide: float = 0.0  # a tag read by a neighbouring reader on its way (per arrival)
    batch: float = 0.0  # two actions made before the sensors settle (per move)
    hands: bool = False  # a hand over the moved regions during every move (0.6 s)
    knocks: int = 0  # cubes knocked off an action space per game
    lost: float = 0.0  # a tag's arrival never read (put at the field's edge), per arrival
    dropout: float = 0.0  # a still tag drops out of its reader for 0.2-2 s, per move
    unenrolled: float = 0.0  # a tag nobody enrolled, per figure and game
    misread: float = 0.0  # times the vision bench's per-region error, per region read
    shadows: int = 0  # a region misread for 0.6-1.5 s (light, a shadow), per game
    bumps: int = 0  # a bumped board: 3 regions misread for 0.5-2 s, per game
    steps: bool = False  # a turn's actions 0.5-2.5 s apart, train then produce in 2 steps
    early: float = 0.0  # the next player takes a cube before the current one finished
    rest: float = 0.0  # a hand rests 5.5-8 s (past the occlusion timeout), per move
    late_tap: float = 0.0  # a tap made 2-6 s late
    double_tap: float = 0.0  # a tap made twice
    wrong_tap: float = 0.0  # the wrong figure tapped first, the right one 0.5-1.5 s later
    late_answer: float = 0.0  # a prompt answered 5-15 s late (else 1-4 s)
    none_answer: float = 0.0  # a prompt holding the truth answered "none of these"
    imperfect_fix: float = 0.0  # a board put right but one thing left wrong
    turn_gap: tuple[float, float] = (MOVE, MOVE)  # seconds between two players' turns


ORDINARY = Noise(miss=0.02, dup=0.01, slide=0.10, batch=0.05, hands=True, knocks=1,
                 lost=0.01, dropout=0.02, unenrolled=0.02, misread=1.0, shadows=2, bumps=1,
                 steps=True, early=0.05, rest=0.03, late_tap=0.05, double_tap=0.05,
                 wrong_tap=0.02, late_answer=0.2, none_answer=0.03, imperfect_fix=0.2,
                 turn_gap=(4.0, 12.0))


def _heavy(n: Noise) -> Noise:
    """Every rate ×3 (capped at 1), every count ×3."""
    rates = {k: min(1.0, getattr(n, k) * 3) for k in (
        "miss", "dup", "slide", "batch", "lost", "dropout", "unenrolled", "early", "rest",
        "late_tap", "double_tap", "wrong_tap", "late_answer", "none_answer",
        "imperfect_fix")}
    return replace(n, **rates, misread=n.misread * 3, knocks=n.knocks * 3,
                   shadows=n.shadows * 3, bumps=n.bumps * 3)


NOISE = {"none": Noise(), "ordinary": ORDINARY, "heavy": _heavy(ORDINARY)}

PRODUCT_CAMERA = (zones.SPACE + ":", zones.SUPPLY + ":", zones.TIME + ":", zones.PRESTIGE + ":",
                  zones.GOODS + ":", zones.FARM + ":", zones.CRAFT + ":", zones.COUNCIL + ":",
                  zones.TRAVEL + ":", zones.CHURCH + ":", zones.CHRONICLE + ":", zones.GRAVES,
                  zones.FIRST_PLAYER + ":")


def camera_regions(st: v.GameState, ideal: bool = True) -> list[str]:
    """What a camera setup sees: the ideal camera everything on the board and the farms but
    the unborn, the black bag and the stock; the product's camera (``ideal=False``) the
    cubes on the spaces and supplies, the time and prestige markers, the figures (by
    colour) in the zones of its layout, the farms' goods and the first-player tokens
    (``first_player:<colour>`` and ``first_player:home``, ``vision/read_token.py``)."""
    names = picture(st).regions()
    if not ideal:
        return [n for n in names if n.startswith(PRODUCT_CAMERA)]
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
        if isinstance(m, str) and is_member(m) and m in st.members:
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
    answers: int = 0  # prompts answered on the tablet (a candidate, or "none of these")
    none_right: int = 0  # prompts without the truth, answered "none of these"
    acks: int = 0  # discrepancies acknowledged (the board put right, or "I will fix it")
    timings: list[float] = field(default_factory=list)
    table_timings: list[float] = field(default_factory=list)  # per table seen (all its looks)

    @property
    def touches(self) -> int:
        """Touches of the tablet: actions entered, prompts answered, discrepancies met."""
        return self.manual + self.answers + self.acks

    def add(self, other: Counts) -> None:
        for k in ("actions", "auto_correct", "auto_wrong", "prompted", "prompts",
                  "prompt_had_truth", "manual", "discrepancies", "taps", "answers",
                  "none_right", "acks"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.timings += other.timings
        self.table_timings += other.table_timings


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
        self.ideal = setup == "camera-ideal"
        self.camera = camera_regions(st, self.ideal) if "camera" in setup else []
        self.hub = hub_zones(st) if "hub" in setup else []
        self.pad_all = setup == "pad"
        self.knocked: dict[str, int] = {}  # space region → index of the colour knocked off
        self.override: dict[str, RegionValue] = {}  # a move half made (the next player early)
        self.misread: dict[str, RegionValue] = {}  # the camera reads these wrong until changed
        self.transient: list[tuple[float, float, str, RegionValue]] = []  # shadows, bumps
        self.truth = st
        self.events: list[tuple[float, Observation]] = []
        ids = self._ids(st)
        self.present = {z: ids[z] for z in self.hub}  # on each reader
        self.read = {z: frozenset[str]() for z in self.hub}  # what each reader reported
        every = sorted(set().union(*ids.values()))
        self.unenrolled = {p for p in every if rng.random() < noise.unenrolled}
        accuracy = vision_accuracy()
        self.p_misread = 0.0 if self.ideal else noise.misread * (
            1 - accuracy.get(CAMERA_CONDITION, VISION_ACCURACY[CAMERA_CONDITION]))
        # figures, goods and the first-player tokens have their own rows in the vision bench
        self.p_misread_kind = {k: 0.0 if self.ideal else noise.misread * (
            1 - vision_kind_accuracy(k)) for k in ("figures", "items", zones.FIRST_PLAYER)}
        self.shown = self._regions(st)

    # -- the physical table --------------------------------------------------------------

    def _ids(self, st: v.GameState) -> dict[str, frozenset[str]]:
        return picture(st).pieces

    def show(self, truth: v.GameState) -> None:
        """The table is now ``truth`` and every sensor sees it so (what no sensor watches
        changed: customer tiles turned up)."""
        self.truth = truth
        self.shown = self._regions(truth)

    def _regions(self, st: v.GameState) -> dict[str, RegionValue]:
        reg = picture(st).regions()
        for name, i in self.knocked.items():
            counts = list(reg[name])  # type: ignore[arg-type]
            counts[i] = max(0, counts[i] - 1)
            reg[name] = tuple(counts)
        reg.update(self.override)
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
        if not self.ideal:  # the product's camera counts figures by colour
            assert isinstance(value, tuple)
            return FigureCounts(src, t, zone=name,
                                counts=dict(Counter(colour_of(str(s)) for s in value)))
        pieces = pieces if pieces is not None else self._ids(self.truth)
        return ZoneSnapshot(src, t, zone=name, pieces=pieces[name])

    def frame(self, t: float, names: Iterable[str] | None = None, lossy: bool = True) -> None:
        """A camera frame: every region it sees (or ``names``), as the camera reads them."""
        reg = self._regions(self.truth)
        pieces = self._ids(self.truth)
        now = {name: val for t0, t1, name, val in self.transient if t0 <= t < t1}
        for name in self.camera if names is None else names:
            if name in self.camera:
                value = now.get(name, self.misread.get(name, reg[name]))
                self._send(t, self._camera_obs(t, name, value, pieces), lossy)

    def _wrong(self, value: RegionValue, name: str = "") -> RegionValue:
        """A misread of ``value``: a cube's colour taken for another or a cube miscounted;
        a marker one cell off; a first-player token seen where it is not, or not seen
        where it is (``name`` ``first_player:*``); a figure of a zone missed, or one
        counted twice."""
        if isinstance(value, int) and name.startswith(zones.FIRST_PLAYER + ":"):
            return 1 - value
        if isinstance(value, int):
            return max(0, value + self.rng.choice((-1, 1)))
        if not value or any(isinstance(x, str) for x in value):  # a piece zone
            sigs = list(value)
            if sigs and self.rng.random() < 0.5:
                sigs.pop(self.rng.randrange(len(sigs)))
            else:
                sigs.append(self.rng.choice(sigs or [f"{c.value}-1" for c in self.truth.players]))
            return tuple(sorted(sigs))
        counts = [n if isinstance(n, int) else 0 for n in value]
        full = [i for i, n in enumerate(counts) if n > 0]
        if full and self.rng.random() < 0.5:
            j = self.rng.choice(full)
            counts[j] -= 1
            counts[(j + 1 + self.rng.randrange(len(counts) - 1)) % len(counts)] += 1
        elif full and self.rng.random() < 0.5:
            counts[self.rng.choice(full)] -= 1
        else:
            counts[self.rng.randrange(len(counts))] += 1
        return tuple(counts)

    def start(self, t: float) -> None:
        """The hub replays every tag present as SEEN (no word about empty zones); the
        camera sends its first frame."""
        ids = self._ids(self.truth)
        for z in self.hub:
            self._arrive(t, z, ids[z])
        self.frame(t, lossy=False)

    def _source(self, zone: str) -> str:
        return f"hub:1/reader:{self.hub.index(zone)}"

    def _hub_obs(self, cls: type[PiecesSeen] | type[PiecesGone], t: float, zone: str,
                 pieces: frozenset[str]) -> Observation:
        known = frozenset(p for p in pieces if p not in self.unenrolled)
        unknown = frozenset(_uid(p) for p in pieces if p in self.unenrolled)
        return cls(self._source(zone), t, zone=zone, pieces=known, unknown_uids=unknown)

    def _arrive(self, t: float, zone: str, pieces: frozenset[str]) -> None:
        """Tags put on a reader: each read (at a later poll now and then) unless put
        where the field does not reach (``lost``)."""
        self.present[zone] = self.present[zone] | pieces
        read = frozenset(p for p in sorted(pieces) if self.rng.random() >= self.noise.lost)
        if read:
            self.read[zone] = self.read[zone] | read
            self._send(t, self._hub_obs(PiecesSeen, t, zone, read), False)

    def _leave(self, t: float, zone: str, pieces: frozenset[str]) -> None:
        self.present[zone] = self.present[zone] - pieces
        # a tag that had dropped out and is taken away is not read back
        self.events = [e for e in self.events if not (
            e[0] > t and isinstance(e[1], PiecesSeen) and e[1].zone == zone
            and e[1].source == self._source(zone) and e[1].pieces & pieces
            and e[1].pieces <= self.read[zone])]
        went = pieces & self.read[zone]
        if went:
            self.read[zone] = self.read[zone] - went
            self._send(t, self._hub_obs(PiecesGone, t, zone, went), False)

    def move(self, t: float, new: v.GameState, actions: list[dict[str, Any]]) -> None:
        """The players make ``actions`` (leading to ``new``, or part of the way there when
        ``actions`` is empty); the sensors see it."""
        old_reg = self.shown
        self.truth = new
        reg = self._regions(new)
        self.shown = reg
        changed = [k for k in reg if reg[k] != old_reg.get(k)]
        seen_by_camera = [k for k in changed if k in self.camera]
        hand = 0.6
        if self.noise.hands and seen_by_camera:
            if self.rng.random() < self.noise.rest:
                hand = self.rng.uniform(5.5, 8.0)
            self.events.append((t, Occluded("camera:0", t, regions=frozenset(seen_by_camera))))
            self.events.append((t + hand, Occluded("camera:0", t + hand)))
        for k in seen_by_camera:  # read once the hand has gone: the clear-view error rate
            kind = zones.split(k)[0]
            p = (self.p_misread_kind["items"] if kind == zones.GOODS
                 else self.p_misread_kind["figures"] if kind in zones.PIECE_ZONE_KINDS
                 else self.p_misread_kind[zones.FIRST_PLAYER] if kind == zones.FIRST_PLAYER
                 else self.p_misread)
            if self.rng.random() < p:
                self.misread[k] = self._wrong(reg[k], k)
            else:
                self.misread.pop(k, None)
        ids = self._ids(new)
        moved: set[str] = set()
        for z in self.hub:
            came = ids[z] - self.present[z]
            went = self.present[z] - ids[z]
            if came or went:
                moved.add(z)
            if went:
                self._leave(t + 0.1 + self._poll_delay(), z, went)
            if came:
                if self.rng.random() < self.noise.slide:
                    self._slide(t, z, came)
                self._arrive(t + 0.15 + self._poll_delay(), z, came)
        if self.hub and self.rng.random() < self.noise.dropout:
            self._dropout(t, moved)
        for a in actions:
            self._tap(t, a)

    def _tap(self, t: float, a: dict[str, Any]) -> None:
        """The pad: the figures an action names tapped (late, twice, or the wrong one
        first, now and then)."""
        at = t + 0.3
        for piece in self._taps(a):
            self.counts.taps += 1
            if self.rng.random() < self.noise.late_tap:
                at += self.rng.uniform(2.0, 6.0)
            if self.rng.random() < self.noise.wrong_tap:
                other = self._other_figure(piece)
                if other is not None:
                    self.events.append((at, _tapped(other, at)))
                    at += self.rng.uniform(0.5, 1.5)
            self.events.append((at, _tapped(piece, at)))
            if self.rng.random() < self.noise.double_tap:
                self.events.append((at + 0.6, _tapped(piece, at + 0.6)))
            at += 0.3

    def _other_figure(self, piece: str) -> str | None:
        colour = piece.split("-", 1)[0]
        others = sorted(m for m in self.truth.members if m.startswith(colour + "-")
                        and m != piece and self.truth.members[m][0] == "farm")
        return self.rng.choice(others) if others else None

    def _dropout(self, t: float, moved: set[str]) -> None:
        """A still tag drops out of its reader's field for 0.2-2 s."""
        still = [z for z in self.hub if z not in moved and self.read[z]]
        if not still:
            return
        z = self.rng.choice(still)
        piece = frozenset({self.rng.choice(sorted(self.read[z]))})
        at = t + self.rng.uniform(0.0, 1.0)
        back = at + self.rng.uniform(0.2, 2.0)
        self.events.append((at, self._hub_obs(PiecesGone, at, z, piece)))
        self.events.append((back, self._hub_obs(PiecesSeen, back, z, piece)))

    def _poll_delay(self) -> float:
        """A read missed at one poll of a tag reader is made at a later poll."""
        delay = 0.0
        while self.rng.random() < self.noise.miss:
            delay += self.rng.uniform(0.1, 0.3)
        return delay

    def _slide(self, t: float, dest: str, pieces: frozenset[str]) -> None:
        others = [z for z in self.hub if z != dest]
        z = self.rng.choice(others)
        self.events.append((t + 0.05, self._hub_obs(PiecesSeen, t + 0.05, z, pieces)))
        self.events.append((t + 0.25, self._hub_obs(PiecesGone, t + 0.25, z, pieces)))

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

    def glitch(self, t: float, regions: int, low: float, high: float) -> None:
        """A shadow or a bumped board: ``regions`` camera regions misread for a while."""
        if not self.camera or self.ideal:
            return
        reg = self._regions(self.truth)
        for name in self.rng.sample(self.camera, min(regions, len(self.camera))):
            self.transient.append((t, t + self.rng.uniform(low, high), name,
                                   self._wrong(reg[name], name)))

    def put_right(self, t: float, regions: Iterable[str]) -> None:
        """The players put the board right: knocked cubes back, misread cubes nudged,
        pieces re-seated on their readers (read again); now and then one thing is left
        wrong (``imperfect_fix``)."""
        keep = self.rng.random() < self.noise.imperfect_fix
        left = dict(list(self.knocked.items())[:1]) if keep else {}
        self.knocked = left
        self.misread = dict(list(self.misread.items())[:1]) if keep and not left else {}
        self.shown = self._regions(self.truth)
        ids = self._ids(self.truth)
        for z in self.hub:
            self.present[z] = ids[z]
            if self.read[z] != ids[z]:
                gone, came = self.read[z] - ids[z], ids[z] - self.read[z]
                self.read[z] = ids[z]
                if gone:
                    self._send(t, self._hub_obs(PiecesGone, t, z, gone), False)
                if came:
                    self._send(t, self._hub_obs(PiecesSeen, t, z, came), False)
        self.frame(t, lossy=False)

    def flush(self, until: float) -> None:
        """Deliver every observation due by ``until`` to the reconciler, in time order."""
        self.events.sort(key=lambda e: e[0])
        while self.events and self.events[0][0] <= until:
            self.rec.observe(self.events.pop(0)[1])


def _tapped(piece: str, t: float) -> TagTapped:
    return TagTapped("pad:sim", t, reader="sim", uid=_uid(piece), piece=piece)


def _uid(piece: str) -> str:
    return "%014X" % (sum((i + 1) * ord(c) for i, c in enumerate(piece)) * 2654435761 % (1 << 56))


def _player(a: dict[str, Any]) -> str | None:
    p = a.get("player")
    return p if isinstance(p, str) else None


def play(header: dict[str, Any], truth: list[dict[str, Any]], setup: str, noise: Noise,
         rng: random.Random, *, settle: float = 0.5) -> Counts:
    """Play one game's true actions through the setup; return what happened to them."""
    counts = Counts()
    counts.actions = sum(1 for a in truth if a["type"] != "reveal_customers")
    link = SimLink(header, truth, counts)
    rec = Reconciler(link, settle=settle)
    sim = SimTable(setup, noise, rng, link.st, rec, counts)
    rec.covered = frozenset(sim.hub)  # the zone map: where the tag readers are
    clock = _Clock(sim, rec, link, counts, noise, rng)
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
            clock.catch_up(i)
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
        clock.catch_up(i if setup == "pad" else i - (depth - len(batch)))
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
    clock.catch_up(len(truth))
    counts.timings = rec.timings
    counts.table_timings = rec.table_timings
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
            self.counts.prompt_had_truth += self._truth_in(out) is not None
            self.todo.append((self.t + self._delay(), out))
        elif isinstance(out, Discrepancy):
            self.counts.discrepancies += 1
            self.todo.append((self.t + self._delay(), out))
        elif isinstance(out, Proposal):
            pass

    def _truth_in(self, p: Prompt) -> int | None:
        st = self.link.st
        if p.seq != self.link.n:
            return None
        for k, cand in enumerate(p.candidates):
            true = self.link.truth[p.seq: p.seq + len(cand)]
            if len(true) == len(cand) and p.seq + len(cand) <= self.done and self._same(
                    st, cand, true):
                return k
        return None

    def _respond(self, what: Any) -> None:
        """The players at the tablet: the truth picked, or "none of these" (then the action
        entered), or "nothing happened"; a discrepancy met by putting the board right
        (a second one at the same point: "I will fix the board" and the action entered)."""
        if isinstance(what, Prompt):
            if self.rec.prompt is None or self.rec.prompt.id != what.id:
                return  # closed meanwhile (the table moved on, or matched again)
            self.counts.answers += 1
            k = self._truth_in(what)
            if k is not None and self.rng.random() >= self.noise.none_answer:
                self.link.mode = "prompted"
                follow = self.rec.answer(what.id, k)  # a next step asked, perhaps
                self.link.mode = "auto"
                for out in follow:
                    if isinstance(out, Prompt):  # the same hand answers it next (assumed)
                        self.counts.prompts += 1
                        self.counts.prompt_had_truth += self._truth_in(out) is not None
                        self.todo.append((self.t + self.rng.uniform(0.5, 1.5), out))
                    else:
                        self._handle(out)
                return
            happened = self.link.n < self.done
            self.counts.none_right += k is None
            self.rec.decline(what.id, nothing_happened=not happened and what.nothing_happened)
            if happened:
                self.catch_up(self.link.n + 1)
            return
        if isinstance(what, Discrepancy):
            if self.rec.discrepancy is None or self.rec.discrepancy.id != what.id:
                return
            self.counts.acks += 1
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

    def catch_up(self, upto: int) -> None:
        """The players enter on the tablet what the sensors have not made known (only what
        has been done on the table)."""
        upto = min(upto, len(self.link.truth), self.done)
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
        from companion.sim.random_games import random_game

        game = random_game(players, rng, check=False)
        return game.header, game.actions
    if play != "purposeful":
        raise ValueError(f"unknown play {play!r}; known: {', '.join(PLAYS)}")
    from companion.sim.random_games import play_out
    from companion.village.vocabulary import Color

    header = v.make_header([c.value for c in list(Color)[:players]])
    _, actions = play_out(v.start(header), purposeful, rng)
    return header, actions


def purposeful(st: v.GameState, rng: random.Random) -> dict[str, Any]:
    """A draw made with ``rng`` at a chance step, else an action picked uniformly among
    those that do something (see `random_truth`), or among all when none does."""
    from companion.bags import draw_with_rng

    spec = v.chance_spec(st)
    if spec is not None:
        return draw_with_rng(spec, rng)
    options = v.legal_actions(st)
    useful = [o for o in options if o.type not in ("skip", "pass", "done")
              and (o.type != "well"
                   or v.pending(v.apply_unchecked(st, o)).player == st.current_color)]
    return rng.choice(useful or options).to_json()


__all__ = ["NOISE", "PLAYS", "SETUPS", "Counts", "Noise", "SimLink", "SimTable", "camera_regions",
           "equivalent", "hub_zones", "play", "random_truth", "vision_kind_accuracy"]
