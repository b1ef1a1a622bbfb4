"""The process in one place: store, table service, sensors, reconciler and demo.

    rt = Runtime({"DB_PATH": path, "TABLE_TOKEN": token, "SENSORS": "sim", "DEMO": True})
    rt.start()          # threads: listener worker, reconciler, adapters, demo
    app = create_app(rt)
    ...
    rt.close()          # every thread stopped, devices released, the store closed

Listener calls (``add_listener``) run on one worker thread fed by a queue, so a slow
listener never holds up a write. Sensor observations go through another queue to the
reconciler thread, which ticks it ten times a second; its outcomes (proposals, prompts,
discrepancies, closings) and sensor health go through a `SensingFeed` onto the live feed
(``/api/events``, as named events without id); a page that connects gets the ones still
open.
"""

from __future__ import annotations

import itertools
import json
import logging
import queue
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import companion.village as v
from companion.reconcile.observations import Health, Observation, to_json
from companion.reconcile.reconciler import Closed, Outcome, Reconciler, Refused
from companion.sensors import Adapter
from companion.store import EventStore
from companion.table import TableService
from companion.table.errors import TableError
from companion.table.feed import Notice

log = logging.getLogger(__name__)

JSON = dict[str, Any]


class ServiceLink:
    """The reconciler's way in: `TableService.submit`. The observations that led to each
    sensor-made action are kept by (game, seq) in ``evidence`` and, with ``log_path``,
    appended to that JSON-lines file (one object per action: game_id, seq, source,
    observations), so a disputed move can be looked at after the game."""

    def __init__(self, service: TableService, log_path: Path | None = None) -> None:
        self.service = service
        self.log_path = log_path
        self.evidence: dict[tuple[int, int], list[JSON]] = {}

    def state(self) -> v.GameState:
        return self.service.state()

    def seq(self) -> int:
        return self.service.seq()

    def submit(self, action: JSON, source: str, expected_seq: int,
               observations: list[JSON]) -> int:
        """Raises Refused (stale seq, no game, illegal or ambiguous action)."""
        try:
            seq = self.service.submit(action, source, expected_seq)
        except (TableError, v.RulesError) as exc:
            raise Refused(str(exc)) from exc
        game = self.service.current_game_id
        if observations and game is not None:
            self.evidence[(game, seq)] = observations
            if self.log_path is not None:
                line = {"game_id": game, "seq": seq, "source": source,
                        "observations": observations}
                try:
                    with open(self.log_path, "a", encoding="utf-8") as f:
                        f.write(json.dumps(line) + "\n")
                except OSError:
                    log.exception("cannot write %s", self.log_path)
        return seq


class SensingFeed:
    """Sensing messages for the pages, sent on the live feed (``/api/events``) as named
    `Notice` objects (``event:`` proposal, prompt, discrepancy, closed or health; no id).

    Keeps what is still open (each open prompt and discrepancy, each device's latest
    health), so a page that connects gets it first (`listen`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Callable[[Notice], None]] = []
        self._open: dict[int, Notice] = {}
        self._health: dict[str, Notice] = {}
        self.recent: list[tuple[str, JSON]] = []  # the last 50 messages, for tests and tools

    def publish(self, name: str, data: JSON) -> None:
        """Announce a message (JSON text built once) to every listener, in order."""
        notice = Notice(0, 0, json.dumps(data), event=name)
        with self._lock:
            if name in ("prompt", "discrepancy"):
                self._open[int(data["id"])] = notice
            elif name == "closed":
                self._open.pop(int(data["id"]), None)
            elif name == "health":
                self._health[str(data["device"])] = notice
            self.recent = [*self.recent[-49:], (name, data)]
            for listener in list(self._listeners):
                try:
                    listener(notice)
                except Exception:
                    log.exception("sensing listener failed")

    def open_notices(self) -> list[Notice]:
        """The open prompts and discrepancies, then each device's latest health."""
        with self._lock:
            return [*self._open.values(), *self._health.values()]

    def open_messages(self) -> list[tuple[str, JSON]]:
        """`open_notices` as ``(event name, JSON)``."""
        return [(n.event or "", json.loads(n.data)) for n in self.open_notices()]

    def listen(self, listener: Callable[[Notice], None]) -> list[Notice]:
        """Call ``listener(notice)`` for every message from now on (under this feed's lock:
        keep it short); returns the open notices at that moment, so nothing is lost."""
        with self._lock:
            self._listeners.append(listener)
            return [*self._open.values(), *self._health.values()]

    def unlisten(self, listener: Callable[[Notice], None]) -> None:
        """Stop calling ``listener`` (no error if it is not listening)."""
        with self._lock:
            if listener in self._listeners:
                self._listeners.remove(listener)

    def close(self) -> None:
        """Forget every listener."""
        with self._lock:
            self._listeners.clear()


class Runtime:
    """Builds and owns the parts of the process; ``start()`` then ``close()``.

    ``config`` keys: ``DB_PATH`` (None: a temporary database), ``TABLE_TOKEN``, ``DEMO``
    (a game plays itself), ``SENSORS`` (``"none"`` or ``"sim"``: the demo is played on a
    simulated table seen through ``SIM_SETUP``/``SIM_NOISE`` and the real reconciler),
    ``DEMO_INTERVAL``. Raises what `EventStore` raises for a database it cannot open.
    """

    def __init__(self, config: dict[str, Any] | None = None,
                 adapters: list[Adapter] | None = None) -> None:
        self.config: dict[str, Any] = {"DB_PATH": None, "TABLE_TOKEN": None, "DEMO": False,
                                       "SENSORS": "none", "SIM_SETUP": "hub+camera",
                                       "SIM_NOISE": "ordinary", "DEMO_INTERVAL": 0.4,
                                       **(config or {})}
        db = self.config["DB_PATH"]
        if db is None:
            db = Path(tempfile.mkdtemp(prefix="village-companion-")) / "games.sqlite3"
            self.config["DB_PATH"] = db
        self.store = EventStore(db)
        self.service = TableService(self.store, self.config["TABLE_TOKEN"])
        self.config["TABLE_TOKEN"] = self.service.table_token
        self.sensing = SensingFeed()
        self.link = ServiceLink(self.service, Path(db).with_suffix(".evidence.jsonl"))
        self._rec_lock = threading.RLock()
        self.reconciler = Reconciler(self.link, listener=self._outcome)
        self.adapters: list[Adapter] = list(adapters or [])
        self._listeners: list[Callable[[Notice], None]] = []
        self._notices: queue.Queue[Notice | None] = queue.Queue()
        self._inbox: queue.Queue[Observation | None] = queue.Queue()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._demo: Any = None
        self._started = False
        self._closed = False
        self._ids = itertools.count(1)
        self.service.add_listener(self._notices.put)

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker threads, the adapters and the demo. Idempotent."""
        if self._started:
            return
        self._started = True
        self._spawn("runtime-listeners", self._listener_loop)
        self._spawn("runtime-reconciler", self._reconciler_loop)
        for adapter in self.adapters:
            adapter.start()
        if self.config["DEMO"]:
            if self.config["SENSORS"] == "sim":
                from companion.reconcile.live import LiveSimTable

                self._demo = LiveSimTable(self, self.config["SIM_SETUP"],
                                          self.config["SIM_NOISE"])
            else:
                from companion.table.demo import DemoTable

                self._demo = DemoTable(self.service,
                                       interval=float(self.config["DEMO_INTERVAL"]))
            self._demo.start()

    def close(self) -> None:
        """Stop every thread (each within ~2 s), release the devices, close the store.
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        if self._demo is not None:
            self._demo.stop()
        for adapter in self.adapters:
            try:
                adapter.close()
            except Exception:
                log.exception("closing adapter %s failed", getattr(adapter, "name", adapter))
        self._notices.put(None)
        self._inbox.put(None)
        for t in self._threads:
            t.join(5.0)
        self.sensing.close()
        self.store.close()

    def install_signal_handlers(self) -> None:
        """SIGTERM closes the runtime, then exits (main thread only)."""

        def _term(signum: int, frame: FrameType | None) -> None:
            self.close()
            raise SystemExit(0)

        signal.signal(signal.SIGTERM, _term)

    def __enter__(self) -> Runtime:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what others call ----------------------------------------------------------------

    def add_listener(self, listener: Callable[[Notice], None]) -> None:
        """``listener(notice)`` after each change, on the listener worker thread."""
        self._listeners.append(listener)

    def emit(self, obs: Observation) -> None:
        """The adapters' ``emit``: an observation for the reconciler (thread-safe)."""
        self._inbox.put(obs)

    def answer(self, prompt_id: int, choice: int) -> list[JSON]:
        """Answer an open prompt. Raises UnknownOpen, IndexError."""
        with self._rec_lock:
            return [o.to_json() for o in self.reconciler.answer(prompt_id, choice)]

    def resolve(self, discrepancy_id: int, action: JSON | None) -> list[JSON]:
        """Resolve an open discrepancy with an action, or None: "I will fix the board".
        Raises UnknownOpen, or what the table refuses (Refused)."""
        with self._rec_lock:
            if action is None:
                return [o.to_json() for o in self.reconciler.fix_board(discrepancy_id)]
            return [o.to_json() for o in self.reconciler.resolve(discrepancy_id, action)]

    def undo_proposal(self, start: int, actions: list[JSON]) -> int:
        """Undo a proposal's actions (the game must be at ``start + len(actions)``) and
        never propose them again from there. Returns the seq after. Raises Refused."""
        with self._rec_lock:
            seq = self.service.seq()
            if seq != start + len(actions):
                raise Refused(f"the game moved on (seq {seq}): undo from the action list")
            try:
                for _ in actions:
                    seq = self.service.undo("tablet", expected_seq=seq)
            except TableError as exc:
                raise Refused(str(exc)) from exc
            self.reconciler.reject(self.service.state(), actions)
            return seq

    def evidence(self, game_id: int) -> list[JSON]:
        """The observations behind each sensor-made action of a game, by seq."""
        return [{"seq": seq, "observations": obs}
                for (g, seq), obs in sorted(self.link.evidence.items()) if g == game_id]

    @property
    def threads(self) -> list[threading.Thread]:
        return list(self._threads)

    # -- internals -----------------------------------------------------------------------

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        t = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(t)
        t.start()

    def _listener_loop(self) -> None:
        while True:
            notice = self._notices.get()
            if notice is None:
                return
            for listener in list(self._listeners):
                try:
                    listener(notice)
                except Exception:
                    log.exception("listener failed")

    def _reconciler_loop(self) -> None:
        while not self._stop.is_set():
            deadline = time.monotonic() + 0.1
            while True:
                try:
                    obs = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if obs is None:
                    return
                if isinstance(obs, Health):
                    self.sensing.publish("health", to_json(obs))
                with self._rec_lock:
                    self.reconciler.observe(obs)
            if self.service.current_game_id is None:
                continue
            try:
                with self._rec_lock:
                    self.reconciler.tick(time.monotonic())
            except Exception:
                log.exception("reconciler tick failed")

    def _outcome(self, outcome: Outcome) -> None:
        data = outcome.to_json()
        self.sensing.publish(outcome.kind if not isinstance(outcome, Closed) else "closed", data)


__all__ = ["Runtime", "SensingFeed", "ServiceLink"]
