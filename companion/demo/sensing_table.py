"""The demo on a simulated table, in real time: ``companion serve --demo --sensors sim``,
and ``companion serve --demo --camera sim`` (`camera_demo`: the table's true state is
rendered by the `vision` renderer and read by the real camera adapter).

A thread plays random legal games "by hand" on a `SimTable`; its sensors' observations go
to the runtime's real reconciler, which submits what it recognises to the table service.
The players wait a few seconds, then answer a prompt with what they did and put the board
right after a discrepancy (so the pages show both); what no sensor sees (customer tiles,
and what the reconciler has not applied after `GRACE` seconds) they enter on the tablet.
"""

from __future__ import annotations

import contextlib
import logging
import math
import random
import threading
import time
from typing import Any, Protocol

import companion.village as v
from companion.reconcile.observations import Health, Observation
from companion.reconcile.reconciler import Discrepancy, Prompt, Refused, UnknownOpen
from companion.sim.behaviour import NOISE
from companion.sim.link import Counts, equivalent
from companion.sim.random_games import random_legal, steps
from companion.sim.table import FRAME, SimTable
from companion.table import TableService
from companion.table.errors import TableError

log = logging.getLogger(__name__)

PLAYERS = (("red", "yellow", "blue"), ("red", "blue"))
GRACE = 6.0
"""Seconds the players leave the sensors before they enter an action on the tablet: longer
than the reconciler's own waits before it applies or asks (a compound move's second step
3.5 s, a move no sensor sees 3 s, `ask_after` 3.5 s). Two actions behind, as before, was
3 s at the demo's pace: the tablet entered nearly everything before the sensors could."""


class SensingHost(Protocol):
    """What the sensing demo needs of the process it runs in (`companion.runtime.Runtime`
    is one): the table service, a way in for observations, the open questions, answers."""

    @property
    def service(self) -> TableService: ...

    def emit(self, obs: Observation) -> None:
        """Hand an observation to the reconciler (as a device would)."""

    def observe(self, obs: Observation) -> None:
        """Hand a device's observation to the health panel and the reconciler."""

    def open_questions(self) -> tuple[Prompt | None, Discrepancy | None]:
        """The reconciler's open prompt and discrepancy, read under its lock."""

    def answer(self, prompt_id: int, choice: int) -> list[dict[str, Any]]:
        """Answer an open prompt. Raises UnknownOpen, IndexError, Refused."""

    def entered(self) -> int:
        """How many actions of the current game are in effect (0 without a game)."""


class _Emit:
    def __init__(self, host: SensingHost) -> None:
        self.host = host

    def observe(self, obs: Observation) -> None:
        self.host.emit(obs)


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
        from companion.sim.camera_game import table_view
        from vision.render import Scene, render
        from vision.sources import Frame
        from vision.table import TableView

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


def camera_demo(host: SensingHost) -> tuple[LiveSimTable, Any]:
    """The demo of ``--demo --camera sim``: a `LiveSimTable` whose players tap members on the
    pad and enter on the tablet what no sensor sees, and a real `CameraAdapter` watching the
    rendered table (its observations go through ``host.observe`` like any device's)."""
    from companion.sensors.camera import CameraAdapter

    demo = LiveSimTable(host, setup="pad", noise="none")
    camera = CameraAdapter(lambda: PictureSource(demo.truth), host.observe,
                           name="camera:sim", settle_s=0.4)
    return demo, camera


class LiveSimTable:
    """Plays on a simulated table every ``move`` seconds; answers after ``patience``."""

    def __init__(self, host: SensingHost, setup: str = "hub+camera", noise: str = "ordinary",
                 move: float = 4.0, patience: float = 4.0, seed: int | None = None) -> None:
        self.host, self.setup, self.noise = host, setup, NOISE[noise]
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
        self.host.emit(Health("sim:" + self.setup, time.monotonic(), device="sim:" +
                                 self.setup, state="up", detail=f"simulated {self.setup}"))
        while not self._stop.is_set():
            try:
                self._game()
            except Exception:
                log.exception("simulated table failed; starting again")
                self._stop.wait(2.0)

    def _game(self) -> None:
        svc = self.host.service
        svc.new_game(list(self.rng.choice(PLAYERS)), label="demo (simulated sensors)")
        truth = svc.state()
        actions: list[dict[str, Any]] = []
        sim = SimTable(self.setup, self.noise, self.rng, truth, _Emit(self.host),  # type: ignore[arg-type]
                       self.counts)
        sim.start(time.monotonic())
        self._sim = sim
        play = steps(truth, random_legal, self.rng, limit=None)
        while not self._stop.is_set():
            a, after = next(play, (None, truth))
            if a is None:
                break  # the game is over
            if a["type"] == "reveal_customers":
                self._catch_up(actions, len(actions))
            else:
                self._catch_up(actions, len(actions) - max(2, math.ceil(GRACE / self.move)))
            truth = after
            actions.append(a)
            if a["type"] == "reveal_customers":
                self._enter(a, len(actions) - 1)
                sim.show(truth)
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
            p, d = self.host.open_questions()
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
        st = self.host.service.state()
        for k, cand in enumerate(p.candidates):
            true = actions[done: done + len(cand)]
            if len(true) == len(cand) and all(
                equivalent(st, a, b) for a, b in zip(cand, true, strict=True)
            ):
                with contextlib.suppress(UnknownOpen, IndexError, Refused):
                    self.host.answer(p.id, k)
                return

    def _done(self) -> int:
        return self.host.entered()

    def _catch_up(self, actions: list[dict[str, Any]], upto: int) -> None:
        while (done := self._done()) < upto and not self._stop.is_set():
            self._enter(actions[done], done)

    def _enter(self, action: dict[str, Any], index: int) -> None:
        if self._done() != index:
            return
        svc = self.host.service
        try:
            svc.submit(action, "tablet", svc.seq())
        except (TableError, v.RulesError) as exc:
            log.info("simulated tablet entry refused: %s", exc)


__all__ = ["LiveSimTable"]
