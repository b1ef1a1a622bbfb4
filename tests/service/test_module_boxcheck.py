"""The box check per box owned: the Port and Life goals values have a schema, a plain
title and what to look at; only the boxes owned are asked about and offered; new games use
the owner's answers for the modules switched on (fuzzed: only 2xx/4xx, games still start)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from appkit import make_app
from flask.testing import FlaskClient
from test_board_values import _mutations

from companion.village.box_values import check_value
from companion.village.modules.module_data import shipped_items

TOKEN = "module-box-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
MODULE_KEYS = {**shipped_items("port"), **shipped_items("life_goals")}


def _client(tmp_path: Path) -> FlaskClient:
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "box.json")
    return app.test_client()


def _data(client: FlaskClient) -> dict[str, object]:
    """The printed values in the current game's record header."""
    text = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    data: dict[str, object] = json.loads(text.splitlines()[0])["data"]
    return data


def test_every_module_key_has_a_schema_plain_title_and_what_to_look_at() -> None:
    assert len(MODULE_KEYS) == 17
    for key, item in MODULE_KEYS.items():
        assert item.schema is not None, key
        check_value(key, item.value)  # the shipped value fits its own schema
        assert item.title and item.look, key
        assert key not in item.title and "_" not in item.title and "null" not in item.look
        assert "Seed 003" not in item.look, key


def test_only_the_boxes_owned_are_asked_and_offered(tmp_path: Path) -> None:
    client = _client(tmp_path)
    body = client.get("/api/boxcheck").get_json()
    keys = {r["key"] for r in body["values"]}
    assert body["boxes"]["answered"] is False and {"port.sea", "goals.prestige"} <= keys
    assert client.post("/api/boxcheck", json={"boxes": ["port"]}).status_code == 401
    bad = client.post("/api/boxcheck", json={"boxes": ["port", "attic"]}, headers=AUTH)
    assert bad.status_code == 400 and "no box is called 'attic'" in bad.get_json()["message"]
    assert client.post("/api/boxcheck", json={"boxes": "port"}, headers=AUTH).status_code == 400
    mixed = client.post("/api/boxcheck", json={"boxes": [], "key": "port.sea"}, headers=AUTH)
    assert mixed.status_code == 400
    r = client.post("/api/boxcheck", json={"boxes": ["base", "port"]}, headers=AUTH)
    assert r.status_code == 200 and r.get_json()["boxes"] == {
        "owned": ["port"], "answered": True, "names": {"port": "Le Port", "life_goals": "Objectifs de vie (life goals)"}
    }
    assert json.loads((tmp_path / "box-boxes.json").read_text()) == ["port"]
    keys = {row["key"] for row in r.get_json()["values"]}
    assert "port.captains" in keys and not any(k.startswith("goals.") for k in keys)
    refused = client.post("/api/boxcheck", json={"key": "goals.prestige", "confirm": True},
                          headers=AUTH)
    assert refused.status_code == 422 and refused.get_json()["code"] == "box_not_owned"
    assert "Objectifs de vie" in refused.get_json()["message"]
    # the answer outlives the server
    again = _client(tmp_path).get("/api/boxcheck").get_json()
    assert again["boxes"]["owned"] == ["port"] and again["boxes"]["answered"]
    # a new game offers only Port
    no = client.post("/api/games", json={"players": ["red", "blue"], "modules": ["life_goals"]},
                     headers=AUTH)
    assert no.status_code == 422 and "does not own Objectifs de vie (life goals)" in no.get_json()["message"]
    page = client.get("/new").get_data(as_text=True)
    assert 'value="port"' in page and 'value="life_goals"' not in page


def test_a_bad_module_answer_says_what_is_expected_and_a_good_one_is_used(tmp_path: Path) -> None:
    client = _client(tmp_path)
    bad = client.post("/api/boxcheck", json={"key": "port.market", "value": {"cocoa": {"prestige": 7, "coin": 0}}},
                      headers=AUTH)
    assert bad.status_code == 422 and "'tea' is missing" in bad.get_json()["message"]
    lanes = client.post("/api/boxcheck", json={"key": "port.sea", "value": {
        "zones": {"port": "port", "A": "time"}, "lanes": [["port", "Z"]]}}, headers=AUTH)
    assert lanes.status_code == 422 and "port.sea: bad lane" in lanes.get_json()["message"]
    assert not (tmp_path / "box.json").exists()
    market = {"cocoa": {"prestige": 6, "coin": 1}, "tea": {"prestige": 4, "coin": 2}}
    ok = client.post("/api/boxcheck", json={"key": "port.market", "value": market}, headers=AUTH)
    assert ok.status_code == 200
    prestige = {"silver": 4, "gold": 9}
    assert client.post("/api/boxcheck", json={"key": "goals.prestige", "value": prestige},
                       headers=AUTH).status_code == 200
    rows = {r["key"]: r for r in ok.get_json()["values"]}
    assert rows["port.market"]["verified"] and rows["port.market"]["box"] == "Le Port"
    g = client.post("/api/games", json={"players": ["red", "blue"], "modules": ["port"]},
                    headers=AUTH)
    assert g.status_code == 201
    data = _data(client)
    assert data["port.market"] == market and "goals.prestige" not in data
    g = client.post("/api/games", json={"players": ["red", "blue"],
                                        "modules": ["port", "life_goals"]}, headers=AUTH)
    data = _data(client)
    assert g.status_code == 201 and data["goals.prestige"] == prestige
    base = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    data = _data(client)
    assert base.status_code == 201 and not any(k.startswith(("port.", "goals.")) for k in data)


def test_module_box_check_fuzz_only_2xx_4xx_and_a_game_with_the_modules_starts(
    tmp_path: Path,
) -> None:
    client = _client(tmp_path)
    rng = random.Random(11)
    both = {"players": ["red", "blue", "white"], "modules": ["port", "life_goals"]}
    statuses: dict[int, int] = {}
    for key, item in MODULE_KEYS.items():
        for value in _mutations(item.value, rng):
            r = client.post("/api/boxcheck", json={"key": key, "value": value}, headers=AUTH)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            assert r.status_code < 500, (key, value, r.get_json())
            if r.status_code == 200:  # an accepted answer: a game with the modules must start
                g = client.post("/api/games", json=both, headers=AUTH)
                assert g.status_code == 201, (key, value, g.get_json())
                assert client.get("/api/legal").status_code == 200
    assert statuses.get(422, 0) > 200  # the mutations were mostly refused
    assert client.post("/api/games", json=both, headers=AUTH).status_code == 201
    assert client.get("/api/state").status_code == 200
