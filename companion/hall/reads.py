"""What the hall pages read from PostgreSQL: each table's card, a game's public record, the
finished games. Every function takes a psycopg connection and raises psycopg.Error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from companion.hall.scoreboard import card, ranking
from companion.table.playlog import PlayLog, play_log

__all__ = ["cards", "finished_games", "game_record", "play_log_of", "table_card"]

_CARD_SQL = (
    "SELECT s.table_name, s.game_id, s.seq, s.state, g.header FROM hall_states s"
    " LEFT JOIN hall_games g ON g.table_name = s.table_name AND g.game_id = s.game_id")


def _card(row: tuple[Any, ...]) -> dict[str, Any]:
    table, game_id, seq, state, header = row
    out = card(table, int(game_id), int(seq), state)
    out["players"] = (header or {}).get("players") or list((state or {}).get("players") or [])
    return out


def cards(conn: Any) -> list[dict[str, Any]]:
    """Every table's card (`companion.hall.scoreboard.card`), by table name."""
    return [_card(r) for r in conn.execute(_CARD_SQL + " ORDER BY s.table_name")]


def table_card(conn: Any, table: str) -> dict[str, Any] | None:
    """One table's card (None: the hall has no state from it)."""
    row = conn.execute(_CARD_SQL + " WHERE s.table_name = %s", (table,)).fetchone()
    return None if row is None else _card(row)


def game_record(conn: Any, table: str, game_id: int) -> Iterator[str] | None:
    """A game's public record as JSON Lines: its public header (with ``table`` and
    ``game_id``), then every event as the table published it, in seq order (reverts
    included). None for a game the hall does not hold. Not a record the table can replay
    when the game hid anything: a private outcome was never published."""
    row = conn.execute("SELECT header FROM hall_games WHERE table_name = %s AND game_id = %s",
                       (table, game_id)).fetchone()
    if row is None:
        return None
    head = {**row[0], "table": table, "game_id": game_id}
    events = conn.execute("SELECT message FROM hall_events WHERE table_name = %s"
                          " AND game_id = %s ORDER BY seq", (table, game_id)).fetchall()

    def lines() -> Iterator[str]:
        yield json.dumps(head, separators=(",", ":")) + "\n"
        for (message,) in events:
            yield json.dumps(message, separators=(",", ":")) + "\n"
    return lines()


def finished_games(conn: Any, limit: int = 500) -> list[dict[str, Any]]:
    """The finished games, newest first: ``table``, ``game_id``, ``header``, ``started`` and
    ``ended`` (the first and last event's table time, ISO 8601), ``events``, ``ranking``
    (`companion.hall.scoreboard.ranking`) and ``winner``."""
    rows = conn.execute(
        "SELECT s.table_name, s.game_id, s.state, g.header,"
        " (SELECT min(time) FROM hall_events e WHERE e.table_name = s.table_name"
        "   AND e.game_id = s.game_id),"
        " (SELECT max(time) FROM hall_events e WHERE e.table_name = s.table_name"
        "   AND e.game_id = s.game_id),"
        " s.seq FROM hall_game_states s JOIN hall_games g ON g.table_name = s.table_name"
        " AND g.game_id = s.game_id WHERE s.over ORDER BY s.received DESC LIMIT %s",
        (limit,)).fetchall()
    return [{"table": t, "game_id": int(g), "header": h, "started": a, "ended": b,
             "events": int(seq), "ranking": ranking(st), "winner": st.get("winner"),
             "state": st} for t, g, st, h, a, b, seq in rows]


def play_log_of(conn: Any, table: str, game_id: int) -> PlayLog | None:
    """The play log of a finished game the hall holds (`companion.table.playlog`), its
    players named as a tournament seated them (else by colour), the table's name as its
    location. None when the hall has no such finished game."""
    row = conn.execute(
        "SELECT g.header, s.state, (SELECT min(time) FROM hall_events e WHERE"
        " e.table_name = g.table_name AND e.game_id = g.game_id), (SELECT max(time) FROM"
        " hall_events e WHERE e.table_name = g.table_name AND e.game_id = g.game_id)"
        " FROM hall_games g JOIN hall_game_states s ON s.table_name = g.table_name AND"
        " s.game_id = g.game_id WHERE g.table_name = %s AND g.game_id = %s AND s.over",
        (table, game_id)).fetchone()
    if row is None or row[2] is None:
        return None
    header, state, started, ended = row
    seats = conn.execute(
        "SELECT a.seats FROM hall_assignments a WHERE a.table_name = %s AND a.after_game < %s"
        " AND NOT EXISTS (SELECT 1 FROM hall_games h WHERE h.table_name = a.table_name"
        " AND h.game_id > a.after_game AND h.game_id < %s)"
        " ORDER BY a.after_game DESC LIMIT 1", (table, game_id, game_id)).fetchone()
    return play_log(f"{table}/{game_id}", header, state, started, ended,
                    names=seats[0] if seats else None, location=table)
