"""The hall: subscribes to every table's events and state, stores them in PostgreSQL, and
acknowledges to each table the last seq of each game it holds without a gap.

Each event is inserted keyed (table, game, seq) with ``ON CONFLICT DO NOTHING``: a message
delivered twice (a resend, a broker's redelivery) is stored once. The broker's delivery is
acknowledged only after the transaction has committed (paho's manual acks), so a hall killed
mid-write gets the message again from its persistent session. A message whose ``table``
differs from its topic's is refused (one table cannot write another's games); so is one that
cannot be read. Reverts are stored as they come, like any event.
"""

from __future__ import annotations

import json
import logging
import threading
import uuid
from typing import Any, Final

from companion.hall.migrations import migrate
from companion.hall.topics import ONLINE, ROOT, BrokerUrl, ack_topic, table_of

__all__ = ["Hall"]

log = logging.getLogger(__name__)

_EVENT_FIELDS: Final = ("kind", "type", "source", "time", "reverts")


class Hall:
    """``start()`` connects to PostgreSQL (``dsn``), applies the migrations, then subscribes
    (in paho's thread, retrying while the broker is down); ``stop()``. Raises psycopg.Error
    (on start) for a database it cannot reach or migrate, ImportError without psycopg or
    paho-mqtt."""

    def __init__(self, url: BrokerUrl, dsn: str, client_id: str = "village-hall") -> None:
        self.url = url
        self.dsn = dsn
        self.client_id = client_id
        self._db: Any = None
        self._client: Any = None
        self._lock = threading.Lock()
        self.stored = 0
        """Events inserted by this process (duplicates not counted)."""
        self.duplicates = 0
        """Events received again and not stored a second time."""
        self.refused = 0
        """Messages refused (unreadable, or a table writing under another's topic)."""

    def start(self) -> None:
        import psycopg

        self._db = psycopg.connect(self.dsn, autocommit=True)
        migrate(self._db)
        from companion.hall.mqtt import connect

        self._client = connect(self.url, self.client_id, on_connect=self._on_connect,
                               on_message=self._on_message, on_subscribe=self._on_subscribe,
                               manual_ack=True)

    def stop(self) -> None:
        if self._client is not None:
            self._client.disconnect()
            self._client.loop_stop()
        if self._db is not None:
            self._db.close()

    # -- paho's thread -------------------------------------------------------------------

    def _on_connect(self, client: Any, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("hall broker refused the connection: %s", reason)
            return
        client.subscribe([(f"{ROOT}/+/events", 1), (f"{ROOT}/+/state", 1)])

    def _on_subscribe(self, client: Any, userdata: Any, mid: int, reasons: Any,
                      properties: Any) -> None:
        # subscribed: now the tables may send again what the hall may have missed
        client.publish(ONLINE, uuid.uuid4().hex, qos=1, retain=True)

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self.handle(message.topic, message.payload)
        except (ValueError, KeyError, TypeError):
            self.refused += 1
            log.warning("hall refused a message on %s", message.topic)
        except Exception:  # the database is away: not acknowledged, so delivered again
            log.exception("hall could not store a message on %s", message.topic)
            self._reconnect_db()
            return
        client.ack(message.mid, message.qos)

    # -- storing -------------------------------------------------------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """Store one message (an event, a game's announcement, a table's state) and, for
        events, publish the table's acknowledgement. Raises psycopg.Error."""
        table = table_of(topic)
        try:
            message = json.loads(payload)
            ok = table is not None and isinstance(message, dict) \
                and message.get("table") == table and int(message.get("game_id", -1)) >= 0
        except (ValueError, TypeError):
            ok = False
        if not ok or table is None:
            self.refused += 1
            log.warning("hall refused a message on %s", topic)
            return
        if topic.endswith("/state"):
            self._store_state(table, message)
            return
        if not topic.endswith("/events"):
            return
        game_id = int(message["game_id"])
        with self._lock, self._db.transaction():
            if message.get("kind") == "game":
                inserted = self._db.execute(
                    "INSERT INTO hall_games (table_name, game_id, header) VALUES (%s, %s, %s)"
                    " ON CONFLICT DO NOTHING",
                    (table, game_id, json.dumps(message.get("header", {})))).rowcount
            else:
                inserted = self._insert_event(table, game_id, message)
            if inserted:
                self.stored += 1
            else:
                self.duplicates += 1
            acked = self._advance(table, game_id)
        if acked is not None:
            self._client.publish(ack_topic(table),
                                 json.dumps({"game_id": game_id, "seq": acked}), qos=1)

    def _insert_event(self, table: str, game_id: int, message: dict[str, Any]) -> int:
        seq = int(message["seq"])
        if seq < 1 or message.get("kind") not in ("action", "revert"):
            raise ValueError(f"not an event: seq {seq}, kind {message.get('kind')!r}")
        fields = [message.get(k) for k in _EVENT_FIELDS]
        return int(self._db.execute(
            "INSERT INTO hall_events (table_name, game_id, seq, kind, type, source, time,"
            " reverts, action, draw, message)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
            (table, game_id, seq, *fields, _json(message.get("action")),
             _json(message.get("draw")), json.dumps(message))).rowcount)

    def _advance(self, table: str, game_id: int) -> int | None:
        """Move the game's gap-free mark as far as the stored events go; returns it (None:
        the game's announcement has not come yet, nothing to acknowledge)."""
        row = self._db.execute(
            "SELECT acked FROM hall_progress WHERE table_name = %s AND game_id = %s"
            " FOR UPDATE", (table, game_id)).fetchone()
        acked = row[0] if row else -1
        if acked < 0:
            known = self._db.execute("SELECT 1 FROM hall_games WHERE table_name = %s"
                                     " AND game_id = %s", (table, game_id)).fetchone()
            if not known:
                return None
            acked = 0
        for (seq,) in self._db.execute(
                "SELECT seq FROM hall_events WHERE table_name = %s AND game_id = %s"
                " AND seq > %s ORDER BY seq LIMIT 10000", (table, game_id, acked)):
            if seq != acked + 1:
                break
            acked = seq
        self._db.execute(
            "INSERT INTO hall_progress (table_name, game_id, acked) VALUES (%s, %s, %s)"
            " ON CONFLICT (table_name, game_id) DO UPDATE SET acked = excluded.acked",
            (table, game_id, acked))
        return int(acked)

    def _store_state(self, table: str, message: dict[str, Any]) -> None:
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO hall_states (table_name, game_id, seq, state) VALUES"
                " (%s, %s, %s, %s) ON CONFLICT (table_name) DO UPDATE SET game_id ="
                " excluded.game_id, seq = excluded.seq, state = excluded.state,"
                " received = now()",
                (table, int(message["game_id"]), int(message.get("seq", 0)),
                 json.dumps(message.get("state"))))
            state = message.get("state")
            over = isinstance(state, dict) and bool(state.get("over"))
            self._db.execute(
                "INSERT INTO hall_game_states (table_name, game_id, seq, state, over) VALUES"
                " (%s, %s, %s, %s, %s) ON CONFLICT (table_name, game_id) DO UPDATE SET"
                " seq = excluded.seq, state = excluded.state, over = excluded.over,"
                " received = now() WHERE hall_game_states.seq <= excluded.seq",
                (table, int(message["game_id"]), int(message.get("seq", 0)),
                 json.dumps(state), over))

    def _reconnect_db(self) -> None:
        import psycopg

        with self._lock:
            try:
                if self._db is not None and self._db.closed:
                    self._db = psycopg.connect(self.dsn, autocommit=True)
            except psycopg.Error:
                log.warning("hall database still away")


def _json(value: Any) -> str | None:
    return None if value is None else json.dumps(value)
