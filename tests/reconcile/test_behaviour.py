"""The simulated table behaves like the product's devices and like people (issue 15): the
camera setups report what ``companion/sensors/camera.py`` can emit, the hub sends SEEN and
GONE only, and ``ordinary`` noise holds every behaviour of the model, ``heavy`` three
times as often."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

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
)
from companion.reconcile.reconciler import Reconciler
from companion.sim.behaviour import (
    NOISE,
    VISION_BENCH,
    Noise,
    vision_accuracy,
    vision_kind_accuracy,
    wilson_lower,
)
from companion.sim.camera_causes import TracedReconciler
from companion.sim.link import Counts, SimLink
from companion.sim.play_styles import random_truth
from companion.sim.table import SimTable
from companion.sim.table_game import play
from companion.village.picture import regions_of


class Recorder(TracedReconciler):
    """The real reconciler (as the bench builds it, its guards noted), keeping every
    observation it is fed."""

    def __init__(self, link: Any) -> None:
        super().__init__(link)
        self.seen: list[Observation] = []

    def observe(self, obs: Observation) -> None:
        self.seen.append(obs)
        super().observe(obs)


def observations(setup: str, noise: str, n: int = 160, seed: int = 3) -> list[Observation]:
    """What the setup's sensors report over the first ``n`` actions of a game."""
    header, truth = random_truth(3, random.Random(seed), "purposeful")
    truth = truth[:n]
    import companion.sim.table_game as sim

    kept: list[Recorder] = []

    def make(link: Any, settle: float = 0.5) -> TracedReconciler:
        rec = Recorder(link)
        kept.append(rec)
        return rec

    real = sim.TracedReconciler
    sim.TracedReconciler = make  # type: ignore[assignment,misc]
    try:
        play(header, truth, setup, NOISE[noise], random.Random(f"{seed}/{setup}/{noise}"))
    finally:
        sim.TracedReconciler = real  # type: ignore[misc]
    return kept[0].seen


@pytest.mark.parametrize("setup", ["camera", "hub+camera"])
def test_the_camera_setups_report_only_what_the_product_camera_emits(setup: str) -> None:
    """What ``companion/sensors/camera.py`` emits: cubes, marker cells (the first-player
    tokens' among them), figures by colour in the zones of the camera's layout (issue 16:
    never which member), items on the farms."""
    from vision.layout import load

    zones_read = {r.name for b in load().boards.values() for r in b.regions
                  if r.kind == "zone"}
    kinds: set[str] = set()
    for o in observations(setup, "ordinary"):
        if o.source.startswith("camera"):
            assert isinstance(o, CubeCounts | MarkerCell | Occluded | FigureCounts
                              | ItemCounts), o
            kinds.add(o.kind)
            if isinstance(o, CubeCounts):
                assert o.region.startswith(("space:", "supply:")), o
            if isinstance(o, MarkerCell):  # the first-player tokens too (issue 15)
                assert o.track.startswith(("time:", "prestige", "first_player")), o
                if o.track == "first_player":
                    assert o.marker in ("home", "red", "yellow", "blue", "white"), o
            if isinstance(o, FigureCounts):
                assert o.zone in zones_read, o
            if isinstance(o, ItemCounts):
                assert o.region.startswith("goods:"), o
    assert {"figures", "items"} <= kinds


def test_the_ideal_camera_stays_for_comparison() -> None:
    kinds = {o.kind for o in observations("camera-ideal", "none", 60)}
    assert {"snapshot", "cubes", "marker"} <= kinds


def test_the_hub_sends_seen_and_gone_only_and_nothing_about_empty_zones() -> None:
    seen = [o for o in observations("hub", "none", 60) if o.source.startswith("hub")]
    assert seen and all(isinstance(o, PiecesSeen | PiecesGone) for o in seen)
    assert all(o.pieces or o.unknown_uids for o in seen)  # type: ignore[union-attr]


def test_ordinary_noise_holds_the_behaviour_model_and_heavy_multiplies_it() -> None:
    o, h, none = NOISE["ordinary"], NOISE["heavy"], NOISE["none"]
    rates = ("lost", "dropout", "slide", "hand_miss", "unenrolled", "early", "rest", "late_tap",
             "double_tap", "wrong_tap", "late_answer", "none_answer", "imperfect_fix")
    for name in rates:
        assert getattr(o, name) > 0, name
        assert getattr(h, name) == pytest.approx(min(1.0, 3 * getattr(o, name))), name
        assert getattr(none, name) == 0, name
    assert o.misread == 1 and h.misread == 3 and none.misread == 0  # × the vision bench's
    assert o.steps and o.shadows and o.bumps and o.turn_gap[1] > o.turn_gap[0]


def test_heavy_noise_shows_drop_outs_unenrolled_tags_and_late_or_double_taps() -> None:
    obs = observations("hub", "heavy", 300)
    hub = [x for x in obs if isinstance(x, PiecesSeen | PiecesGone)]
    assert any(x.unknown_uids for x in hub), "no unenrolled tag"
    back = [(g, s) for g in hub if isinstance(g, PiecesGone)
            for s in hub if isinstance(s, PiecesSeen) and s.source == g.source
            and s.pieces == g.pieces and s.pieces and 0.2 <= s.t - g.t <= 2.0]
    assert back, "no drop-out"
    taps = [x for x in observations("pad", "heavy", 300) if isinstance(x, TagTapped)]
    twice = [(a, b) for a, b in itertools.pairwise(taps)
             if a.piece == b.piece and 0 < b.t - a.t < 1.0]
    assert taps and twice, "no double tap"


def test_the_wilson_bound_is_the_textbook_one() -> None:
    """10 of 100: 95 % Wilson interval 0.0552–0.1744; 0 misreads in 48: at most 7.41 %."""
    assert wilson_lower(0.1, 100) == pytest.approx(0.0552, abs=1e-4)
    assert 1 - wilson_lower(0.9, 100) == pytest.approx(0.1744, abs=1e-4)
    assert 1 - wilson_lower(1.0, 48) == pytest.approx(0.0741, abs=1e-4)
    assert wilson_lower(0.97, 0) == 0.97  # nothing counted: the share as measured


def test_a_small_bench_never_makes_a_camera_that_never_misreads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bench that read 48 tokens right simulates a camera that misreads up to 7.41 % of
    them, and the more it counted, the closer the rate comes to what it measured."""
    from companion.sim import behaviour

    bench = {"accuracy": {"real-ordinary": 1.0},
             "accuracy_by_kind": {"real-ordinary": {"cubes_tracks": 1.0, "first_player": 1.0,
                                                    "figures": 0.99, "items": 1.0}},
             "counted_by_kind": {"real-ordinary": {"cubes_tracks": 48, "first_player": 48,
                                                   "figures": 10000}}}
    path = tmp_path / "vision-bench.json"
    path.write_text(json.dumps(bench))
    monkeypatch.setattr(behaviour, "VISION_BENCH", path)
    assert 1 - vision_accuracy()["real-ordinary"] == pytest.approx(0.0741, abs=1e-4)
    assert 1 - vision_kind_accuracy("first_player") == pytest.approx(0.0741, abs=1e-4)
    assert 0.01 < 1 - vision_kind_accuracy("figures") < 0.0125
    assert vision_kind_accuracy("items") == 1.0  # no count recorded: as measured


def test_the_camera_misreads_at_the_vision_bench_rate() -> None:
    bench = json.loads(VISION_BENCH.read_text())
    accuracy = {k: wilson_lower(x, int(bench.get("counted_by_kind", {}).get(k, {}).get(
        "cubes_tracks", bench["conditions"][k].get("cubes_tracks_counted", 0))))
        for k, x in bench["accuracy"].items()}
    assert vision_accuracy() == accuracy
    header, _truth = random_truth(3, random.Random(1))
    st = v.start(header)
    link = SimLink(header, [], Counts())
    for setup, noise, factor in (("camera", "ordinary", 1), ("hub+camera", "heavy", 3),
                                 ("camera-ideal", "ordinary", 0), ("camera", "none", 0)):
        table = SimTable(setup, NOISE[noise], random.Random(1), st, Reconciler(link), Counts())
        assert table.p_misread == pytest.approx(factor * (1 - accuracy["real-ordinary"]))
        by_kind = bench["accuracy_by_kind"]["real-ordinary"]
        for kind in ("figures", "items"):  # the real-table renders' rows, never the ideal's
            assert table.p_misread_kind[kind] == pytest.approx(
                factor * (1 - vision_kind_accuracy(kind)))
            assert table.p_misread_kind[kind] >= factor * (1 - by_kind[kind])


def test_the_camera_misses_hands_at_the_measured_rate() -> None:
    """A hand over a region a move changes is reported (``Occluded``) unless the camera
    missed it (``hand_miss``, per region: the vision bench's hand images); the moves and
    the rest of the noise draw from other streams, so they stay the same."""
    from dataclasses import replace

    from companion.sim.behaviour import HAND_MISS

    assert NOISE["ordinary"].hand_miss == HAND_MISS > 0
    header, truth = random_truth(3, random.Random(1))
    st = v.start(header)
    for a in truth:  # up to the first take of a cube
        if a["type"] == "take":
            break
        st = v.apply(st, a)
    after = v.apply(st, a)
    link = SimLink(header, [], Counts())
    hands = []
    for miss in (0.0, 1.0):
        noise = replace(NOISE["none"], hands=True, hand_miss=miss)
        table = SimTable("camera", noise, random.Random(1), st, Reconciler(link), Counts())
        table.move(1.0, after, [a])
        hands.append([o.regions for _t, o in table.events if isinstance(o, Occluded)])
    assert hands[0] and hands[0][0], "no hand reported with none missed"
    assert hands[1] == [], "a missed hand reported"


def test_the_players_count_as_done_every_move_the_table_shows(monkeypatch: Any) -> None:
    """The next player's early cube (`early`) shows the current player's first moves
    before their last: those moves are made, and the players answer a prompt about them
    (full matrix, fifteenth session: seed 1, purposeful, hub, heavy, game 0, action 229,
    a birth shown while the players still counted it undone: its prompt was scored as
    without the truth and answered « none of these »)."""
    from companion.sim import table_game

    clocks: list[Any] = []
    init = table_game._Clock.__init__

    def keep(self: Any, *a: Any, **k: Any) -> None:
        init(self, *a, **k)
        clocks.append(self)

    shown: list[tuple[int, dict[str, Any]]] = []
    move = SimTable.move

    def record(self: SimTable, t: float, st: v.GameState, actions: list[dict]) -> None:
        if clocks and self.override:  # the early cube: the state under it is shown
            shown.append((clocks[-1].done, regions_of(st)))
        move(self, t, st, actions)

    monkeypatch.setattr(table_game._Clock, "__init__", keep)
    monkeypatch.setattr(SimTable, "move", record)
    header, truth = random_truth(2, random.Random(3))
    truth = truth[:120]
    play(header, truth, "pad", Noise(early=1.0, batch=0.5), random.Random(1))
    states = [v.start(header)]
    for a in truth:
        states.append(v.apply(states[-1], a))
    assert shown
    assert all(regions == regions_of(states[done]) for done, regions in shown)
