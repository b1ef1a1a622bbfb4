"""Strict requests: a body field an endpoint does not take is refused with 400, named."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from servicekit import AUTH


def _refused(client: FlaskClient, path: str, body: Any, *names: str) -> dict[str, Any]:
    before = client.get("/api/games").get_json()
    r = client.post(path, json=body, headers=AUTH)
    assert r.status_code == 400, r.get_json()
    message = r.get_json()["message"]
    for name in names:
        assert repr(name) in message, message
    assert client.get("/api/games").get_json() == before  # nothing stored
    out: dict[str, Any] = r.get_json()
    return out


def test_new_game_names_the_fields_it_does_not_take(client: FlaskClient) -> None:
    body = _refused(client, "/api/games", {"players": ["red", "blue"], "seed": 4, "x": 1}, "seed", "x")
    assert body["code"] == "unknown_fields" and "'players'" in body["message"]


@pytest.mark.parametrize("extra", [{"seed": "00"}, {"tiles": {"0": "c01"}}, {"seed": 1, "tiles": []}])
def test_a_virtual_draw_takes_no_seed_or_tiles(client: FlaskClient, game: int, extra: dict[str, Any]) -> None:
    offer = client.get("/api/legal").get_json()["actions"][0]
    assert offer["type"] == "virtual_draw"
    body = _refused(client, "/api/actions", {**offer, **extra}, *extra)
    assert body["code"] == "unknown_fields"
    assert client.get("/api/state").get_json()["seq"] == 0
    assert client.post("/api/actions", json=offer, headers=AUTH).status_code == 200


def test_a_virtual_draw_carrying_the_audit_is_refused(client: FlaskClient, game: int) -> None:
    offer = client.get("/api/legal").get_json()["actions"][0]
    audit = {"kind": offer["draw"], "seed": "00" * 16, "digest": offer["commitment"]}
    _refused(client, "/api/actions", {**offer, "_draw": audit}, "_draw")
    assert client.get("/api/state").get_json()["seq"] == 0


def test_a_virtual_draw_of_another_kind_is_stale(client: FlaskClient, game: int) -> None:
    r = client.post("/api/actions", json={"type": "virtual_draw", "draw": "mass_draw"}, headers=AUTH)
    assert r.status_code == 409 and "reveal_customers" in r.get_json()["message"]


def test_box_check_undo_and_select_refuse_extra_fields(client: FlaskClient, game: int) -> None:
    _refused(client, "/api/boxcheck", {"key": "time_track.length", "value": 12, "why": "x"}, "why")
    _refused(client, "/api/undo", {"steps": 2}, "steps")
    _refused(client, f"/api/games/{game}/select", {"force": True}, "force")
    assert client.post(f"/api/games/{game}/select", headers=AUTH).status_code == 200


def test_an_action_with_an_extra_field_is_malformed(client: FlaskClient, game: int) -> None:
    offer = client.get("/api/legal").get_json()["actions"][0]
    client.post("/api/actions", json=offer, headers=AUTH)
    action = client.get("/api/legal").get_json()["actions"][0]
    r = client.post("/api/actions", json={**action, "bonus": 1}, headers=AUTH)
    assert r.status_code == 400 and "bonus" in r.get_json()["message"]
