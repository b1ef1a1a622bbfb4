"""A table's way to the hall: its own SQLite event log read as an outbox.

`HallPublisher` runs in its own thread with its own connection to the games database, so
the table never waits on the broker: a tap is stored and shown as before while the broker
is down, and the publisher catches up when it comes back. For each game it publishes the
game's announcement (seq 0) and then every stored event's public form
(`companion.hall.public`) in seq order, QoS 1, at most `WINDOW` events beyond what the hall
has acknowledged. The hall answers with the last seq it has stored without a gap; that is
written to a small SQLite file of the publisher's own (`Outbox`, ``<db>.hall.sqlite3``), so
after a restart of the table, the broker or the hall, publishing resumes from there. On
every (re)connection, and when no acknowledgement has come for `STALL_S` seconds, it sends
again from the last acknowledged seq, and likewise when the hall announces it is back
(a new epoch on `companion.hall.topics.ONLINE`): the hall stores each (table, game, seq) once, so a
message sent twice costs nothing but the sending.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Final

from companion import games
from companion.hall.mqtt import connect
from companion.hall.public import PublicState, public_event, public_game, public_state
from companion.hall.topics import (
    ONLINE,
    BrokerUrl,
    ack_topic,
    check_table_name,
    events_topic,
    state_topic,
)
from companion.store import EventStore, GameInfo

__all__ = ["FULL_SCAN_S", "STALL_S", "WINDOW", "HallPublisher", "Outbox", "outbox_path"]

log = logging.getLogger(__name__)

WINDOW: Final = 500
"""Events of one game published beyond the last acknowledged one."""
STALL_S: Final = 10.0
"""Seconds without an acknowledgement, with events outstanding, before sending them again."""
FULL_SCAN_S: Final = 60.0
"""Seconds between two looks at every stored game (see `HallPublisher._to_publish`)."""


def outbox_path(db: Path) -> Path:
    """Where a games database's outbox is kept: ``<db>.hall.sqlite3``."""
    return db.with_suffix(".hall.sqlite3")


class Outbox:
    """The last seq of each game the hall has acknowledged (-1: not even the game), in a
    SQLite file of its own (created if missing). Thread-safe. Raises sqlite3.Error for a
    file it cannot open."""

    def __init__(self, path: Path) -> None:
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("CREATE TABLE IF NOT EXISTS acked ("
                           " game_id INTEGER PRIMARY KEY, seq INTEGER NOT NULL)")

    def acked(self) -> dict[int, int]:
        """Every game's acknowledged seq."""
        with self._lock:
            return dict(self._conn.execute("SELECT game_id, seq FROM acked").fetchall())

    def advance(self, game_id: int, seq: int) -> bool:
        """Record that the hall holds ``game_id`` up to ``seq``; never goes back. Returns
        whether it moved."""
        with self._lock:
            cur = self._conn.execute(
                "INSERT INTO acked (game_id, seq) VALUES (?, ?) ON CONFLICT (game_id)"
                " DO UPDATE SET seq = excluded.seq WHERE excluded.seq > acked.seq",
                (game_id, seq))
            return cur.rowcount > 0

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class HallPublisher:
    """Publishes a games database's events to the hall (see the module's docstring).

    ``start()`` then ``stop()``; ``wake()`` after a change (else the store is read every
    ``poll`` seconds). Raises ImportError (on start) without paho-mqtt, ValueError for a
    table name that cannot be a topic level."""

    def __init__(self, db: Path, table: str, url: BrokerUrl, *, poll: float = 0.5,
                 stall: float = STALL_S, window: int = WINDOW) -> None:
        self.db = Path(db)
        self.table = check_table_name(table)
        self.url = url
        self.poll = poll
        self.stall = stall
        self.window = window
        self.outbox = Outbox(outbox_path(self.db))
        self._acked: dict[int, int] = self.outbox.acked()
        self._sent: dict[int, int] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._connected = threading.Event()
        self._rewind = True
        self._last_progress = time.monotonic()
        self._state_key: tuple[int, int] | None = None
        self._known: dict[int, GameInfo] = {}
        """Every game seen, with its last seq when last looked at."""
        self._dirty: set[int] = set()
        self._scanned = -FULL_SCAN_S
        self._public = PublicState()
        self._epoch: str | None = None
        self._thread: threading.Thread | None = None
        self._client: Any = None
        self.published = 0
        """Messages handed to the client so far (events and announcements, resends too)."""

    # -- lifecycle -----------------------------------------------------------------------

    def start(self) -> None:
        """Connect (in the background) and start publishing."""
        self._client = connect(self.url, f"village-table-{self.table}",
                               on_connect=self._on_connect, on_message=self._on_message,
                               on_disconnect=self._on_disconnect)
        self._thread = threading.Thread(target=self._run, name="hall-publisher", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop publishing and disconnect (what is not acknowledged is sent next time)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5.0)
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        self.outbox.close()

    def wake(self, notice: object = None, *_: object) -> None:
        """Something was stored: publish it now (usable as a feed listener; a notice's
        ``game_id`` says which game to look at)."""
        game_id = getattr(notice, "game_id", 0)
        if isinstance(game_id, int) and game_id > 0:
            with self._lock:
                self._dirty.add(game_id)
        self._wake.set()

    def acked(self) -> dict[int, int]:
        """What the hall has acknowledged, by game."""
        with self._lock:
            return dict(self._acked)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    # -- the broker's callbacks (paho's thread) ------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("hall broker refused the connection: %s", reason)
            return
        client.subscribe([(ack_topic(self.table), 1), (ONLINE, 1)])
        with self._lock:
            self._rewind = True
        self._connected.set()
        self._wake.set()

    def _on_disconnect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self._connected.clear()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        if message.topic == ONLINE:
            epoch = message.payload.decode("utf-8", "replace")
            with self._lock:  # the first epoch seen: the connection's own rewind suffices
                if epoch != self._epoch:
                    self._rewind = self._rewind or self._epoch is not None
                    self._epoch = epoch
            self._wake.set()
            return
        try:
            ack = json.loads(message.payload)
            game_id, seq = int(ack["game_id"]), int(ack["seq"])
        except (ValueError, KeyError, TypeError):
            log.warning("unreadable hall acknowledgement on %s", message.topic)
            return
        if self.outbox.advance(game_id, seq):
            with self._lock:
                self._acked[game_id] = max(seq, self._acked.get(game_id, -1))
                self._last_progress = time.monotonic()
            self._wake.set()

    # -- the publishing thread -----------------------------------------------------------

    def _run(self) -> None:
        store = EventStore(self.db)
        try:
            while not self._stop.is_set():
                self._wake.wait(self.poll)
                self._wake.clear()
                if self._stop.is_set() or not self._connected.is_set():
                    continue
                try:
                    self._pump(store)
                except Exception:
                    log.exception("hall publisher failed; trying again")
                    time.sleep(self.poll)
        finally:
            store.close()

    def _pump(self, store: EventStore) -> None:
        now = time.monotonic()
        with self._lock:
            outstanding = any(self._sent.get(g, -1) > a for g, a in self._acked.items()) or \
                any(g not in self._acked for g in self._sent)
            if self._rewind or (outstanding and now - self._last_progress > self.stall):
                self._sent.clear()
                self._rewind = False
                self._state_key = None  # the state too: a broker short of room drops it
                self._last_progress = now
            elif not outstanding:
                self._last_progress = now
            acked = dict(self._acked)
        for game in self._to_publish(store, acked, now):
            done = acked.get(game.id, -1)
            sent = max(done, self._sent.get(game.id, -1))
            if sent < 0:
                self._publish(events_topic(self.table),
                              public_game(self.table, game.id, game.header))
                sent = 0
            limit = done + self.window
            for event in store.events(game.id, after=sent):
                if event.seq > limit:
                    break
                self._publish(events_topic(self.table),
                              public_event(self.table, games.for_header(game.header), event))
                sent = event.seq
            self._sent[game.id] = sent
        if self._known:
            last = self._known[max(self._known)]
            if self._state_key != (last.id, last.event_count):
                since = 0 if self._state_key is None or self._state_key[0] != last.id \
                    else self._state_key[1]
                events = store.events(last.id, after=since)
                state = self._public.after(last.id, last.header, events,
                                           lambda seq: [e for e in store.events(last.id)
                                                        if e.seq <= seq])
                seq = events[-1].seq if events else since
                self._publish(state_topic(self.table),
                              public_state(self.table, games.for_header(last.header), last.id,
                                           seq, state), retain=True)
                self._state_key = (last.id, seq)

    def _to_publish(self, store: EventStore, acked: dict[int, int],
                    now: float) -> list[GameInfo]:
        """The games with something the hall has not acknowledged, their last seqs fresh.

        Only new games, games a notice named and games not yet acknowledged to their end
        are looked at (`EventStore.games_since`: an index look-up each); every game is
        looked at again once per `FULL_SCAN_S`, in case another process wrote to the file
        (an import). So months of finished games cost nothing every `poll`."""
        with self._lock:
            dirty, self._dirty = self._dirty, set()
        if now - self._scanned >= FULL_SCAN_S:
            listed = store.games_since(0)
            self._scanned = now
        else:
            behind = {g for g, info in self._known.items()
                      if acked.get(g, -1) < max(info.event_count, 0)}
            listed = store.games_since(max(self._known, default=0), dirty | behind)
        for info in listed:
            self._known[info.id] = info
        return [info for gid, info in sorted(self._known.items())
                if acked.get(gid, -1) < 0 or acked[gid] < info.event_count]

    def _publish(self, topic: str, message: dict[str, Any], retain: bool = False) -> None:
        self._client.publish(topic, json.dumps(message, separators=(",", ":")), qos=1,
                             retain=retain)
        self.published += 1
