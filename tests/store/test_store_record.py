"""Game records (JSON Lines): the pure reader/writer, and export/import through the store."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.store import EventStore, RecordError, format_record, parse_record

HEADER: dict[str, Any] = {
    "game": "village",
    "version": 1,
    "players": ["red", "blue"],
    "expansions": [],
}
ACTIONS: list[dict[str, Any]] = [
    {"type": "work", "player": "red", "space": "farm"},
    {"type": "draw", "bag": "green", "outcome": ["blue", "plague"]},
    {"type": "pass", "note": "Père Noël 🎲"},
]


def test_format_is_compact_json_lines() -> None:
    text = format_record(HEADER, ACTIONS)
    assert text == (
        '{"game":"village","version":1,"players":["red","blue"],"expansions":[]}\n'
        '{"type":"work","player":"red","space":"farm"}\n'
        '{"type":"draw","bag":"green","outcome":["blue","plague"]}\n'
        '{"type":"pass","note":"Père Noël 🎲"}\n'
    )
    assert parse_record(text) == (HEADER, ACTIONS)


def test_header_only_record() -> None:
    assert format_record({"game": "village"}, []) == '{"game":"village"}\n'
    assert parse_record('{"game":"village"}') == ({"game": "village"}, [])


def test_reader_accepts_crlf_bom_and_blank_lines() -> None:
    text = '\ufeff{"game":"village"}\r\n\r\n{"a":1}\r\n  \n{"b":2}'
    assert parse_record(text) == ({"game": "village"}, [{"a": 1}, {"b": 2}])


def test_line_separator_inside_a_string_is_not_a_line_end() -> None:
    actions = [{"note": "one\u2028two\u2029three\x85four"}]
    assert parse_record(format_record(HEADER, actions)) == (HEADER, actions)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("", 1, "empty"),
        ("\n\n  \n", 1, "empty"),
        ("[1, 2]\n", 1, "header must be a JSON object, not an array"),
        ('"village"\n', 1, "not a string"),
        ('{"players": []}\n{"a": 1}\n', 1, 'no "game" key'),
        ('{"game": 1}\n', 1, "non-empty string"),
        ('\n\n{"game": "village"\n', 3, "not valid JSON"),
        ('{"game": "village"}\n{"a": 1}\n[2]\n', 3, "action must be a JSON object, not an array"),
        ('{"game": "village"}\n{"a": 1}\n\n42\n', 4, "not a number"),
        ('{"game": "village"}\nnull\n', 2, "not null"),
        ('{"game": "village"}\n{"a": 1}{"b": 2}\n', 2, "not valid JSON"),
        ('{"game": "village"}\n{"a": NaN}\n', 2, "NaN is not valid JSON"),
        ('{"game": "village"}\n{"a": 1,}\n', 2, "not valid JSON"),
    ],
)
def test_parse_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")
    assert words in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("header", "actions", "line", "words"),
    [
        ({"players": []}, [], 1, 'no "game" key'),
        (["game"], [], 1, "JSON object"),
        (HEADER, [{"a": 1}, [2]], 3, "action must be a JSON object"),
        (HEADER, [{"a": float("nan")}], 2, "cannot be written as JSON"),
        (HEADER, [{"a": 1}, {"b": {1, 2}}], 3, "cannot be written as JSON"),
    ],
)
def test_format_errors_name_the_line(
    header: Any, actions: list[Any], line: int, words: str
) -> None:
    with pytest.raises(RecordError) as info:
        format_record(header, actions)
    assert info.value.line == line
    assert words in str(info.value)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=12,
)
json_objects = st.dictionaries(st.text(), json_values, max_size=5)


@settings(max_examples=60, deadline=None)
@given(
    header=json_objects.map(lambda h: {**h, "game": "village"}),
    actions=st.lists(json_objects, max_size=6),
)
def test_format_then_parse_round_trips(
    header: dict[str, Any], actions: list[dict[str, Any]]
) -> None:
    text = format_record(header, actions)
    assert text.endswith("\n") and text.count("\n") == 1 + len(actions)
    assert parse_record(text) == (header, actions)


# -- through the store --------------------------------------------------------------------


def test_export_import_round_trip(store: EventStore) -> None:
    original = store.create_game(HEADER, label="live")
    for action in ACTIONS:
        store.append(original, action, "tablet")
    store.append(original, {"type": "mistake"}, "camera")
    store.append_revert(original, "tablet")

    text = store.export_record(original)
    assert parse_record(text) == (HEADER, ACTIONS)

    copy = store.import_record(text, label="imported")
    assert copy != original
    assert store.header(copy) == HEADER
    assert store.effective_actions(copy) == ACTIONS
    assert [(e.seq, e.kind, e.source) for e in store.events(copy)] == [
        (1, "action", "import"),
        (2, "action", "import"),
        (3, "action", "import"),
    ]
    assert store.export_record(copy) == text
    assert {i.id: i.label for i in store.games()} == {original: "live", copy: "imported"}
    # The imported game is a normal game: it can go on and be undone.
    store.append(copy, {"type": "next"}, "tablet")
    assert store.append_revert(copy, "tablet").payload == {"reverts": 4}


def test_import_of_a_bad_record_leaves_no_game(store: EventStore) -> None:
    with pytest.raises(RecordError) as info:
        store.import_record('{"game": "village"}\n{"a": 1}\n["oops"]\n')
    assert info.value.line == 3
    assert store.games() == []


def test_export_file_is_what_parse_reads(store: EventStore, tmp_path: Any) -> None:
    g = store.create_game(HEADER)
    store.append(g, ACTIONS[2], "tablet")
    path = tmp_path / "game.jsonl"
    path.write_bytes(store.export_record(g).encode("utf-8"))
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b"" and all(json.loads(line) for line in lines[:-1])
    assert parse_record(path.read_text(encoding="utf-8")) == (HEADER, [ACTIONS[2]])
