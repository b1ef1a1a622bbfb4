"""The demo on a simulated table, in real time: ``companion serve --demo --sensors sim``,
and ``companion serve --demo --camera sim`` (`camera_demo`: the table's true state is
rendered by the `vision` renderer and read by the real camera adapter).

A thread plays random legal games "by hand" on a `SimTable`; its sensors' observations go
to the runtime's real reconciler, which submits what it recognises to the table service.
The players wait a few seconds, then answer a prompt with what they did and put the board
right after a discrepancy (so the pages show both); what no sensor sees (customer tiles,
and what the reconciler is more than two actions behind on) they enter on the tablet.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
import time
from typing import TYPE_CHECKING, Any

import companion.village as v
from companion.bags import draw_with_rng
from companion.table.errors import TableError

from .observations import Health, Observation
from .reconciler import Refused, UnknownOpen
from .simulator import FRAME, NOISE, Counts, SimTable, equivalent

if TYPE_CHECKING:
    from companion.runtime import Runtime

log = logging.getLogger(__name__)

PLAYERS = (("red", "yellow", "blue"), ("red", "blue"))


class _Emit:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def observe(self, obs: Observation) -> None:
        self.runtime.emit(obs)


class PictureSource:
    """A camera source showing a game state: ``state()`` → ``camera_game.table_view`` → the
    `vision` renderer (cubes, markers, figures and the farms' goods; a fixed camera pose), a
    frame every ``1/fps`` s stamped with the monotonic clock. A frame is rendered only when
    the picture changed. ``state()`` returning None (no game yet) shows an empty board."""

    def __init__(self, state: Any, fps: float = 5.0, name: str = "sim:camera") -> None:
        from vision.layout import load

        self.state, self.fps, self.name = state, fps, name
        self._layout = load()
        self._key: Any = None
        self._image: Any = None
        self._next = 0.0

    def open(self) -> None:
        self._next = time.monotonic()

    def read(self) -> Any:
        from vision.render import Scene, render
        from vision.sources import Frame
        from vision.table import TableView

        from .camera_game import table_view

        wait = self._next - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._next = max(self._next + 1.0 / self.fps, time.monotonic())
        st = self.state()
        # everything the camera reads (issue 16): cubes, markers, figures, the farms' goods
        view = TableView() if st is None else table_view(st, self._layout)
        key = repr(view.to_dict())
        if key != self._key:
            self._image = render(self._layout, view, Scene(seed=7, noise=1.5)).image
            self._key = key
        return Frame(self._image, time.monotonic())

    def close(self) -> None:
        return None


def camera_demo(runtime: Runtime) -> tuple[LiveSimTable, Any]:
    """The demo of ``--demo --camera sim``: a `LiveSimTable` whose players tap members on the
    pad and enter on the tablet what no sensor sees, and a real `CameraAdapter` watching the
    rendered table (its observations go through ``runtime.running`` like any device's)."""
    from companion.sensors.camera import CameraAdapter

    demo = LiveSimTable(runtime, setup="pad", noise="none")
    camera = CameraAdapter(lambda: PictureSource(demo.truth), runtime.running.observe,
                           name="camera:sim", settle_s=0.4)
    return demo, camera


class LiveSimTable:
    """Plays on a simulated table every ``move`` seconds; answers after ``patience``."""

    def __init__(self, runtime: Runtime, setup: str = "hub+camera", noise: str = "ordinary",
                 move: float = 1.5, patience: float = 4.0, seed: int | None = None) -> None:
        self.runtime, self.setup, self.noise = runtime, setup, NOISE[noise]
        self.move, self.patience = move, patience
        self.rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-sim-table", daemon=True)
        self.counts = Counts()
        self._seen_at: dict[int, float] = {}
        self._sim: SimTable | None = None

    def truth(self) -> v.GameState | None:
        """The true state of the table now (None before the first game)."""
        sim = self._sim
        return sim.truth if sim is not None else None

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    # -- the players ---------------------------------------------------------------------

    def _run(self) -> None:
        self.runtime.emit(Health("sim:" + self.setup, time.monotonic(), device="sim:" +
                                 self.setup, state="up", detail=f"simulated {self.setup}"))
        while not self._stop.is_set():
            try:
                self._game()
            except Exception:
                log.exception("simulated table failed; starting again")
                self._stop.wait(2.0)

    def _game(self) -> None:
        svc = self.runtime.service
        svc.new_game(list(self.rng.choice(PLAYERS)), label="demo (simulated sensors)")
        truth = svc.state()
        actions: list[dict[str, Any]] = []
        sim = SimTable(self.setup, self.noise, self.rng, truth, _Emit(self.runtime),  # type: ignore[arg-type]
                       self.counts)
        sim.start(time.monotonic())
        self._sim = sim
        while truth.phase != "over" and not self._stop.is_set():
            spec = v.chance_spec(truth)
            if spec is not None:
                a = draw_with_rng(spec, self.rng)
            else:
                a = self.rng.choice(v.legal_actions(truth)).to_json()
            if a["type"] == "reveal_customers":
                self._catch_up(actions, len(actions))
            else:
                self._catch_up(actions, len(actions) - 2)
            truth = v.apply(truth, a)
            actions.append(a)
            if a["type"] == "reveal_customers":
                self._enter(a, len(actions) - 1)
                sim.truth = truth
                sim.shown = sim._regions(truth)
                continue
            sim.move(time.monotonic(), truth, [a])
            self._wait(sim, actions)
        self._catch_up(actions, len(actions))
        self._stop.wait(self.move * 5)

    def _wait(self, sim: SimTable, actions: list[dict[str, Any]]) -> None:
        """Deliver the observations in real time; answer prompts and discrepancies."""
        end = time.monotonic() + self.move
        next_frame = 0.0
        while time.monotonic() < end and not self._stop.is_set():
            now = time.monotonic()
            if sim.camera and now >= next_frame:
                sim.frame(now)
                next_frame = now + FRAME
            sim.flush(now)
            rec = self.runtime.reconciler
            p, d = rec.prompt, rec.discrepancy
            if p is not None and time.monotonic() - self._seen(p.id) > self.patience:
                self._answer(p, actions)
            if d is not None and time.monotonic() - self._seen(d.id) > self.patience:
                sim.knocked.clear()
                sim.put_right(time.monotonic(), [])
                self._seen_at[d.id] = float("inf")  # put right once
            self._stop.wait(0.05)

    def _seen(self, ident: int) -> float:
        return self._seen_at.setdefault(ident, time.monotonic())

    def _answer(self, p: Any, actions: list[dict[str, Any]]) -> None:
        done = self._done()
        st = self.runtime.service.state()
        for k, cand in enumerate(p.candidates):
            true = actions[done: done + len(cand)]
            if len(true) == len(cand) and all(
                equivalent(st, a, b) for a, b in zip(cand, true, strict=True)
            ):
                with contextlib.suppress(UnknownOpen, IndexError, Refused):
                    self.runtime.answer(p.id, k)
                return

    def _done(self) -> int:
        svc = self.runtime.service
        gid = svc.current_game_id
        return len(svc.store.effective_actions(gid)) if gid is not None else 0

    def _catch_up(self, actions: list[dict[str, Any]], upto: int) -> None:
        while (done := self._done()) < upto and not self._stop.is_set():
            self._enter(actions[done], done)

    def _enter(self, action: dict[str, Any], index: int) -> None:
        if self._done() != index:
            return
        svc = self.runtime.service
        try:
            svc.submit(action, "tablet", svc.seq())
        except (TableError, v.RulesError) as exc:
            log.info("simulated tablet entry refused: %s", exc)


__all__ = ["LiveSimTable"]
