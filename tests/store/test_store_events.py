"""Appending, reading and undoing events in one SQLite file."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from companion.store import (
    SCHEMA_VERSION,
    SOURCES,
    ConcurrentAppend,
    Event,
    EventStore,
    NothingToUndo,
    StoreError,
    UnknownGame,
)


def act(n: int) -> dict[str, Any]:
    return {"type": "work", "player": "red", "n": n}


def seqs(events: list[Event]) -> list[int]:
    return [e.seq for e in events]


HEADER = {"game": "village", "version": 1, "players": ["red", "blue"]}


# -- settings and lifecycle ---------------------------------------------------------------


def test_pragmas_take_effect(store: EventStore, db_path: Path) -> None:
    assert store.settings() == {
        "journal_mode": "wal",
        "synchronous": 2,  # FULL
        "foreign_keys": 1,
        "user_version": SCHEMA_VERSION,
    }
    # WAL is a property of the file: a plain connection sees it too.
    other = sqlite3.connect(db_path)
    try:
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert other.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        other.close()


def test_reopen_keeps_games_and_events(db_path: Path) -> None:
    with EventStore(db_path) as s:
        g = s.create_game(dict(HEADER), label="kept")
        s.append(g, act(1), "tablet")
        s.append(g, act(2), "camera")
        s.append_revert(g, "tablet")
        before = s.events(g)
    with EventStore(db_path) as s:
        assert s.events(g) == before
        assert s.effective_actions(g) == [act(1)]
        assert s.header(g) == HEADER
        assert [(i.id, i.label, i.event_count) for i in s.games()] == [(g, "kept", 3)]


def test_newer_schema_is_refused(db_path: Path) -> None:
    EventStore(db_path).close()
    raw = sqlite3.connect(db_path)
    raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    raw.close()
    with pytest.raises(StoreError, match="newer than this code"):
        EventStore(db_path)


def test_in_memory_database_is_refused() -> None:
    with pytest.raises(StoreError, match="WAL"):
        EventStore(":memory:")


def test_close_is_idempotent_and_context_manager_closes(db_path: Path) -> None:
    with EventStore(db_path) as s:
        s.create_game(dict(HEADER))
    s.close()
    with pytest.raises(sqlite3.ProgrammingError):
        s.games()


def test_clock_sets_times(db_path: Path) -> None:
    moments = iter(datetime(2024, 5, 1, 12, 0, tzinfo=UTC) + timedelta(seconds=i) for i in range(9))
    with EventStore(db_path, clock=lambda: next(moments)) as s:
        g = s.create_game(dict(HEADER))
        e = s.append(g, act(1), "demo")
        assert s.games()[0].created == "2024-05-01T12:00:00.000000+00:00"
        assert e.time == "2024-05-01T12:00:01.000000+00:00"


def test_clock_is_converted_to_utc_and_must_be_aware(db_path: Path) -> None:
    paris = datetime(2024, 5, 1, 14, 0, tzinfo=UTC).astimezone(timezone(timedelta(hours=2)))
    with EventStore(db_path, clock=lambda: paris) as s:
        g = s.create_game(dict(HEADER))
        assert s.append(g, act(1), "demo").time == "2024-05-01T14:00:00.000000+00:00"
    with EventStore(db_path, clock=lambda: datetime(2024, 5, 1)) as s:
        with pytest.raises(ValueError, match="aware"):
            s.append(g, act(2), "demo")
        assert s.last_seq(g) == 1


def test_default_time_is_utc_iso(store: EventStore, game: int) -> None:
    before = datetime.now(UTC)
    e = store.append(game, act(1), "demo")
    moment = datetime.fromisoformat(e.time)
    assert moment.utcoffset() == timedelta(0)
    assert before <= moment <= datetime.now(UTC)


# -- games --------------------------------------------------------------------------------


def test_new_game_is_empty(store: EventStore, game: int, header: dict[str, Any]) -> None:
    assert store.last_seq(game) == 0
    assert store.events(game) == []
    assert store.effective_actions(game) == []
    assert store.header(game) == header
    [info] = store.games()
    assert (info.id, info.header, info.label, info.event_count) == (game, header, "test game", 0)


@pytest.mark.parametrize(
    ("header", "error"),
    [
        ({"players": []}, ValueError),
        ({"game": ""}, ValueError),
        ({"game": 3}, ValueError),
        (["game"], ValueError),
        ({"game": "village", "x": float("nan")}, ValueError),
        ({"game": "village", "x": {1, 2}}, TypeError),
    ],
)
def test_create_game_checks_header(store: EventStore, header: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        store.create_game(header)
    assert store.games() == []


def test_games_in_one_database_are_independent(store: EventStore) -> None:
    a = store.create_game({"game": "village", "players": ["red"]}, label="A")
    b = store.create_game({"game": "village", "players": ["blue"]})
    store.append(a, act(1), "tablet")
    store.append(b, act(10), "tablet")
    store.append(a, act(2), "tablet")
    store.append(b, act(20), "tablet")
    store.append(b, act(30), "tablet")
    store.append_revert(a, "tablet")

    assert seqs(store.events(a)) == [1, 2, 3]
    assert seqs(store.events(b)) == [1, 2, 3]
    assert store.effective_actions(a) == [act(1)]
    assert store.effective_actions(b) == [act(10), act(20), act(30)]
    assert store.header(a)["players"] == ["red"]
    assert store.header(b)["players"] == ["blue"]
    assert [(i.id, i.label, i.event_count) for i in store.games()] == [(a, "A", 3), (b, None, 3)]
    with pytest.raises(ConcurrentAppend):  # a's seq says nothing about b
        store.append(b, act(40), "tablet", expected_seq=store.last_seq(a) - 1)


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.header(99),
        lambda s: s.events(99),
        lambda s: s.last_seq(99),
        lambda s: s.effective_actions(99),
        lambda s: s.export_record(99),
        lambda s: s.append(99, act(1), "tablet"),
        lambda s: s.append_revert(99, "tablet"),
    ],
)
def test_unknown_game_raises(store: EventStore, game: int, call: Any) -> None:
    with pytest.raises(UnknownGame, match="99") as info:
        call(store)
    assert info.value.game_id == 99
    assert isinstance(info.value, LookupError)


# -- appending ----------------------------------------------------------------------------


def test_append_numbers_from_one_and_returns_the_stored_event(store: EventStore, game: int) -> None:
    first = store.append(game, act(1), "tablet")
    second = store.append(game, act(2), "tag_reader")
    assert (first.game_id, first.seq, first.source, first.kind, first.payload) == (
        game,
        1,
        "tablet",
        "action",
        act(1),
    )
    assert second.seq == 2
    assert store.events(game) == [first, second]
    assert store.last_seq(game) == 2


def test_every_source_is_accepted(store: EventStore, game: int) -> None:
    for source in sorted(SOURCES):
        store.append(game, act(0), source)
    assert [e.source for e in store.events(game)] == sorted(SOURCES)
    assert sorted(SOURCES) == ["camera", "demo", "import", "tablet", "tag_reader", "virtual_bag"]


@pytest.mark.parametrize("source", ["", "Tablet", "web", "tablet "])
def test_unknown_source_raises_and_writes_nothing(
    store: EventStore, game: int, source: str
) -> None:
    store.append(game, act(1), "tablet")
    with pytest.raises(ValueError, match="source"):
        store.append(game, act(2), source)
    with pytest.raises(ValueError, match="source"):
        store.append_revert(game, source)
    assert seqs(store.events(game)) == [1]


@pytest.mark.parametrize(
    ("action", "error"),
    [
        ([1, 2], TypeError),
        ("work", TypeError),
        ({"n": float("inf")}, ValueError),
        ({"n": {1}}, TypeError),
        ({"s": "\ud800"}, ValueError),  # a lone surrogate is not storable text
    ],
)
def test_bad_action_raises_and_writes_nothing(
    store: EventStore, game: int, action: Any, error: type[Exception]
) -> None:
    with pytest.raises(error):
        store.append(game, action, "tablet")
    assert store.last_seq(game) == 0


def test_payload_is_a_copy(store: EventStore, game: int) -> None:
    cubes = [1, 2]
    action = {"type": "work", "cubes": cubes}
    event = store.append(game, action, "tablet")
    cubes.append(3)
    event.payload["type"] = "changed"
    assert store.effective_actions(game) == [{"type": "work", "cubes": [1, 2]}]


def test_unicode_payload_round_trips(store: EventStore, game: int) -> None:
    action = {"note": "Père Noël\u2028ligne 🎲", "ß": None, "nested": {"a": [True, 1.5, -0.0]}}
    store.append(game, action, "tablet")
    assert store.effective_actions(game) == [action]


def test_event_to_json(store: EventStore, game: int) -> None:
    e = store.append(game, {"type": "work", "note": "é"}, "camera")
    assert json.loads(e.to_json()) == e.to_dict()
    assert e.to_dict() == {
        "game_id": game,
        "seq": 1,
        "time": e.time,
        "source": "camera",
        "kind": "action",
        "payload": {"type": "work", "note": "é"},
    }
    assert "\n" not in e.to_json() and ", " not in e.to_json()


def test_events_after(store: EventStore, game: int) -> None:
    for n in range(1, 6):
        store.append(game, act(n), "tablet")
    assert seqs(store.events(game, after=3)) == [4, 5]
    assert store.events(game, after=5) == []
    assert seqs(store.events(game, after=0)) == [1, 2, 3, 4, 5]


# -- optimistic concurrency ---------------------------------------------------------------


def test_expected_seq_matching_appends(store: EventStore, game: int) -> None:
    assert store.append(game, act(1), "tablet", expected_seq=0).seq == 1
    assert store.append(game, act(2), "tablet", expected_seq=1).seq == 2
    assert store.append_revert(game, "tablet", expected_seq=2).seq == 3


@pytest.mark.parametrize("stale", [0, 1, 3, 7])
def test_expected_seq_conflict_raises_and_writes_nothing(
    store: EventStore, game: int, stale: int
) -> None:
    store.append(game, act(1), "tablet")
    store.append(game, act(2), "tablet")
    before = store.events(game)
    with pytest.raises(ConcurrentAppend) as info:
        store.append(game, act(3), "tablet", expected_seq=stale)
    assert (info.value.game_id, info.value.expected, info.value.actual) == (game, stale, 2)
    with pytest.raises(ConcurrentAppend):
        store.append_revert(game, "tablet", expected_seq=stale)
    assert store.events(game) == before
    assert store.games()[0].event_count == 2


def test_stale_expected_seq_wins_over_nothing_to_undo(store: EventStore, game: int) -> None:
    with pytest.raises(ConcurrentAppend):
        store.append_revert(game, "tablet", expected_seq=5)


# -- undo ---------------------------------------------------------------------------------


def test_undo_twice_undoes_two_actions(store: EventStore, game: int) -> None:
    for n in range(1, 4):
        store.append(game, act(n), "tablet")
    first = store.append_revert(game, "tablet")
    second = store.append_revert(game, "tag_reader")
    assert (first.kind, first.payload, first.seq) == ("revert", {"reverts": 3}, 4)
    assert (second.kind, second.payload, second.seq) == ("revert", {"reverts": 2}, 5)
    assert second.source == "tag_reader"
    assert store.effective_actions(game) == [act(1)]


def test_reverted_events_are_still_listed(store: EventStore, game: int) -> None:
    store.append(game, act(1), "tablet")
    store.append(game, act(2), "tablet")
    store.append_revert(game, "tablet")
    events = store.events(game)
    assert [(e.seq, e.kind, e.payload) for e in events] == [
        (1, "action", act(1)),
        (2, "action", act(2)),
        (3, "revert", {"reverts": 2}),
    ]
    assert store.last_seq(game) == 3


def test_undo_after_new_action_skips_reverted_ones(store: EventStore, game: int) -> None:
    store.append(game, act(1), "tablet")  # 1
    store.append(game, act(2), "tablet")  # 2
    store.append_revert(game, "tablet")  # 3 reverts 2
    store.append(game, act(3), "tablet")  # 4
    assert store.effective_actions(game) == [act(1), act(3)]
    assert store.append_revert(game, "tablet").payload == {"reverts": 4}
    assert store.append_revert(game, "tablet").payload == {"reverts": 1}
    assert store.effective_actions(game) == []


def test_undo_with_nothing_raises_and_writes_nothing(store: EventStore, game: int) -> None:
    with pytest.raises(NothingToUndo):
        store.append_revert(game, "tablet")
    store.append(game, act(1), "tablet")
    store.append_revert(game, "tablet")
    with pytest.raises(NothingToUndo) as info:
        store.append_revert(game, "tablet")
    assert info.value.game_id == game
    assert seqs(store.events(game)) == [1, 2]
