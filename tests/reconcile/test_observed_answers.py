"""The observed table answers `settled`, `conflicts` and `look_key` once per change and
ticks only the cells still waiting to settle (`ObservedTable.waiting`): on random streams
of readings from tag readers and a camera, with hands coming and going, every answer
equals the one computed afresh from every cell."""

from __future__ import annotations

import random

import pytest

from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    Observation,
    Occluded,
    PiecesGone,
    PiecesSeen,
    ZoneSnapshot,
)
from companion.reconcile.observed import ObservedTable

ZONES = ("farm:red", "farm:blue", "council:1", "craft:smithy")
SPACES = ("space:market", "space:harvest", "supply:red")
MEMBERS = ("red-1a", "red-1b", "red-2a", "blue-1a", "blue-2b")


def _reading(rng: random.Random, t: float) -> Observation:
    """One random reading: a reader's arrival, departure or snapshot (unknown tags
    sometimes), a camera's cubes or figures by colour, a hand or an uncertain region."""
    kind = rng.randrange(7)
    zone = rng.choice(ZONES)
    hub = f"hub:0/reader:{ZONES.index(zone)}"
    pieces = frozenset(rng.sample(MEMBERS, rng.randrange(3)))
    unknown = frozenset({"04A1B2C3"}) if rng.random() < 0.15 else frozenset()
    if kind == 0:
        return PiecesSeen(hub, t, zone=zone, pieces=pieces, unknown_uids=unknown)
    if kind == 1:
        return PiecesGone(hub, t, zone=zone, pieces=pieces, unknown_uids=unknown)
    if kind == 2:
        return ZoneSnapshot(hub, t, zone=zone, pieces=pieces, unknown_uids=unknown)
    if kind == 3:
        return FigureCounts("camera:0", t, zone=zone,
                            counts={"red": rng.randrange(3), "blue": rng.randrange(2)})
    if kind == 4:
        return CubeCounts(rng.choice(("camera:0", "camera:1")), t,
                          region=rng.choice(SPACES), counts={"brown": rng.randrange(2)})
    hidden = frozenset(rng.sample((*ZONES, *SPACES), rng.randrange(3)))
    return Occluded("camera:0", t, regions=hidden, uncertain=kind == 6)


def _afresh(table: ObservedTable, now: float) -> tuple[object, ...]:
    """What the table would answer computed from every cell, nothing kept."""
    waiting = {k for k, c in table.cells.items() if table._pending(c)}
    hidden = table.hidden(now)
    quiet = all(source in table.unsure_sources or not regions
                or now - since >= table.occlusion_timeout
                for source, (regions, since) in table.occluded.items()) and all(
        (c.raw == c.settled and c.unknown == c.settled_unknown) or name in hidden
        for (_s, name), c in table.cells.items())
    settled = table._settled(now)
    conflicts = table._conflicts(now)
    key = (tuple(sorted(settled.items())),
           repr(sorted((r, sorted(vals.items())) for r, vals in conflicts.items())))
    return waiting, quiet, settled, conflicts, key


@pytest.mark.parametrize("seed", range(6))
def test_every_answer_equals_the_one_computed_afresh(seed: int) -> None:
    rng = random.Random(seed)
    table = ObservedTable()
    t = 0.0
    for _ in range(1500):
        t = round(t + rng.choice((0.05, 0.1, 0.3, 0.7, 3.0)), 3)
        for _ in range(rng.randrange(3)):
            table.observe(_reading(rng, t))
        if rng.random() < 0.8:
            table.tick(t)
        waiting, quiet, settled, conflicts, key = _afresh(table, t)
        assert set(table.waiting) == waiting
        assert table.quiet(t) == quiet
        assert table.settled(t) == settled
        assert table.conflicts(t) == conflicts
        assert table.look_key(t) == key


def test_the_answers_are_new_dictionaries() -> None:
    table = ObservedTable()
    table.observe(CubeCounts("camera:0", 0.0, region="space:market", counts={"brown": 1}))
    table.observe(CubeCounts("camera:1", 0.0, region="space:market", counts={"brown": 2}))
    table.observe(CubeCounts("camera:0", 0.0, region="space:harvest", counts={"pink": 1}))
    table.tick(1.0)
    table.settled(1.0).clear()
    table.conflicts(1.0)["space:market"].clear()
    assert table.settled(1.0) == {"space:harvest": (0, 1, 0, 0, 0)}
    assert table.conflicts(1.0) == {"space:market": {"camera:0": (1, 0, 0, 0, 0),
                                                     "camera:1": (2, 0, 0, 0, 0)}}
