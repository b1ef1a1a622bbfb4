"""Play logs of a finished game: the golden playthroughs exported as BG Stats play files and
BGG plays hold exactly the engine's result (scores, winner, start player, seat order, date,
duration, expansions), the file validates against the schema written from BG Stats' published
format and round-trips through JSON; refused while a game runs; the history page."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from appkit import make_app
from flask import Flask
from servicekit import AUTH, TOKEN

from companion import games
from companion.table.playlog import GAMES, bgg_form, bgg_xml, bgsplay, play_log, statistics
from companion.village.scoring import score, winners
from companion.village.vocabulary import Color
from web import runtime_of

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "formats" / "bgsplay.schema.json"
jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN,
                   boxcheck_path=tmp_path / "box.json")
    yield app
    runtime_of(app).close()


def _golden(name: str) -> tuple[dict, object]:
    lines = [json.loads(x) for x in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    return lines[0], games.for_header(lines[0]).replay(lines[0], lines[1:])


def _validator() -> object:
    return jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))


@pytest.mark.parametrize("name", ["four-players", "port-and-life-goals-four-players",
                                  "life-goals-two-players"])
def test_a_golden_games_bgsplay_holds_the_engines_result(app: Flask, name: str) -> None:
    client = app.test_client()
    text = (GOLDEN / f"{name}.jsonl").read_text()
    assert client.post("/api/import", data=text, headers=AUTH).status_code in (200, 201)
    header, st = _golden(name)
    res = client.get("/api/playlog")
    assert res.status_code == 200 and "attachment" in res.headers["Content-Disposition"]
    doc = json.loads(res.data)
    _validator().validate(doc)
    assert json.loads(json.dumps(doc)) == doc
    (play,) = doc["plays"]
    people = {p["id"]: p["name"] for p in doc["players"]}
    rows = sorted(play["playerScores"], key=lambda r: r["seatOrder"])
    # seat order and names: the header's order; scores: the engine's totals; winners: its own
    assert [r["role"] for r in rows] == header["players"]
    assert [people[r["playerRefId"]] for r in rows] == [c.capitalize() for c in header["players"]]
    assert [int(r["score"]) for r in rows] == [score(st, Color(c))["total"] for c in header["players"]]
    assert [r["role"] for r in rows if r["winner"]] == [str(c) for c in winners(st)]
    assert [r["role"] for r in rows if r["startPlayer"]] == [header["first_player"]]
    assert rows[[r["rank"] for r in rows].index(1)]["winner"]
    game = next(g for g in doc["games"] if g["id"] == play["gameRefId"])
    assert (game["name"], game["bggId"], game["isBaseGame"]) == ("Village", 104006, 1)
    extras = {g["id"]: g["name"] for g in doc["games"] if g["isExpansion"]}
    assert sorted(extras[e["gameRefId"]] for e in play["expansionPlays"]) == sorted(
        GAMES["village"].modules[m] for m in header.get("expansions", []))
    assert play["rounds"] == st.round
    # exporting again gives the same file (BG Stats knows the play by its uuid)
    assert json.loads(client.get("/api/playlog").data) == doc


def test_the_schema_can_refuse() -> None:
    header, st = _golden("four-players")
    view = games.for_header(header).view(st, "table")
    doc = bgsplay(play_log("t/1", header, view, "2026-11-26T18:00:00+00:00",
                           "2026-11-26T19:31:00+00:00"))
    _validator().validate(doc)
    assert doc["plays"][0]["durationMin"] == 91
    assert doc["plays"][0]["playDate"] == "2026-11-26 18:00:00"
    for broken in ({**doc, "plays": []},
                   {**doc, "plays": [{**doc["plays"][0], "playDate": "26/11/2026"}]},
                   {**doc, "plays": [{**doc["plays"][0], "playerScores": [
                       {**doc["plays"][0]["playerScores"][0], "score": 12}]}]}):
        with pytest.raises(jsonschema.ValidationError):
            _validator().validate(broken)


def test_the_bgg_play_and_form() -> None:
    header, st = _golden("port-and-life-goals-four-players")
    view = games.for_header(header).view(st, "table")
    log = play_log("t/2", header, view, "2026-11-26T18:00:00Z", "2026-11-26T19:00:00Z",
                   names={"red": "Ann"}, location="Café <Dé>")
    play = ET.fromstring(bgg_xml(log)).find("play")
    assert play is not None
    assert (play.get("date"), play.get("length"), play.get("location")) == (
        "2026-11-26", "60", "Café <Dé>")
    item = play.find("item")
    assert item is not None and item.get("objectid") == "104006"
    players = play.findall("players/player")
    assert [p.get("color") for p in players] == header["players"]
    assert players[0].get("name") == "Ann"
    assert [p.get("score") for p in players] == [str(score(st, Color(c))["total"])
                                                  for c in header["players"]]
    assert [p.get("color") for p in players if p.get("win") == "1"] == [
        str(c) for c in winners(st)]
    form = bgg_form(log)
    assert form["objectid"] == "104006" and form["players[0][name]"] == "Ann"
    assert "Village: Port" in form["comments"]


def test_refused_while_the_game_runs_and_the_history(app: Flask) -> None:
    client = app.test_client()
    assert client.get("/api/playlog").status_code == 404  # no game at all
    assert client.post("/api/games", json={"players": ["red", "blue"]},
                       headers=AUTH).status_code in (200, 201)
    res = client.get("/api/playlog")
    assert res.status_code == 409 and res.get_json()["code"] == "game_not_over"
    assert client.get("/api/playlog?format=pdf").status_code == 400
    for name in ("four-players", "life-goals-two-players"):
        client.post("/api/import", data=(GOLDEN / f"{name}.jsonl").read_text(), headers=AUTH)
    body = client.get("/api/history").get_json()
    assert len(body["games"]) == 2
    red = next(p for p in body["players"] if p["player"] == "Red")
    assert red["games"] == 2 and set(red["by_modules"]) == {"base", "life_goals"}
    page = client.get("/history").get_data(as_text=True)
    assert "/api/playlog?game=2" in page and "/api/playlog?game=3&amp;format=bgg.xml" in page
    assert statistics([]) == []
