"""The process in one place: store, table service, sensors, reconciler and demo.

    rt = Runtime(Settings(db_path=path, table_token=token, sensors="sim", demo=True))
    rt.start()          # threads: reconciler, adapters, demo
    app = create_app(rt)
    ...
    rt.close()          # every thread stopped, devices released, the store closed

Sensor observations go through a queue to the reconciler thread, which ticks it ten times
a second; its outcomes (proposals, prompts, discrepancies, closings) and sensor health go
through a `SensingFeed` onto the live feed (``/api/events``, as named events without id); a
page that connects gets the ones still open.
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
from companion.boxcheck import BoxAnswers
from companion.games.cardstore import CardStore, cards_path
from companion.reconcile.observations import Health, MarkerCell, Observation, to_json
from companion.reconcile.reconciler import (
    Closed,
    Discrepancy,
    Outcome,
    Prompt,
    Reconciler,
    Refused,
)
from companion.reconcile.seen_words import seen_words
from companion.sensors import Adapter, Emit
from companion.sensors.running import RunningSensors
from companion.sensors.tag_registry import TagRegistry
from companion.settings import Settings
from companion.store import EventStore
from companion.table import TableService
from companion.table.errors import NoGame, TableError
from companion.table.feed import Notice

log = logging.getLogger(__name__)

JSON = dict[str, Any]


class ServiceLink:
    """The reconciler's way in: `TableService.submit`. The observations that led to each
    sensor-made action are stored in the same event (``_observed``), so they are kept as
    long as the action and exported with the game (``GET /api/export?evidence=1``)."""

    def __init__(self, service: TableService) -> None:
        self.service = service

    def state(self) -> v.GameState:
        st: v.GameState = self.service.state()  # the reconciler reads Village's tables
        return st

    def seq(self) -> int:
        return self.service.seq()

    def submit(self, action: JSON, source: str, expected_seq: int,
               observations: list[JSON]) -> int:
        """Raises Refused (stale seq, no game, illegal or ambiguous action)."""
        try:
            return self.service.submit(action, source, expected_seq,
                                       evidence=observations or None)
        except (TableError, v.RulesError) as exc:
            raise Refused(str(exc)) from exc


class SensingFeed:
    """Sensing messages for the pages, sent on the live feed (``/api/events``) as named
    `Notice` objects (``event:`` proposal, prompt, discrepancy, waiting, closed or health;
    no id).

    Keeps what is still open (each open prompt, discrepancy and waiting line, each
    device's latest health), so a page that connects gets it first (`listen`)."""

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
            if name in ("prompt", "discrepancy", "waiting"):
                self._open[int(data["id"])] = notice
            elif name == "closed":
                self._open.pop(int(data["id"]), None)
            elif name == "health":
                self._health[str(data["device"])] = notice
            if name != "seen":  # the readings would crowd out what tests look for
                self.recent = [*self.recent[-49:], (name, data)]
            for listener in list(self._listeners):
                try:
                    listener(notice)
                except Exception:
                    log.exception("sensing listener failed")

    def open_notices(self) -> list[Notice]:
        """The open prompts, discrepancies and waiting lines, then each device's latest
        health."""
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


def covered_zones(adapters: list[Any]) -> frozenset[str]:
    """The zones the reader hubs' zone maps put a tag reader under now (read before every
    tick, so a map changed on the readers page is followed): the reconciler never
    applies a path that needs a figure there unread."""
    out: set[str] = set()
    for adapter in adapters:
        zone_map = getattr(adapter, "zones", None)
        tables = [getattr(zone_map, "default", {}), *getattr(zone_map, "hubs", {}).values()]
        for table in tables:
            out |= {z for z in table.values() if isinstance(z, str) and z != "unmapped"}
    return frozenset(out)


def build_adapters(settings: Settings, emit: Emit,
                   lookup: Callable[[str], str | None]) -> list[Adapter]:
    """The device adapters the settings ask for (``pcsc``, ``serial``, ``zones``, ``camera``,
    ``camera_calibration``), not started. A device that is not there is no error: its
    adapter waits for it and its health says so. Raises OSError or ZoneMapError (zone map),
    CalibrationError (camera calibration)."""
    adapters: list[Adapter] = []
    assert settings.db_path is not None, "the runtime names the database first"
    db = settings.db_path
    if settings.pcsc:
        from companion.sensors.pcsc_pad import PcscPad

        adapters.append(PcscPad(emit, lookup, name="pad"))
    if settings.serial:
        from companion.sensors import zone_config
        from companion.sensors.serial_hub import SerialHub
        from companion.sensors.zone_map import ZoneMap

        zones_file = settings.zones
        if zones_file is None and zone_config.default_path(db).exists():
            zones_file = zone_config.default_path(db)
        # the same check as the readers page: a zone a reader cannot have stops the start
        zones = zone_config.load(zones_file) if zones_file else ZoneMap({}, {})
        for i, port in enumerate(settings.serial):
            scan = port == "auto"
            adapters.append(SerialHub(None if scan else port, emit, zones, lookup,
                                      name=f"serial:scan{i}" if scan else None))
    if settings.camera:
        from companion.sensors.camera import camera_adapter

        calibration = settings.camera_calibration_file
        if settings.camera_calibration is None and calibration is not None \
                and not calibration.exists():
            calibration = None
        adapters.append(camera_adapter(settings.camera, emit,
                                       str(calibration) if calibration else None))
    return adapters


def hall_publisher(settings: Settings) -> Any:
    """The publisher of the table's events to ``settings.hall`` (not started). Raises
    ValueError for a URL or table name it cannot use, or without paho-mqtt."""
    import socket

    try:
        import paho.mqtt.client  # noqa: F401
    except ImportError as exc:
        raise ValueError("--hall needs paho-mqtt: pip install -e '.[hall]'") from exc
    from companion.hall.outbox import HallPublisher
    from companion.hall.topics import parse_broker_url

    assert settings.db_path is not None and settings.hall is not None
    table = settings.hall_table or socket.gethostname().split(".")[0]
    return HallPublisher(settings.db_path, table, parse_broker_url(settings.hall))


class Runtime:
    """Builds and owns the parts of the process; ``start()`` then ``close()``.

    The composition root: the store, the table service, the box-check answers, the tag
    registry, the device adapters (`build_adapters`), the reconciler and the demo are made
    here from one `Settings` (``settings.db_path`` None: a temporary database; the token
    generated when not given). With ``demo``, ``sensors="sim"`` plays the demo on a
    simulated table seen through ``sim_setup``/``sim_noise`` and the real reconciler, and
    ``camera="sim"`` renders the demo table's true state for the real camera adapter
    (`companion.demo.sensing_table.camera_demo`). Every observation
    goes to ``running`` (the health panel and the taps for enrolment, the same object the
    web app shows) and to the reconciler; tag UIDs are looked up in ``registry``.

    Raises what `EventStore` raises for a database it cannot open, OSError or
    `companion.sensors.zone_map.ZoneMapError` for a zone map it cannot use,
    `vision.calibration.CalibrationError` for a camera calibration file that is not one,
    ValueError for a ``hall`` it cannot publish to (`hall_publisher`).
    """

    def __init__(self, settings: Settings | None = None,
                 adapters: list[Adapter] | None = None) -> None:
        settings = settings or Settings()
        if settings.db_path is None:
            temporary = Path(tempfile.mkdtemp(prefix="village-companion-")) / "games.sqlite3"
            settings = settings.with_(db_path=temporary)
        db = Path(settings.db_path or "")
        self.boxes = BoxAnswers(settings.boxcheck_path)
        """The owner's box-check answers (read leniently: see `BoxAnswers`)."""
        self.cards = CardStore(cards_path(self.boxes.path))
        """The cards this table's boxes have learned, any game's (`CardStore`)."""
        self.store = EventStore(db)
        self.service = TableService(self.store, settings.table_token)
        self.settings: Settings = settings.with_(db_path=db,
                                                 table_token=self.service.table_token)
        """The settings in force: the database and the token filled in."""
        self.sensing = SensingFeed()
        self.link = ServiceLink(self.service)
        self._rec_lock = threading.RLock()
        self.reconciler = Reconciler(self.link, listener=self._outcome)
        self._inbox: queue.Queue[Observation | None] = queue.Queue()
        self._seen: dict[tuple[str, str], str] = {}  # the last words said per device and place
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._demo: Any = None
        self._started = False
        self._closed = False
        self._ids = itertools.count(1)
        self.registry = TagRegistry(db)
        self.running = RunningSensors()
        self.running.subscribe(self.emit)
        self.adapters: list[Adapter] = list(adapters or [])
        self._camera_demo: Any = None
        try:
            if self.settings.demo and self.settings.camera == "sim":
                from companion.demo.sensing_table import camera_demo

                self._camera_demo, camera = camera_demo(self)
                self.adapters.append(camera)
            self.adapters += build_adapters(
                self.settings.with_(camera=None) if self._camera_demo is not None
                else self.settings, self.running.observe, self.registry.lookup)
        except BaseException:
            self.store.close()
            raise
        for adapter in self.adapters:
            self.running.add(adapter)
            if hasattr(adapter, "farms_in_play"):  # a camera: its panel names a missing farm
                adapter.farms_in_play = self._farms_in_play
        self.reconciler.covered = covered_zones(self.adapters)
        self.hall: Any = None
        """The `companion.hall.outbox.HallPublisher` (with ``settings.hall``), or None."""
        if self.settings.hall:
            try:
                self.hall = hall_publisher(self.settings)
            except BaseException:
                self.store.close()
                raise
            self.service.add_listener(self.hall.wake)

    def _farms_in_play(self) -> frozenset[str] | None:
        """The colours of the current Village game's families (their farms should be on
        the table), or None without a game or in another game."""
        try:
            st = self.service.state()
        except NoGame:
            return None
        players = getattr(st, "players", None)
        return frozenset(players) if isinstance(players, tuple) else None

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker threads, the adapters and the demo. Idempotent."""
        if self._started:
            return
        self._started = True
        self._spawn("runtime-reconciler", self._reconciler_loop)
        if self.hall is not None:
            self.hall.start()
        for adapter in self.adapters:
            try:
                adapter.start()
            except ImportError as exc:  # e.g. pyscard missing: the panel shows it down
                log.error("cannot start %s: %s", adapter.name, exc)
        if self.settings.demo:
            if self._camera_demo is not None:
                self._demo = self._camera_demo
            elif self.settings.sensors == "sim":
                from companion.demo.sensing_table import LiveSimTable

                self._demo = LiveSimTable(self, self.settings.sim_setup,
                                          self.settings.sim_noise)
            else:
                from companion.demo.table import DemoTable

                self._demo = DemoTable(self.service, interval=self.settings.demo_interval)
            self._demo.start()

    def close(self) -> None:
        """Stop every thread (each within ~2 s), release the devices, close the store.
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self.running.stop_waiting()
        if self._demo is not None:
            self._demo.stop()
        for adapter in self.adapters:
            try:
                adapter.close()
            except Exception:
                log.exception("closing adapter %s failed", getattr(adapter, "name", adapter))
        if self.hall is not None:
            self.hall.stop()
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

    def emit(self, obs: Observation) -> None:
        """The adapters' ``emit``: an observation for the reconciler (thread-safe)."""
        self._inbox.put(obs)

    def answer(self, prompt_id: int, choice: int) -> list[JSON]:
        """Answer an open prompt. Raises UnknownOpen, IndexError."""
        with self._rec_lock:
            return [o.to_json() for o in self.reconciler.answer(prompt_id, choice)]

    def decline(self, prompt_id: int, nothing_happened: bool = False) -> list[JSON]:
        """"None of these" or "nothing happened" for an open prompt. Raises UnknownOpen."""
        with self._rec_lock:
            return [o.to_json() for o in self.reconciler.decline(prompt_id, nothing_happened)]

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

    def observe(self, obs: Observation) -> None:
        """A device's observation: to the health panel and the reconciler (as an adapter's
        ``emit``)."""
        self.running.observe(obs)

    def open_questions(self) -> tuple[Prompt | None, Discrepancy | None]:
        """The reconciler's open prompt and discrepancy (read under its lock)."""
        with self._rec_lock:
            return self.reconciler.prompt, self.reconciler.discrepancy

    def entered(self) -> int:
        """How many actions of the current game are in effect (0 without a game)."""
        game_id = self.service.current_game_id
        return 0 if game_id is None else len(self.store.effective_actions(game_id))

    def evidence(self, game_id: int) -> list[JSON]:
        """The observations behind each sensor-made action of a game, by seq (read from the
        event log: `TableService.evidence`). Raises NoGame."""
        return self.service.evidence(game_id)

    def camera(self) -> Any:
        """The running `CameraAdapter` (for the calibration page and crops), or None (no
        OpenCV import here: a service without a camera never loads it)."""
        return next((a for a in self.adapters if hasattr(a, "last_frame")), None)

    @property
    def threads(self) -> list[threading.Thread]:
        return list(self._threads)

    # -- internals -----------------------------------------------------------------------

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        t = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(t)
        t.start()

    def _reconciler_loop(self) -> None:
        last_tick = 0.0
        while not self._stop.is_set():
            deadline = time.monotonic() + 0.1
            while True:
                if self.service.current_game_id is not None:
                    with self._rec_lock:  # tick as soon as a reading has settled
                        due = self.reconciler.table.next_due(time.monotonic())
                    if due is not None:  # (at most one tick per 5 ms)
                        deadline = min(deadline, max(due + 0.001, last_tick + 0.005))
                    if self.reconciler.going_on:  # a search stopped at a look's share
                        deadline = min(deadline, last_tick + 0.005)
                try:
                    obs = self._inbox.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if obs is None:
                    return
                if isinstance(obs, Health):
                    self.sensing.publish("health", to_json(obs))
                else:
                    self._tell_seen(obs)
                with self._rec_lock:
                    self.reconciler.observe(obs)
            if self.service.current_game_id is None:
                continue
            try:
                with self._rec_lock:
                    # the zone maps as they are now (the readers page may change them)
                    self.reconciler.covered = covered_zones(self.adapters)
                    last_tick = time.monotonic()
                    self.reconciler.tick(last_tick)
            except Exception:
                log.exception("reconciler tick failed")

    def _tell_seen(self, obs: Observation) -> None:
        """A reading in words on the live feed (``seen``), when it differs from the last
        one of the same device at the same place: the page's "What the sensors saw"."""
        words = seen_words(obs)
        if words is None:
            return
        place = next((str(getattr(obs, f)) for f in ("zone", "region", "track", "reader")
                      if hasattr(obs, f)), obs.kind)
        if isinstance(obs, MarkerCell):  # one track, a marker per player
            place = f"{place}/{obs.marker}"
        key = (obs.source, place)
        if self._seen.get(key) == words:
            return
        self._seen[key] = words
        self.sensing.publish("seen", {"source": obs.source, "place": place, "words": words})

    def _outcome(self, outcome: Outcome) -> None:
        data = outcome.to_json()
        self.sensing.publish(outcome.kind if not isinstance(outcome, Closed) else "closed", data)


__all__ = ["Runtime", "SensingFeed", "ServiceLink", "build_adapters"]
