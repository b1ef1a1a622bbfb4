"""Every route of the app, fed what a stranger on the Wi-Fi might send: never a 5xx; and what
a request without a token gets shows no file path, no tag UID, no camera picture."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from appkit import Served, make_app, read_stream
from flask import Flask
from flask.testing import FlaskClient
from servicekit import AUTH, TOKEN

from web import runtime_of

HUGE = "99999999999999999999"
DEEP = "[" * 10_000 + "]" * 10_000
DEEP_OBJECT = '{"a":' * 10_000 + "1" + "}" * 10_000
SURROGATE = '{"player": "\\ud800", "action": {"type": "\\udfff"}}'
BODIES = [DEEP, DEEP_OBJECT, SURROGATE, '{"placed": {"x": {}}}', '{"uid": "\\ud800"}',
          '{"hubs": {"\\ud800": []}}', "null", '{"game": ' + HUGE + "}", "\x00\xff"]
QUERIES = ["", f"?game={HUGE}", f"?after={HUGE}", f"?after=-{HUGE}", f"?limit={HUGE}",
           "?viewer=%ED%A0%80", "?token=%ED%A0%80", f"?expected_seq={HUGE}", "?region=%00",
           "?board=%ED%A0%80", "?wait=1e999&after=0"]


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=tmp_path / "box.json")
    yield app
    runtime_of(app).close()


def _routes(app: Flask) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule
        for name in rule.arguments:
            path = path.replace(f"<int:{name}>", HUGE).replace(f"<{name}>", "x")
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, path))
    return out


def test_no_route_answers_5xx_to_strange_input(app: Flask) -> None:
    client = app.test_client()
    r = client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    assert r.status_code == 201
    routes = _routes(app)
    assert len(routes) > 30
    failures: list[tuple[Any, ...]] = []
    for method, path in routes:
        if path == "/api/events":
            continue  # a stream: its parameters are checked in test_events_parameters below
        for headers in ({}, AUTH):
            for query in QUERIES:
                bodies = BODIES if method == "POST" else [None]
                for body in bodies:
                    resp = client.open(path + query, method=method, data=body, headers={
                        **headers, "Content-Type": "application/json"})
                    if resp.status_code >= 500 and resp.status_code not in (503, 507):
                        failures.append((method, path + query, (body or "")[:30],
                                         resp.status_code, resp.get_data()[:120]))
    assert not failures, failures[:10]


def test_events_parameters_out_of_range_are_refused(app: Flask) -> None:
    client = app.test_client()
    client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    served = Served(app)
    try:
        for query in (f"?after={HUGE}", f"?game={HUGE}", "?after=x"):
            assert read_stream(served.url, "/api/events" + query, 1)[0] == 400, query
    finally:
        served.close()


def test_the_issue_s_5xx_list(app: Flask) -> None:
    client = app.test_client()
    client.post("/api/games", json={"players": ["red", "blue"]}, headers=AUTH)
    cases = [
        ("POST", "/api/report", SURROGATE, {}),
        ("POST", "/api/anytime", SURROGATE, {}),
        ("GET", f"/api/draws?game={HUGE}", None, {}),
        ("GET", f"/api/export?game={HUGE}", None, AUTH),
        ("POST", "/api/camera/cubes", '{"placed": {"x": {}}}', AUTH),
    ]
    for path in ("/api/tags/enrol", "/api/tags/undo", "/api/tags/retire", "/api/tags/import",
                 "/api/zones"):
        cases.append(("POST", path, DEEP, AUTH))
        cases.append(("POST", path, DEEP_OBJECT, AUTH))
    for method, path, body, headers in cases:
        resp = client.open(path, method=method, data=body,
                           headers={**headers, "Content-Type": "application/json"})
        assert 400 <= resp.status_code < 500, (method, path, resp.status_code, resp.get_data())
        assert resp.get_json()["message"], path


def _untokened(client: FlaskClient, path: str) -> Any:
    resp = client.get(path)
    return resp.status_code, resp.get_data(as_text=True)


def test_untokened_reads_show_no_path_no_uid_no_picture(app: Flask) -> None:
    client = app.test_client()
    r = client.post("/api/tags/enrol", json={"uid": "04A1B2C3D4E5F6", "piece": "red-1a"},
                    headers=AUTH)
    assert r.status_code == 201
    db = str(runtime_of(app).store.path)
    folder = str(Path(db).parent)
    for path in ("/api/zones", "/api/camera/calibration", "/api/tags", "/api/games",
                 "/api/sensors", "/api/boxcheck"):
        status, text = _untokened(client, path)
        assert status < 500, (path, status)
        assert folder not in text, f"{path} shows a file path"
        assert "04A1B2C3D4E5F6" not in text, f"{path} shows a tag UID"
    assert _untokened(client, "/api/tags/export")[0] == 401
    assert _untokened(client, "/api/tags/taps")[0] == 401
    for picture in ("/api/camera/crop.png?region=space:market",
                    "/api/camera/rectified.png?board=main"):
        assert _untokened(client, picture)[0] == 401
    # the table still sees the UIDs
    with_token = client.get("/api/tags", headers=AUTH).get_json()
    assert any(p["uid"] == "04A1B2C3D4E5F6" for p in with_token["pieces"])
    assert client.get("/api/tags/export", headers=AUTH).status_code == 200
    json.dumps(with_token)
