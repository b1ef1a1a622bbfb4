"""The tag registry on a real SQLite file (the same file as the games): enrol, a tag taken
by another piece refused, a spare replacing a lost tag, undo, export → import."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.sensors.tag_registry import (
    PIECES,
    Enrolment,
    TagError,
    TagRegistry,
    TagTaken,
    normalise_uid,
    piece_label,
    pieces_of,
)
from companion.store import EventStore


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def reg(db: Path) -> TagRegistry:
    return TagRegistry(db)


def test_the_48_pieces_and_their_names() -> None:
    assert len(PIECES) == 48 and len(set(PIECES)) == 48
    assert PIECES[:4] == ("red-1a", "red-1b", "red-1c", "red-1d")
    assert PIECES[-4:] == ("monk-1", "monk-2", "monk-3", "monk-4")
    assert piece_label("red-1a") == "red 1, first copy"
    assert piece_label("white-4b") == "white 4, second copy"
    assert piece_label("monk-3") == "black monk 3"
    assert len(pieces_of(["blue"])) == 11 and pieces_of(["monk"]) == PIECES[-4:]
    with pytest.raises(TagError, match="unknown colour 'green'"):
        pieces_of(["green"])
    with pytest.raises(TagError, match="not a piece"):
        piece_label("red-5a")


@pytest.mark.parametrize(("text", "uid"), [("04:a2:b3:c4", "04A2B3C4"),
                                           ("04 A2 B3 C4 D5 E6 80", "04A2B3C4D5E680")])
def test_uids_are_normalised(text: str, uid: str) -> None:
    assert normalise_uid(text) == uid


@pytest.mark.parametrize("bad", ["", "04A2B3", "04A2B3C4D5", "GGA2B3C4", "04A2B3C4 x"])
def test_bad_uids_are_refused(bad: str) -> None:
    with pytest.raises(TagError, match="is not a tag UID"):
        normalise_uid(bad)


def test_enrol_and_look_up_across_connections(reg: TagRegistry, db: Path) -> None:
    e = reg.enrol("04a2b3c4", "red-1a")
    assert e == Enrolment("04A2B3C4", "red-1a")
    assert TagRegistry(db).lookup("04:A2:B3:C4") == "red-1a"  # another object, same file
    assert reg.uid_of("red-1a") == "04A2B3C4"
    assert reg.lookup("DEADBEEF") is None and reg.lookup("not a uid") is None
    assert reg.enrolled() == {"red-1a": "04A2B3C4"}
    assert len(reg.missing()) == 47 and reg.missing(["red"])[0] == "red-1b"


def test_a_tag_enrolled_to_another_piece_is_refused(reg: TagRegistry) -> None:
    reg.enrol("04A2B3C4", "red-1a")
    with pytest.raises(TagTaken) as info:
        reg.enrol("04A2B3C4", "red-1b")
    assert "already enrolled to red-1a (red 1, first copy)" in str(info.value)
    assert reg.enrolled() == {"red-1a": "04A2B3C4"}  # nothing changed
    assert reg.enrol("04A2B3C4", "red-1a").already  # the same again: said, not an error


def test_a_spare_replaces_a_lost_tag(reg: TagRegistry) -> None:
    reg.enrol("04A2B3C4", "monk-2")
    e = reg.enrol("11223344", "monk-2")
    assert e.replaced == "04A2B3C4"
    assert reg.lookup("04A2B3C4") is None and reg.lookup("11223344") == "monk-2"
    assert reg.retired() == ["04A2B3C4"]
    reg.enrol("04A2B3C4", "monk-3")  # the lost tag found again: usable for another piece
    assert reg.lookup("04A2B3C4") == "monk-3" and reg.retired() == []


def test_undo_restores_the_replaced_tag(reg: TagRegistry) -> None:
    reg.enrol("04A2B3C4", "blue-2c")
    e = reg.enrol("11223344", "blue-2c")
    reg.undo(e)
    assert reg.uid_of("blue-2c") == "04A2B3C4" and reg.lookup("11223344") is None
    with pytest.raises(TagError, match="nothing to undo"):
        reg.undo(e)


def test_retire(reg: TagRegistry) -> None:
    reg.enrol("04A2B3C4", "yellow-3a")
    assert reg.retire("04A2B3C4") == "yellow-3a"
    assert reg.uid_of("yellow-3a") is None
    with pytest.raises(TagError, match="not enrolled"):
        reg.retire("04A2B3C4")


def test_lives_beside_the_games_in_the_same_file(db: Path) -> None:
    with EventStore(db) as store:
        game = store.create_game({"game": "village", "players": ["red", "blue"]})
        reg = TagRegistry(db)
        reg.enrol("04A2B3C4", "red-1a")
        assert store.settings()["user_version"] == 1  # the store's schema is untouched
        assert [g.id for g in store.games()] == [game]
    tables = {r[0] for r in sqlite3.connect(db).execute("SELECT name FROM sqlite_master")}
    assert {"games", "events", "tag_registry"} <= tables


def test_export_then_import_into_another_installation(reg: TagRegistry, tmp_path: Path) -> None:
    for i, piece in enumerate(PIECES):
        reg.enrol(f"04{i:06X}", piece)
    reg.enrol("0400BEEF", "red-1a")  # one spare: a retired tag travels too
    exported = json.loads(json.dumps(reg.export()))
    assert exported["format"] == "village-companion/tags" and len(exported["tags"]) == 49
    other = TagRegistry(tmp_path / "other.sqlite3")
    other.enrol("CAFEBABE", "monk-1")  # replaced wholesale by the import
    assert other.import_(exported) == 48
    assert other.enrolled() == reg.enrolled() and other.retired() == ["04000000"]
    assert other.lookup("CAFEBABE") is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="x"), "not a tag registry export"),
        (lambda d: d.update(version=9), "version 9"),
        (lambda d: d["tags"].append(dict(d["tags"][0], piece="red-1b")), "listed twice"),
        (lambda d: d["tags"].append({"uid": "99999999", "piece": "red-1a"}), "two tags in use"),
        (lambda d: d["tags"].append({"uid": "zz", "piece": "red-1a"}), "not a tag UID"),
        (lambda d: d["tags"].append({"uid": "99999999", "piece": "king"}), "not a piece"),
    ],
)
def test_a_bad_import_changes_nothing(reg: TagRegistry, change, message: str) -> None:  # type: ignore[no-untyped-def]
    reg.enrol("04A2B3C4", "red-1a")
    data = reg.export()
    change(data)
    with pytest.raises(TagError, match=message):
        reg.import_(data)
    assert reg.enrolled() == {"red-1a": "04A2B3C4"}
