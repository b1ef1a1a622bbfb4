"""How people and devices behave at a simulated table: the noise levels and the camera's
misread rates.

``Noise`` names each behaviour (a read made late, a tag lost, a hand resting, a prompt
answered late…) with its rate; each rate's source is in ``docs/sensing.md`` (« The
behaviour model »). ``NOISE``: ``none`` (ideal: every move alone, ``MOVE`` s apart, read
perfectly), ``ordinary`` (a table as it is), ``heavy`` (every rate and count ×3). The
camera misreads at the rates ``companion vision-bench`` measured on the real-table
renders (``docs/vision-bench.json``, row ``CAMERA_CONDITION``), read at run time so the
simulated camera follows the real one as it improves. Where the file says how many regions
of a kind were read, the rate is the upper end of its 95 % Wilson interval: a bench of a
few dozen images that saw no misread does not make a camera that never misreads.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

__all__ = ["CAMERA_CONDITION", "MOVE", "NOISE", "ORDINARY", "Noise", "vision_accuracy",
           "vision_kind_accuracy", "wilson_lower"]

MOVE = 5.0  # seconds from one move to the next at noise "none"
VISION_BENCH = Path(__file__).resolve().parents[2] / "docs" / "vision-bench.json"
# ``companion vision-bench`` of docs/vision.md, when the file is not beside the package
VISION_ACCURACY = {"ordinary": 0.9975, "hands": 0.9856, "real-ordinary": 0.8438}
# The vision bench's row the simulated product camera misreads at: the real-table renders
# (lens distortion, printed artwork, 3-D cubes lit from one side, JPEG), calibrated as the
# docs say. The ideal renderer's row ("ordinary") shares the reader's assumptions and
# flatters it (figures and items 100 % there, 98 % and 69 % on the real-table renders).
CAMERA_CONDITION = "real-ordinary"
# The share of the regions a hand acts on that the real pipeline does not report occluded:
# the region under the fingertip of the vision bench's hand images, real-hands and
# real-pale-hand, 24 each (seed 1), reported by the calibrated reader in 46 of 48
# (docs/sensing.md, « The behaviour model »). A fast move between frames is not in it.
HAND_MISS = 0.042


Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


def wilson_lower(exact: float, counted: int) -> float:
    """The lower end of the 95 % Wilson score interval of a share ``exact`` measured on
    ``counted`` trials (``exact`` itself when nothing was counted)."""
    if counted <= 0:
        return exact
    n, z2 = counted, Z95 * Z95
    k = round(exact * n)
    p = k / n
    centre = p + z2 / (2 * n)
    spread = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z2 / n))


def _counted(bench: dict[str, Any], condition: str, kind: str) -> int:
    """How many readings of ``kind`` the bench file says it scored under ``condition``
    (0 when it does not say)."""
    by_kind = bench.get("counted_by_kind", {}).get(condition, {})
    if kind in by_kind:
        return int(by_kind[kind])
    return int(bench.get("conditions", {}).get(condition, {}).get(f"{kind}_counted", 0))


def vision_kind_accuracy(kind: str, condition: str = CAMERA_CONDITION) -> float:
    """The vision bench's accuracy for one kind of reading (``figures``: figures by colour
    in a zone; ``items``: a farm's grain, coins and goods) under ``condition``, from
    ``docs/vision-bench.json``'s ``accuracy_by_kind`` (its Wilson lower bound where the
    count is recorded); the cubes-and-tracks accuracy when the file has no such row."""
    try:
        bench = json.loads(VISION_BENCH.read_text())
        got = float(bench["accuracy_by_kind"][condition][kind])
        return wilson_lower(got, _counted(bench, condition, kind))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return vision_accuracy().get(condition, VISION_ACCURACY[CAMERA_CONDITION])


def vision_accuracy() -> dict[str, float]:
    """Per-region accuracy of cubes and tracks by condition, from
    ``docs/vision-bench.json`` (``companion vision-bench --json``; its Wilson lower bound
    where the count is recorded); the figures of docs/vision.md when the file is not
    there."""
    try:
        bench = json.loads(VISION_BENCH.read_text())
        return {k: wilson_lower(float(x), _counted(bench, k, "cubes_tracks"))
                for k, x in bench["accuracy"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return dict(VISION_ACCURACY)


@dataclass(frozen=True)
class Noise:
    """What people and devices do; rates are per event named, sources in docs/sensing.md."""

    miss: float = 0.0  # a read made late: a camera region at the next frame, a tag a poll on
    dup: float = 0.0  # a read duplicated
    slide: float = 0.0  # a tag read by a neighbouring reader on its way (per arrival)
    batch: float = 0.0  # two actions made before the sensors settle (per move)
    hands: bool = False  # a hand over the moved regions during every move (0.6 s)
    hand_miss: float = 0.0  # the camera sees no hand over a region a move changes, per region
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


ORDINARY = Noise(miss=0.02, dup=0.01, slide=0.10, batch=0.05, hands=True,
                 hand_miss=HAND_MISS, knocks=1,
                 lost=0.01, dropout=0.02, unenrolled=0.02, misread=1.0, shadows=2, bumps=1,
                 steps=True, early=0.05, rest=0.03, late_tap=0.05, double_tap=0.05,
                 wrong_tap=0.02, late_answer=0.2, none_answer=0.03, imperfect_fix=0.2,
                 turn_gap=(4.0, 12.0))


def _heavy(n: Noise) -> Noise:
    """Every rate ×3 (capped at 1), every count ×3."""
    rates = {k: min(1.0, getattr(n, k) * 3) for k in (
        "miss", "dup", "slide", "batch", "hand_miss", "lost", "dropout", "unenrolled",
        "early", "rest", "late_tap", "double_tap", "wrong_tap", "late_answer", "none_answer",
        "imperfect_fix")}
    return replace(n, **rates, misread=n.misread * 3, knocks=n.knocks * 3,
                   shadows=n.shadows * 3, bumps=n.bumps * 3)


NOISE = {"none": Noise(), "ordinary": ORDINARY, "heavy": _heavy(ORDINARY)}
