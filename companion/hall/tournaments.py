"""Tournaments in the hall's database: made by the organiser, rounds of table assignments,
each assignment's game found by itself, standings (`companion.hall.standings`).

A round assigns people to the seats (colours) of tables. The round's game at a table is the
first game that table announces after the assignment was made (``game_id`` greater than the
table's last game then): the organiser assigns, the table starts a new game, and the hall
links them. Functions take a psycopg connection; they raise psycopg.Error, and ValueError
(naming what is wrong) for rules or assignments that cannot be.
"""

from __future__ import annotations

import json
from typing import Any

from companion.hall.scoreboard import ranking
from companion.hall.standings import (
    DEFAULT_POINTS,
    TIE_BREAKS,
    Result,
    check_rules,
    standings,
)
from companion.hall.topics import check_table_name

__all__ = ["add_round", "create", "detail", "league_results", "listing"]

_COLOURS = ("red", "yellow", "blue", "white")  # Village's families (seed 000, Contenu)


def create(conn: Any, name: str, points: Any = None, tie_breaks: Any = None) -> int:
    """A new tournament; its id. Raises ValueError for an empty name or bad rules."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name: the tournament needs a name")
    pts, ties = check_rules(list(DEFAULT_POINTS) if points is None else points,
                            list(TIE_BREAKS) if tie_breaks is None else tie_breaks)
    row = conn.execute("INSERT INTO hall_tournaments (name, points, tie_breaks) VALUES"
                       " (%s, %s, %s) RETURNING id",
                       (name.strip(), json.dumps(pts), json.dumps(ties))).fetchone()
    return int(row[0])


def _check_seats(assignments: Any) -> dict[str, dict[str, str]]:
    if not isinstance(assignments, dict) or not assignments:
        raise ValueError("tables: {table: {colour: person}} with at least one table")
    seen: set[str] = set()
    out: dict[str, dict[str, str]] = {}
    for table, seats in assignments.items():
        check_table_name(table)
        if not isinstance(seats, dict) or not 2 <= len(seats) <= 4:
            raise ValueError(f"table {table}: 2 to 4 seats, {{colour: person}}")
        for colour, person in seats.items():
            if colour not in _COLOURS or not isinstance(person, str) or not person.strip():
                raise ValueError(f"table {table}: seat {colour!r} → {person!r} is not a"
                                 " colour and a name")
            if person.strip() in seen:
                raise ValueError(f"{person.strip()} is seated twice in one round")
            seen.add(person.strip())
        out[table] = {c: p.strip() for c, p in seats.items()}
    return out


def add_round(conn: Any, tournament_id: int, assignments: Any) -> int:
    """The tournament's next round with these seats (``{table: {colour: person}}``); its
    number. Raises ValueError for an unknown tournament or seats that cannot be (a person
    twice, a table name that cannot be one, not 2–4 seats)."""
    seats = _check_seats(assignments)
    with conn.transaction():
        if conn.execute("SELECT 1 FROM hall_tournaments WHERE id = %s FOR UPDATE",
                        (tournament_id,)).fetchone() is None:
            raise ValueError(f"no tournament {tournament_id}")
        number = int(conn.execute("SELECT coalesce(max(number), 0) + 1 FROM hall_rounds"
                                  " WHERE tournament_id = %s", (tournament_id,)).fetchone()[0])
        conn.execute("INSERT INTO hall_rounds (tournament_id, number) VALUES (%s, %s)",
                     (tournament_id, number))
        for table, who in seats.items():
            conn.execute(
                "INSERT INTO hall_assignments (tournament_id, round, table_name, seats,"
                " after_game) VALUES (%s, %s, %s, %s, (SELECT coalesce(max(game_id), 0)"
                " FROM hall_games WHERE table_name = %s))",
                (tournament_id, number, table, json.dumps(who), table))
    return number


def listing(conn: Any) -> list[dict[str, Any]]:
    """Every tournament, newest first: ``id``, ``name``, ``created``, ``rounds``."""
    return [{"id": int(i), "name": n, "created": c.isoformat(), "rounds": int(r)}
            for i, n, c, r in conn.execute(
                "SELECT t.id, t.name, t.created, (SELECT count(*) FROM hall_rounds r"
                " WHERE r.tournament_id = t.id) FROM hall_tournaments t ORDER BY t.id DESC")]


_GAMES_SQL = """
SELECT a.round, a.table_name, a.seats, g.game_id, s.state, s.over, g.header
FROM hall_assignments a
LEFT JOIN LATERAL (SELECT game_id, header FROM hall_games h WHERE h.table_name = a.table_name
                   AND h.game_id > a.after_game ORDER BY game_id LIMIT 1) g ON true
LEFT JOIN hall_game_states s ON s.table_name = a.table_name AND s.game_id = g.game_id
WHERE a.tournament_id = %s ORDER BY a.round, a.table_name
"""


def _games(conn: Any, tournament_id: int) -> list[dict[str, Any]]:
    out = []
    for rnd, table, seats, game_id, state, over, header in conn.execute(
            _GAMES_SQL, (tournament_id,)):
        rows = ranking(state) if over and state else []
        results = [Result(seats.get(r["player"], r["player"]), r["place"], r["points"],
                          r["customers"], r["living"], int(rnd), table,
                          tuple((header or {}).get("expansions") or ()))
                   for r in rows]
        out.append({"round": int(rnd), "table": table, "seats": seats,
                    "game_id": None if game_id is None else int(game_id),
                    "status": "waiting" if game_id is None else
                    ("over" if over else "playing"),
                    "results": results})
    return out


def detail(conn: Any, tournament_id: int) -> dict[str, Any] | None:
    """A tournament with its rules, its rounds' games (``status`` waiting, playing or
    over; ``results`` once over) and its standings. None for an unknown id."""
    row = conn.execute("SELECT name, points, tie_breaks, created FROM hall_tournaments"
                       " WHERE id = %s", (tournament_id,)).fetchone()
    if row is None:
        return None
    name, points, ties, created = row
    games = _games(conn, tournament_id)
    table = standings([r for g in games for r in g["results"]], points, ties)
    rounds = sorted({g["round"] for g in games})
    return {"id": tournament_id, "name": name, "points": points, "tie_breaks": ties,
            "created": created.isoformat(), "rounds": rounds, "games": games,
            "standings": table}


def league_results(conn: Any) -> list[Result]:
    """Every person's result in every finished tournament game, all tournaments."""
    ids = [int(i) for (i,) in conn.execute("SELECT id FROM hall_tournaments ORDER BY id")]
    return [r for i in ids for g in _games(conn, i) for r in g["results"]]
