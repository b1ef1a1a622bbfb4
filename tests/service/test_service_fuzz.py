"""No input makes the API answer 5xx, and a refused input leaves the state as it was."""

from __future__ import annotations

import json
import random
from typing import Any

from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from servicekit import AUTH

ROUTES = [
    ("POST", "/api/actions"),
    ("POST", "/api/games"),
    ("POST", "/api/undo"),
    ("POST", "/api/import"),
    ("POST", "/api/games/1/select"),
    ("POST", "/api/anytime"),
    ("POST", "/api/report"),
    ("GET", "/api/state"),
    ("GET", "/api/legal"),
    ("GET", "/api/export"),
    ("GET", "/api/draws"),
    ("GET", "/api/tokens"),
    ("GET", "/api/games"),
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["type", "player", "space", "cube", "pay", "tiles", "spaces", "figures", "good", "gain"]


def _mutations(legal: list[dict[str, Any]], rng: random.Random) -> list[Any]:
    out: list[Any] = []
    for action in legal[:5]:
        for key in action:
            for junk in (None, 7, -1, "", "red", [], {}, [1, "x"], {"a": -3}, "\u2028", 1e308):
                out.append({**action, key: junk})
            out.append({k: x for k, x in action.items() if k != key})
        out.append({**action, rng.choice(FIELDS) + "x": 1})
    return out


def test_garbage_never_5xx_and_state_untouched(client: FlaskClient, game: int) -> None:
    rng = random.Random(1)
    bodies: list[bytes] = [b"", b"{", b"null", b"\x00" * 10, b"[]" * 5000, "é".encode("latin-1")]
    bodies += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))) for _ in range(40)]
    for _ in range(4):
        legal = client.get("/api/legal").get_json()["actions"]
        before = client.get("/api/state").get_json()
        candidates = [json.dumps(m).encode() for m in _mutations(legal, rng)] + bodies
        for body in candidates:
            for method, path in ROUTES:
                if path in ("/api/undo", "/api/games", "/api/games/1/select", "/api/import"):
                    continue  # these change the state legitimately; fuzzed below
                r = client.open(
                    path, method=method, data=body, headers=AUTH, content_type="application/json"
                )
                assert r.status_code < 500, (path, body, r.get_json())
                if r.status_code != 200 and method == "POST":
                    assert client.get("/api/state").get_json() == before
                elif r.status_code == 200 and method == "POST":
                    before = client.get("/api/state").get_json()
        client.post("/api/actions", json=rng.choice(legal), headers=AUTH)
    for body in bodies:
        for method, path in ROUTES:
            r = client.open(path, method=method, data=body, headers=AUTH)
            assert r.status_code < 500, (path, body)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=json_values,
    path=st.sampled_from(ROUTES),
    query=st.dictionaries(
        st.sampled_from(["viewer", "token", "game", "after", "expected_seq", "label"]),
        st.text(max_size=8),
        max_size=3,
    ),
)
def test_any_json_anywhere_never_5xx(
    client: FlaskClient, game: int, body: Any, path: tuple[str, str], query: dict[str, str]
) -> None:
    method, url = path
    r = client.open(url, method=method, json=body, headers=AUTH, query_string=query)
    assert r.status_code < 500, (url, body, query, r.get_json())
    r = client.open(url, method=method, json=body, query_string=query)
    assert r.status_code < 500


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(action=json_values, player=st.sampled_from(["red", "blue", "white", 3, None]))
def test_a_player_s_own_report_or_anytime_action_never_5xx(
    client: FlaskClient, game: int, action: Any, player: Any
) -> None:
    """With a real player token, while the life goals are dealt (reports are due): whatever
    the action, a clear 4xx and the state untouched."""
    if client.get("/api/state").get_json().get("modules") != ["life_goals"]:
        body = {"players": ["red", "blue"], "modules": ["life_goals"]}
        assert client.post("/api/games", json=body, headers=AUTH).status_code == 201
        client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
    assert client.get("/api/state").get_json()["pending"]["kind"] == "deal_silver"
    tokens = client.get("/api/tokens", headers=AUTH).get_json()["players"]
    token = tokens.get(player, {}).get("token", "x") if isinstance(player, str) else "x"
    before = client.get("/api/state").get_json()
    for url, body in (
        ("/api/report", {"player": player, "action": action}),
        ("/api/anytime", action if isinstance(action, dict) else {"player": player}),
    ):
        r = client.post(f"{url}?token={token}", json=body)
        assert 400 <= r.status_code < 500, (url, body, r.get_json())
        assert client.get("/api/state").get_json() == before
