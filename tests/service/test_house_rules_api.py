"""``POST /api/games`` takes ``house_rules``: stored in the record header, honoured after a
restart (replay), refused in words when unknown or not true/false."""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient
from servicekit import AUTH

from companion.store import EventStore
from companion.table import TableService


def test_house_rules_are_stored_and_replayed(client: FlaskClient, db_path: Path) -> None:
    r = client.post(
        "/api/games",
        json={"players": ["red", "blue"], "house_rules": {"well_coins": True}},
        headers=AUTH,
    )
    assert r.status_code == 201, r.get_json()
    record = client.get("/api/export", headers=AUTH).get_data(as_text=True)
    header = json.loads(record.splitlines()[0])
    assert header["house_rules"] == {
        "well_coins": True,
        "final_seller_sells": True,
        "train_only": True,
    }
    with EventStore(db_path) as store:
        assert TableService(store, "t").state().house.well_coins is True


def test_bad_house_rules_are_400(client: FlaskClient) -> None:
    for bad in ({"coins_at_the_well": True}, {"well_coins": 1}, "yes"):
        r = client.post(
            "/api/games", json={"players": ["red", "blue"], "house_rules": bad}, headers=AUTH
        )
        assert r.status_code == 400
        assert r.get_json()["code"] == "bad_house_rules"
    assert client.get("/api/games").get_json()["games"] == []
