"""A simulated table: its pieces, and what a named sensor setup reports of them.

``SimTable`` holds the true game's pieces; as the true game moves them (`move`), the
sensors of the setup report what they see as observations, in simulated time (nothing
sleeps), with the behaviour of people and devices of its ``Noise``
(`companion.sim.behaviour`: late and lost reads, hands, shadows, bumps, taps…). A whole
game with people answering the reconciler is `companion.sim.table_game.play`; the link
that checks what the reconciler submits is `companion.sim.link`.

Setups (``SETUPS``): ``pad`` (the tap pad only), ``hub`` (tag readers under each farm, at
the black bag's mouth, on each council level and church window), ``camera`` (what the
product's camera emits, ``companion/sensors/camera.py``: the cubes on the action spaces
and the farms' supplies, the time and prestige markers, figures by colour in every zone
the camera's layout covers, grain, coins and goods on the farms, the first-player
tokens), ``hub+camera``, and ``camera-ideal`` (every region on the board and the farms,
figures by member and goods included, no misread: for comparison). The tap pad is on the
table in every setup: members are tapped when the engine asks which member dies or is
bought out, and in ``pad`` for every action that names a member.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
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
from companion.reconcile.reconciler import Reconciler
from companion.sim.behaviour import (
    CAMERA_CONDITION,
    VISION_ACCURACY,
    Noise,
    vision_accuracy,
    vision_kind_accuracy,
)
from companion.sim.link import Counts
from companion.village import zones
from companion.village.picture import CUBE_ORDER, ITEM_ORDER, RegionValue, picture

SETUPS = ("pad", "hub", "camera", "hub+camera", "camera-ideal")
FRAME = 0.2  # seconds between camera frames (a 5 fps camera)
MEMBER_TYPES = frozenset(
    {"train", "travel", "church", "council_enter", "council_advance", "recall", "church_move"}
)

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
        # what depends on the reconciler's outputs draws from streams of its own (frames
        # lost or doubled: how many frames a look's ticks make; a board put right: after
        # which discrepancies), so two reconcilers see the same moves, misreads and hands
        self.send_rng = random.Random(rng.random())
        self.fix_rng = random.Random(rng.random())
        # hands the camera misses: a stream seeded from the table's without drawing from
        # it, so a table with and one without missed hands make the same moves and noise
        self.hand_rng = random.Random(sum(rng.getstate()[1][:8]) + 15)
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
        if lossy and self.send_rng.random() < self.noise.miss:
            return
        self.events.append((t, obs))
        if self.send_rng.random() < self.noise.dup:
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
            # the hand over a region the camera does not see (``hand_miss``): its own
            # stream, so the moves, misreads and every other noise stay the same
            under = frozenset(k for k in seen_by_camera
                              if self.hand_rng.random() >= self.noise.hand_miss)
            if under:
                self.events.append((t, Occluded("camera:0", t, regions=under)))
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
        keep = self.fix_rng.random() < self.noise.imperfect_fix
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


__all__ = ["FRAME", "SETUPS", "SimTable", "camera_regions", "hub_zones"]
