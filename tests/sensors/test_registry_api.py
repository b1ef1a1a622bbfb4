"""The tag endpoints on a real app and SQLite file (Flask test client): list, enrol (token,
refusals), undo, retire, export → import, the taps long poll, and the sensors report."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from appkit import make_app
from flask import Flask
from flask.testing import FlaskClient

from companion.reconcile.observations import Health, TagTapped
from companion.sensors.tag_registry import TagRegistry
from web import runtime_of

TOKEN = "tags-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "games.sqlite3", table_token=TOKEN, boxcheck_path=str(tmp_path / "boxcheck.json"))
    yield app
    runtime_of(app).close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def test_enrol_needs_the_table_token(client: FlaskClient) -> None:
    r = client.post("/api/tags/enrol", json={"uid": "04A2B3C4", "piece": "red-1a"})
    assert r.status_code == 401 and r.get_json()["code"] == "unauthorized"
    assert client.get("/api/tags").get_json()["enrolled"] == 0


def test_enrol_list_refuse_undo(client: FlaskClient, tmp_path: Path) -> None:
    r = client.post("/api/tags/enrol", json={"uid": "04:a2:b3:c4", "piece": "red-1a"}, headers=AUTH)
    assert r.status_code == 201
    assert r.get_json() == {"uid": "04A2B3C4", "piece": "red-1a", "label": "red 1, first copy",
                            "replaced": None, "already": False, "enrolled": 1}
    assert TagRegistry(tmp_path / "games.sqlite3").lookup("04A2B3C4") == "red-1a"  # in the file
    listed = client.get("/api/tags", headers=AUTH).get_json()
    assert listed["pieces"][0] == {"piece": "red-1a", "colour": "red", "label": "red 1, first copy",
                                   "uid": "04A2B3C4", "tagged": True}
    r = client.post("/api/tags/enrol", json={"uid": "04A2B3C4", "piece": "blue-1a"}, headers=AUTH)
    assert r.status_code == 409 and r.get_json()["code"] == "tag_taken"
    assert "already enrolled to red-1a" in r.get_json()["message"]
    r = client.post("/api/tags/enrol", json={"uid": "xyz", "piece": "blue-1a"}, headers=AUTH)
    assert r.status_code == 400 and r.get_json()["code"] == "bad_tag"
    r = client.post("/api/tags/enrol", json={"uid": "11223344", "piece": "red-1a"}, headers=AUTH)
    assert r.get_json()["replaced"] == "04A2B3C4"
    r = client.post("/api/tags/undo", json={"uid": "11223344", "piece": "red-1a",
                                            "replaced": "04A2B3C4"}, headers=AUTH)
    assert r.status_code == 200
    assert client.get("/api/tags").get_json()["pieces"][0]["uid"] is None  # UIDs: the table's
    assert client.get("/api/tags").get_json()["pieces"][0]["tagged"] is True
    assert client.get("/api/tags", headers=AUTH).get_json()["pieces"][0]["uid"] == "04A2B3C4"
    r = client.post("/api/tags/retire", json={"uid": "04A2B3C4"}, headers=AUTH)
    assert r.get_json() == {"piece": "red-1a", "enrolled": 0}


def test_export_then_import(client: FlaskClient, app: Flask, tmp_path: Path) -> None:
    client.post("/api/tags/enrol", json={"uid": "04A2B3C4", "piece": "monk-1"}, headers=AUTH)
    assert client.get("/api/tags/export").status_code == 401
    exported = client.get("/api/tags/export", headers=AUTH)
    assert "attachment" in exported.headers["Content-Disposition"]
    other = make_app(db_path=tmp_path / "other.sqlite3", table_token=TOKEN, boxcheck_path=str(tmp_path / "boxcheck.json"))
    try:
        c2 = other.test_client()
        assert c2.post("/api/tags/import", json=exported.get_json()).status_code == 401
        r = c2.post("/api/tags/import", json=exported.get_json(), headers=AUTH)
        assert r.get_json() == {"enrolled": 1}
        assert c2.get("/api/tags", headers=AUTH).get_json()["pieces"][-4]["uid"] == "04A2B3C4"
        r = c2.post("/api/tags/import", json={"format": "nope"}, headers=AUTH)
        assert r.status_code == 400 and "not a tag registry export" in r.get_json()["message"]
    finally:
        runtime_of(other).close()


def test_taps_long_poll(client: FlaskClient, app: Flask) -> None:
    running = runtime_of(app).running
    assert client.get("/api/tags/taps", headers=AUTH).get_json() == {"last": 0, "taps": []}

    def tap_later() -> None:
        time.sleep(0.3)
        running.observe(TagTapped(source="pad:R", t=1.0, reader="R", uid="04A2B3C4", piece=None))

    threading.Thread(target=tap_later).start()
    t0 = time.monotonic()
    got = client.get("/api/tags/taps?after=0&wait=5", headers=AUTH).get_json()
    assert 0.2 < time.monotonic() - t0 < 3
    assert got["last"] == 1
    assert [(t["seq"], t["kind"], t["uid"], t["piece"]) for t in got["taps"]] == [
        (1, "tapped", "04A2B3C4", None)]
    t0 = time.monotonic()
    assert client.get("/api/tags/taps?after=1&wait=0.3", headers=AUTH).get_json() == {"last": 1, "taps": []}
    assert time.monotonic() - t0 >= 0.25
    # a page that remembers a number from before a restart starts again from now
    assert client.get("/api/tags/taps?after=99&wait=5", headers=AUTH).get_json() == {"last": 1, "taps": []}
    assert client.get("/api/tags/taps?after=x", headers=AUTH).status_code == 400


class FakeAdapter:
    """An adapter with a fixed health and one reader row (the report's shape only)."""

    name = "hub:1"

    def start(self) -> None: ...

    def close(self) -> None: ...

    def health(self) -> Health:
        return Health(source="hub:1", t=2.0, device="hub:1", state="degraded", reads_per_s=3.5,
                      errors=2, detail="reader 3 not answering")

    def readers(self) -> list[dict[str, object]]:
        return [{"reader": "hub:1/reader:3", "state": "error", "errors": 2}]


def test_sensors_report(client: FlaskClient, app: Flask) -> None:
    assert client.get("/api/sensors").get_json() == {"adapters": []}
    runtime_of(app).running.add(FakeAdapter())
    (a,) = client.get("/api/sensors").get_json()["adapters"]
    assert a["name"] == "hub:1"
    assert (a["health"]["state"], a["health"]["errors"], a["health"]["detail"]) == (
        "degraded", 2, "reader 3 not answering")
    assert a["readers"] == [{"reader": "hub:1/reader:3", "state": "error", "errors": 2}]


def test_the_page_renders(client: FlaskClient) -> None:
    html = client.get("/tags").get_data(as_text=True)
    assert 'id="enrol-setup"' in html and 'id="reader-table"' in html and "tags.js" in html
    assert 'href="/tags"' in client.get("/").get_data(as_text=True)  # in the navigation
