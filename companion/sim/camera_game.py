"""A recorded game seen only by a rendered camera, through the real vision pipeline.

For each true state of a game record, the table is drawn by the synthetic renderer
(``vision.render``, from ``picture(state)``); the frames go through the real camera
adapter (``companion.sensors.camera``: marker geometry, ``BoardReader``, ``Settler``) from
an in-memory ``SimSource``, and the adapter's observations into the real
:class:`Reconciler`. During each move a rendered hand rests over the region that changes
for the first ``hand_frames`` frames (the cubes change under it). Prompts are answered with
the truth, 1-4 s after they are shown (a fifth 5-15 s late: docs/sensing.md's behaviour
model), or at once by a player who takes the tablet to enter a move. A move draws anew
only the regions it changed (their pieces at new spots); the others' pieces stay where
they lay. The reconciler is ticked as the runtime ticks it (``runtime_ticks``), and what
made each touch of the tablet is counted (``camera_causes``). A draw from a bag the
camera does not see (customer tiles, the mass draw from the black bag) is entered on the
tablet as it happens, while a hand moves what it shows;
what the camera cannot tell (a skip or a pass, which member of a colour, a payment nothing
shows) is entered as the tablet would: before the next move when the move changed nothing
the camera reads (cubes, markers, figures by colour, the farms' goods), else once it is
``depth - 1`` actions behind (as ``simulator.play``). A discrepancy is met by putting the
cubes right (drawn anew); a second one at the same seq by "I will fix the board" and
entering the next action.

Unlike the simulator's link, :class:`CameraLink` applies what was submitted: an action that
is not the true one (up to interchangeable figures) stays applied, so the game drifts from
its record and the final state shows it.

``python -m companion.sim.camera_game [--game two-players | --play purposeful --seed N]
[--actions N] [--real] [--turn-gap S] [--log FILE] [--json]`` prints the counts and the time
per frame; ``--real`` draws the table with the real-table renderer (``Scene(real=True)``)
and calibrates the camera first (lens, empty boards from several frames, cubes), ``--log``
writes how each action was made and why (each prompt's cause and the guards that fired),
line by line as the game goes, and where it stopped when the engine refused an entry;
``--play purposeful`` plays the reconcile bench's purposeful two-player game of a seed
instead of a golden record (uniformly random play).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion import village as v
from companion.reconcile.observations import (
    CubeCounts,
    FigureCounts,
    ItemCounts,
    MarkerCell,
    Observation,
)
from companion.reconcile.reconciler import Discrepancy, Prompt
from companion.sensors.camera import CameraAdapter
from companion.sim.camera_causes import TracedReconciler, prompt_cause
from companion.sim.camera_result import CameraGame, CameraLink
from companion.sim.link import Counts, equivalent
from companion.sim.play_styles import random_truth
from companion.sim.rendered_table import EMPTY_FRAMES as EMPTY_FRAMES  # re-exported
from companion.sim.rendered_table import RenderedTable, calibrate_real
from companion.sim.rendered_table import changed_regions as changed_regions  # re-exported
from companion.sim.rendered_table import table_view as table_view  # re-exported
from companion.sim.stale_regions import StaleRegions
from companion.village import parse_action
from companion.village.picture import regions_of
from vision import calibration as vcal
from vision.bench import figure_counts, scene_for
from vision.layout import Layout, load
from vision.render import on_table
from vision.sources import SimSource
from vision.table import TableView

FPS = 5.0  # camera frames per second (simulated time)
MOVE_FRAMES = 14  # frames per move: the hand, then the table settling (2.8 s)
HAND_FRAMES = 2
QUIET_FRAMES = 3  # frames after a move that changed nothing the camera reads
# stillness before a move of another player than the last one's (``turn_gap``): 0 plays
# every move 2.8 s after the last (the measurements' default, harsher than the behaviour
# model); docs/sensing.md's model puts 4-12 s between two players' turns (``MODEL_TURN_GAP_S``)
TURN_GAP_S = 0.0
MODEL_TURN_GAP_S = 4.0
MODEL_TURN_GAPS = (4.0, 12.0)  # the behaviour model's range (``behaviour.Noise.turn_gap``)
UNSEEN_TYPES = frozenset({"mass_draw"})  # figures drawn from the black bag: no cube shows it
GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "golden"
REAL_SEED = 3  # the real table: bench.CAMERAS[3] (61°, k1 −0.40, the strongest), tilted 9.6°, warm
# the reconciler is ticked as the runtime's loop ticks it (``Runtime._reconciler_loop``):
# every 0.1 s, when a reading is due to settle, and again 5 ms after a look that stopped at
# its share of work (``Reconciler.going_on``); such a look is taken to cost 15 ms of one
# core (docs/sensing.md: a share is about 7 ms when the machine is quiet, 16 ms at load 12)
TICK_S = 0.1
LATE_ANSWER = 0.2  # share of prompts answered 5-15 s late (``behaviour.Noise.late_answer``)
LOOK_S = 0.02


def load_record(name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A golden record by name (``two-players``) or path. Raises OSError, ValueError."""
    path = Path(name)
    if not path.is_file():
        path = GOLDEN / (name if name.endswith(".jsonl") else name + ".jsonl")
    lines = [x for x in path.read_text("utf-8").splitlines() if x.strip()]
    header = json.loads(lines[0])
    return header, [parse_action(json.loads(x)).to_json() for x in lines[1:]]


def purposeful_game(seed: int, players: int = 2) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game played on purpose (``play_styles.purposeful``: no skip, pass or wasted well
    while something else is possible), seeded as the reconcile bench seeds one game
    (``random.Random(seed)``): its header and actions. The golden records are uniformly
    random legal play, which skips, passes and wastes wells far more often."""
    return random_truth(players, random.Random(seed), "purposeful")


def play(header: dict[str, Any], truth: list[dict[str, Any]], *, hands: bool = True,
         hand_frames: int = HAND_FRAMES, move_frames: int = MOVE_FRAMES,
         layout: Layout | None = None, settle: float = 0.5,
         camera_settle: float = 0.6, real: bool = False,
         turn_gap: float | tuple[float, float] = TURN_GAP_S,
         crops: Path | None = None,
         log_to: Callable[[dict[str, Any]], None] | None = None) -> CameraGame:
    """Play ``truth`` (all of it: pass a slice for the first N actions) through the rendered
    camera, the camera adapter and the reconciler. ``real``: the real-table renderer
    (``Scene(real=True)``: lens distortion, printed artwork, lit 3-D cubes, JPEG; the
    bench's ``real-ordinary`` scene of seed ``REAL_SEED``), the camera calibrated first
    (``calibrate_real``). ``turn_gap``: seconds of stillness before a move of another
    player than the last (``TURN_GAP_S``), or a range each turn's gap is drawn from
    (``MODEL_TURN_GAPS``, seeded). ``crops``: a folder where the frame's crop of each
    committed misread is written (``m001.png``…, named in ``misread``'s order).
    ``log_to``: called with each row of ``CameraGame.log`` as soon as its action is made
    and its frames are done (in order), with each prompt answered (``event`` "prompt")
    and, when the engine stops the game, with a last row (``event`` "stopped"). Raises
    what the engine raises when a wrong action made the record unplayable
    (``village.RulesError``), CalibrationError when the calibration fails."""
    started, cpu = time.perf_counter(), time.process_time()
    layout = layout or load()
    counts = Counts()
    counts.actions = sum(1 for a in truth if a["type"] != "reveal_customers")
    game = CameraGame(counts, turn_gap=turn_gap)
    clock = [0.0]
    link = CameraLink(header, truth, counts, clock)
    rec = TracedReconciler(link, settle=settle)
    scene = scene_for("real-ordinary", np.random.default_rng(REAL_SEED), layout) if real else None
    table = RenderedTable(layout, link.st, real=scene)
    cal = calibrate_real(layout, table) if real else None
    if cal is not None:
        game.renderer, game.not_learned = "real", vcal.not_learned(cal)
    seen: list[Observation] = []
    adapter = CameraAdapter(lambda: SimSource(table.frame, fps=FPS), seen.append,
                            calibration=cal, settle_s=camera_settle, reconnect_s=0.0,
                            clock=lambda: clock[0])
    fixes: dict[int, int] = {}
    at = [-1, -1]  # the true action being made (for the log), the one being drawn
    asked: dict[int, list[str]] = {}  # seq -> the prompts' questions and candidates there
    causes: dict[int, list[str]] = {}  # seq -> what made each prompt there a prompt
    guards: dict[int, list[list[str]]] = {}  # seq -> the guards that fired for each prompt
    met: dict[int, int] = {}  # seq -> discrepancies met there
    # (when answered, when shown, prompt or discrepancy, its cause, the guards that fired)
    todo: list[tuple[float, float, Any, str, list[str]]] = []
    waited: dict[int, list[float]] = {}  # seq -> seconds each prompt there waited
    rng = random.Random(0)  # the players' answer times
    gaps = random.Random(1)  # the turn gaps, when drawn from a range
    committed: dict[int, list[str]] = {}  # action -> what the camera committed during it
    read_names = {r.name for b in layout.boards.values() for r in b.regions
                  if r.kind in ("cubes", "track", "zone", "items", "token")}

    def catch_up(upto: int) -> None:
        upto = min(upto, len(truth))
        while link.n < upto:
            shown = next((x for x in todo if isinstance(x[2], Prompt)
                          and rec.prompt is not None and rec.prompt.id == x[2].id), None)
            if shown is not None:  # the player at the tablet answers what it asks first
                todo.remove(shown)
                respond(shown[2], shown[1], shown[3], shown[4])
                # the runtime ticks the reconciler (every TICK_S) before the same player
                # has tapped the next entry: what the answer lets it explain from the
                # camera is applied, not entered
                link.mode = "auto"
                n = link.n
                for out in rec.tick(clock[0]):
                    handle(out)
                game.applied_after_answer += link.n - n
                continue
            if rec.prompt is not None and rec.prompt.seq == link.n:
                game.entered_under_prompt += 1  # the tablet showed a prompt about it
            link.mode = "manual"
            link.submit(truth[link.n], "tablet", link.n, [])
        link.mode = "auto"
        if rec.prompt is not None and rec.prompt.seq != link.n:
            rec.prompt = None

    def same(st: v.GameState, cand: list[dict[str, Any]], true: list[dict[str, Any]]) -> bool:
        for a, b in zip(cand, true, strict=True):
            if not equivalent(st, a, b):
                return False
            st = v.apply(st, b)
        return True

    def handle(out: Any, delay: float | None = None) -> None:
        """A prompt or discrepancy shown: the players get to it after ``delay`` (the
        behaviour model's answer time when None)."""
        if isinstance(out, Prompt | Discrepancy):
            wait = answer_delay(rng) if delay is None else delay
            if isinstance(out, Prompt):
                cause = prompt_cause(out.question, out.candidates, rec.fired)
                todo.append((clock[0] + wait, clock[0], out, cause, sorted(rec.fired)))
            else:
                todo.append((clock[0] + wait, clock[0], out, "", []))

    def respond(out: Any, shown: float, cause: str, fired: list[str]) -> None:
        """The players at the tablet: the truth picked, or "none of these"; a discrepancy
        met by putting the cubes right (a second one at the same seq: "I will fix the
        board", the action entered). Nothing when it was closed meanwhile."""
        if isinstance(out, Prompt):
            if rec.prompt is None or rec.prompt.id != out.id:
                return  # the table moved on, or matched again, before anyone answered
            asked.setdefault(out.seq, []).append(
                f"{out.question} ({len(out.candidates)} candidates: "
                f"{' | '.join(out.words)[:200]})")
            causes.setdefault(out.seq, []).append(cause)
            guards.setdefault(out.seq, []).append(fired)
            waited.setdefault(out.seq, []).append(round(clock[0] - shown, 1))
            if log_to is not None:
                log_to({"event": "prompt", "t": clock[0], "shown": shown, "seq": out.seq,
                        "question": out.question, "cause": cause, "guards": fired,
                        "candidates": out.candidates})
            counts.prompts += 1
            counts.answers += 1  # a candidate tapped, or "none of these"
            for k, cand in enumerate(out.candidates):
                true = truth[out.seq: out.seq + len(cand)]
                if len(true) == len(cand) and same(link.st, cand, true):
                    counts.prompt_had_truth += 1
                    link.mode = "prompted"
                    follow = rec.answer(out.id, k)  # a next step asked, perhaps
                    link.mode = "auto"
                    for o in follow:  # the same hand answers it next
                        handle(o, rng.uniform(0.5, 1.5))
                    return
            rec.decline(out.id)
        elif isinstance(out, Discrepancy):
            if rec.discrepancy is None or rec.discrepancy.id != out.id:
                return
            counts.discrepancies += 1
            met[out.seq] = met.get(out.seq, 0) + 1
            counts.acks += 1
            n = fixes.get(out.seq, 0)
            fixes[out.seq] = n + 1
            if n >= 1:
                rec.fix_board(out.id)
                catch_up(link.n + 1)
            table.reseat()

    def run(frames: int) -> None:
        for _ in range(frames):
            clock[0] = round(clock[0] + 1 / FPS, 6)
            seen.clear()
            t0, c0 = time.perf_counter(), time.process_time()
            r0, rc0 = table.render_s, table.render_cpu_s
            adapter.step()  # the source renders inside it: that time is left out
            game.adapter_s += time.perf_counter() - t0 - (table.render_s - r0)
            game.adapter_cpu_s += time.process_time() - c0 - (table.render_cpu_s - rc0)
            game.frames += 1
            covered = table.covered & read_names
            game.hand_frames += bool(covered)
            for obs in seen:
                name = (obs.region if isinstance(obs, CubeCounts | ItemCounts)
                        else obs.zone if isinstance(obs, FigureCounts)
                        else obs.track if isinstance(obs, MarkerCell) else None)
                if name is not None:
                    committed.setdefault(at[0], []).append(_said(obs))
                    want = _drawn(table.view, obs)
                    got = getattr(obs, "counts", {})
                    if want is not None and want != {k: n for k, n in got.items() if n}:
                        game.misread.append(f"{clock[0]:.1f}s #{at[0]} {_said(obs)} "
                                            f"(drawn {want})")
                        if crops is not None:
                            _write_crop(adapter.crop(name, margin_mm=5.0),
                                        crops / f"m{len(game.misread):03d}.png")
                    game.camera_observations += 1
                    game.stale.committed(obs)
                    if name in covered:
                        game.committed_under_hand.append(f"{clock[0]:.1f}s {name}")
                rec.observe(obs)
            for t in runtime_ticks(rec, clock[0], round(clock[0] + 1 / FPS, 6)):
                link.mode = "auto"
                for out in rec.tick(t):
                    handle(out)
                due = [x for x in todo if x[0] <= t]
                for x in due:
                    todo.remove(x)
                    respond(x[2], x[1], x[3], x[4])

    unseen = [True] * len(truth)
    moved: list[list[str]] = [[] for _ in truth]  # the regions each move changed
    truths: list[list[str]] = [[] for _ in truth]  # and what they hold after it

    def row(k: int) -> dict[str, Any]:
        """The log's row of the k-th action the link applied."""
        n, mode, right = link.log[k]
        a = truth[n]
        why = ("tablet" if a["type"] == "reveal_customers" or a["type"] in UNSEEN_TYPES
               else "nothing-seen" if not moved[n] else "overtaken")
        wrong = [w[1] for w in link.wrong if w[0] == n]
        return {"n": n, "type": a["type"], "how": mode, "right": right, "t": link.made[k],
                "misread": [m for m in game.misread if f" #{n} " in m],
                **({"why": why} if mode == "manual" else {}),
                **({"submitted": wrong[0]} if wrong else {}),
                "changed": truths[n], "camera": committed.get(n, []),
                "asked": asked.get(n, []), "causes": causes.get(n, []),
                "guards": guards.get(n, []),
                "discrepancies": met.get(n, 0), "answered_after": waited.get(n, []),
                "action": a}

    def write(done: int) -> None:
        """The rows of the actions applied whose moves' frames are done (below ``done``)."""
        while len(game.log) < len(link.log) and link.log[len(game.log)][0] < done:
            game.log.append(row(len(game.log)))
            if log_to is not None:
                log_to(game.log[-1])

    try:
        _moves(truth, run, catch_up, table, rec, link, layout, move_frames, hand_frames,
               hands, turn_gap, gaps, at, unseen, moved, truths, read_names, write,
               game.stale)
    except v.RulesError as exc:
        write(len(truth))
        if log_to is not None:
            log_to({"event": "stopped", "at": at[1], "seq": link.n, "t": clock[0],
                    "error": str(exc), "wrong": [w[0] for w in link.wrong]})
        raise
    write(len(truth))
    game.stale.finish()
    game.render_s, game.renders = table.render_s, table.renders
    game.render_cpu_s = table.render_cpu_s
    game.final = v.summary(link.st)
    expected = v.start(header)
    for a in truth:
        expected = v.apply(expected, a)
    game.expected = v.summary(expected)
    game.wrong = link.wrong
    counts.timings = rec.timings
    game.wall_s = time.perf_counter() - started
    game.cpu_s = time.process_time() - cpu
    return game


def _moves(truth: list[dict[str, Any]], run: Callable[[int], None],
           catch_up: Callable[[int], None], table: RenderedTable, rec: TracedReconciler,
           link: CameraLink, layout: Layout, move_frames: int, hand_frames: int,
           hands: bool, turn_gap: float | tuple[float, float], gaps: random.Random,
           at: list[int], unseen: list[bool], moved: list[list[str]],
           truths: list[list[str]], read_names: set[str],
           write: Callable[[int], None], stale: StaleRegions) -> None:
    """``play``'s moves: each true action drawn (a hand over it), its frames run, what the
    camera cannot see entered on the tablet; ``write(i)`` after each action's frames.
    ``at``: [the action the camera's commits are put down to, the action being drawn].
    ``stale``: told each move's change of what the camera can see.
    Raises what the engine raises (``village.RulesError``)."""
    run(move_frames)
    st = link.st
    starts = turn_starts(truth)
    for i, a in enumerate(truth):
        at[1] = i
        if starts[i]:
            # another player's turn: the table still for ``turn_gap`` after the last move
            # (whose own frames gave it move_frames - hand_frames of stillness)
            gap = turn_gap if isinstance(turn_gap, int | float) else gaps.uniform(*turn_gap)
            run(max(0, round(gap * FPS) - (move_frames - hand_frames)))
        tablet = a["type"] == "reveal_customers" or a["type"] in UNSEEN_TYPES
        if tablet:
            catch_up(i)
        else:
            # what the camera could not see is entered on the tablet before the next
            # move; what it saw but did not explain, once the search could not reach it
            while link.n < i and (link.n < i - (rec.depth - 1) or unseen[link.n]):
                catch_up(link.n + 1)
        before = regions_of(st)
        st = v.apply(st, a)
        after = regions_of(st)
        # the hand rests where the move happens: an action space first, else a farm
        changed = sorted((k for k in after
                          if after[k] != before.get(k) and _region(k) in read_names),
                         key=lambda k: (not k.startswith("space:"), k))
        unseen[i] = tablet or not changed
        moved[i] = changed
        truths[i] = [f"{k}={after[k]}" for k in changed]
        at[0] = i
        drawn = table.view
        table.show(st)
        stale.moved(i, drawn, table.view)
        spot = on_table(layout, _region(changed[0])) if hands and changed else None
        if spot is not None:
            table.hands = [spot]
            run(1)
        if tablet:
            # drawn by hand from a bag the camera does not see: entered on the tablet
            # while the hand moves the pieces it tells (a mass draw's prestige)
            catch_up(i + 1)
        if spot is not None:
            run(hand_frames - 1)
            table.hands = []
            run(move_frames - hand_frames)
        elif changed:
            run(move_frames)
        else:  # nothing the camera reads has changed: a glance is enough
            run(QUIET_FRAMES)
        write(i + 1)
    catch_up(len(truth))


def turn_starts(truth: list[dict[str, Any]]) -> list[bool]:
    """For each action: True when it starts a turn (the table still for the turn gap
    before it): a player's move after another player's, or the first move after the fill
    of the board (a new round begins)."""
    out: list[bool] = []
    last: str | None = None
    for a in truth:
        player = a.get("player")
        out.append(player is not None and last is not None and player != last)
        if a["type"] == "fill_bag":
            last = ""  # the round is set up: whoever moves next starts a turn
        elif player is not None:
            last = player
    return out


def answer_delay(rng: random.Random) -> float:
    """Seconds before the players answer a prompt or meet a discrepancy: docs/sensing.md's
    behaviour model (``late_answer``: 20 % 5-15 s late, else 1-4 s)."""
    return rng.uniform(5.0, 15.0) if rng.random() < LATE_ANSWER else rng.uniform(1.0, 4.0)


def runtime_ticks(rec: Any, start: float, end: float) -> Iterator[float]:
    """The times in [start, end) at which the runtime's loop would tick ``rec`` (the caller
    ticks it at each): ``start``, then ``LOOK_S`` after a look that stopped at its share of
    work (``rec.going_on``), else ``TICK_S`` later or just after a reading is due to settle
    (``rec.table.next_due``), whichever comes first."""
    t = start
    while t < end:
        yield t
        due = rec.table.next_due(t)
        step = LOOK_S if rec.going_on else min(
            TICK_S, due + 0.001 - t if due is not None and due > t else TICK_S)
        t = round(t + step, 6)


def _drawn(view: TableView, obs: Observation) -> dict[str, int] | None:
    """What the renderer drew where ``obs`` was read (cubes, figures by colour, goods);
    None for a marker cell (its laps are the adapter's) or another observation."""
    if isinstance(obs, CubeCounts):
        return {c: n for c, n in view.cubes.get(obs.region, {}).items() if n}
    if isinstance(obs, FigureCounts):
        return figure_counts(view.zones.get(obs.zone, []))
    if isinstance(obs, ItemCounts):
        return {k: n for k, n in view.items.get(obs.region, {}).items() if n}
    return None


def _write_crop(image: np.ndarray | None, path: Path) -> None:
    """A misread region's crop written as PNG (nothing when the board was not found).
    Raises OSError when the folder cannot be written."""
    if image is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(path), image):
            raise OSError(f"cannot write {path}")


def _said(obs: Observation) -> str:
    """One committed camera observation, short (for the log)."""
    if isinstance(obs, MarkerCell):
        return f"{obs.track}:{obs.marker}@{obs.cell}"
    if isinstance(obs, CubeCounts | ItemCounts):
        return f"{obs.region}={dict(obs.counts)}"
    if isinstance(obs, FigureCounts):
        return f"{obs.zone}={dict(obs.counts)}"
    return obs.kind


def _region(name: str) -> str:
    """A picture region's name on the layout (``prestige:red`` is on ``prestige``)."""
    return "prestige" if name.startswith("prestige:") else name


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m companion.sim.camera_game",
                                description=__doc__.split("\n")[0])
    p.add_argument("--game", default="two-players", help="golden record name or a path")
    p.add_argument("--play", choices=("record", "purposeful"), default="record",
                   help="record: the --game record (uniformly random legal play); "
                        "purposeful: a two-player game played on purpose, as the reconcile "
                        "bench's --play purposeful (no skip, pass or wasted well while "
                        "something else is possible), of --seed")
    p.add_argument("--seed", type=int, default=1, help="the purposeful game's seed")
    p.add_argument("--actions", type=int, default=0, help="only the first N actions (0: all)")
    p.add_argument("--no-hands", action="store_true", help="no hand over the moved region")
    p.add_argument("--turn-gap", default="model", metavar="S",
                   help="seconds of stillness before another player's move (default "
                        "'model': drawn for each turn from the behaviour model's "
                        f"{MODEL_TURN_GAPS[0]:g}-{MODEL_TURN_GAPS[1]:g} s; 0: every move "
                        f"2.8 s after the last, harsher than a table; {MODEL_TURN_GAP_S}: "
                        "the model's least)")
    p.add_argument("--real", action="store_true",
                   help="the real-table renderer, the camera calibrated first (lens, empty "
                        "boards from several frames, cubes)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--log", metavar="FILE",
                   help="write one JSON line per true action as it is made (how and why), "
                        "one per prompt answered, and where the game stopped if it did")
    p.add_argument("--crops", metavar="DIR",
                   help="write the crop of each committed misread (m001.png…, in the "
                        "order of the log's misread lines)")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    try:
        header, truth = (purposeful_game(args.seed) if args.play == "purposeful"
                         else load_record(args.game))
    except (OSError, ValueError) as exc:
        print(f"camera_game: {exc}", file=sys.stderr)
        return 2
    if args.actions:
        truth = truth[: args.actions]
    try:
        gap: float | tuple[float, float] = (MODEL_TURN_GAPS if args.turn_gap == "model"
                                            else float(args.turn_gap))
    except ValueError:
        print(f"camera_game: --turn-gap: a number of seconds or 'model', not "
              f"{args.turn_gap!r}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        log = stack.enter_context(open(args.log, "w", encoding="utf-8")) if args.log else None

        def log_row(row: dict[str, Any]) -> None:
            if log is not None:
                log.write(json.dumps(row) + "\n")
                log.flush()

        try:
            result = play(header, truth, hands=not args.no_hands, real=args.real,
                          turn_gap=gap, crops=Path(args.crops) if args.crops else None,
                          log_to=log_row)
        except vcal.CalibrationError as exc:
            print(f"camera_game: calibration: {exc}", file=sys.stderr)
            return 2
        except v.RulesError as exc:
            print(f"camera_game: the game stopped: {exc}", file=sys.stderr)
            return 1
    name = f"purposeful:{args.seed}" if args.play == "purposeful" else args.game
    out = {"game": name, "actions_played": len(truth), **result.to_json()}
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        for k, val in out.items():
            print(f"{k:24} {val}")
    return 0 if out["final_state_matches"] and not result.counts.auto_wrong else 1


if __name__ == "__main__":
    raise SystemExit(main())
