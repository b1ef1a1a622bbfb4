"""A tournament through the real hall: the organiser (and only they) makes it and its rounds,
two tables play each round's games to the end through a real Mosquitto into a real
PostgreSQL, and the standings are the engine's own final rankings summed by the rules; the
pages in Chromium (screenshots to ``VILLAGE_SCREENSHOTS``)."""

from __future__ import annotations

import json
import os
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from hallkit import BROWSER, Broker, Process, wait_until

from companion.hall.outbox import HallPublisher
from companion.hall.standings import Result, standings
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService
from companion.village.scoring import ranking_key

TOKEN = "organiser-token"
pytestmark = BROWSER


def _call(url: str, body: Any = None, token: str | None = TOKEN) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    if token:
        req.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        with exc:
            return exc.code, json.loads(exc.read())


def _play_to_the_end(s: TableService, rng: random.Random) -> None:
    while s.state().phase != "over":
        s.submit(rng.choice(s.legal_view()["actions"]))


def _results(s: TableService, seats: dict[str, str], rnd: int, table: str) -> list[Result]:
    """The engine's own final ranking of the table's game, as tournament results."""
    st = s.state()
    keys = {c: ranking_key(st, c) for c in st.players}
    out = []
    for c, k in keys.items():
        place = 1 + sum(1 for other in keys.values() if other > k)
        out.append(Result(seats[c.value if hasattr(c, "value") else c], place, k[0], k[1], k[2],
                          rnd, table))
    return out


def test_a_tournament_of_two_rounds(broker: Broker, dsn: str, tmp_path: Path,
                                    browser: Any) -> None:
    hall = Process(tmp_path / "hall.log", "hall", "--mqtt", broker.url, "--db", dsn,
                   "--host", "127.0.0.1", "--port", "0", "--token", TOKEN)
    services: dict[str, TableService] = {}
    pubs = []
    try:
        hall.start().ready("pages on http://")
        port = re.search(r"pages on http://127\.0\.0\.1:(\d+)/", hall.log.read_text())
        assert port is not None
        url = f"http://127.0.0.1:{port.group(1)}"
        for name in ("t1", "t2"):
            s = TableService(EventStore(tmp_path / f"{name}.sqlite3"), "tok")
            pub = HallPublisher(s.store.path, name, parse_broker_url(broker.url), poll=0.1)
            s.add_listener(pub.wake)
            pub.start()
            services[name], pubs = s, [*pubs, pub]

        # only the organiser may change anything; bad rules are refused, nothing made
        assert _call(f"{url}/api/tournaments", {"name": "Cup"}, token=None)[0] == 403
        assert _call(f"{url}/api/tournaments", {"name": "Cup"}, token="guess")[0] == 403
        status, body = _call(f"{url}/api/tournaments", {"name": "Cup", "points": [3, -1]})
        assert status == 400 and "points" in body["message"]
        assert _call(f"{url}/api/tournaments", token=None)[1] == {"tournaments": []}
        status, body = _call(f"{url}/api/tournaments",
                             {"name": "Cup", "points": [3, 1], "tie_breaks": ["prestige"]})
        assert status == 201
        tid = body["id"]

        rng = random.Random(8)
        rounds = [{"t1": {"red": "Ann", "blue": "Bob"}, "t2": {"red": "Cid", "blue": "Dee"}},
                  {"t1": {"red": "Ann", "blue": "Cid"}, "t2": {"red": "Bob", "blue": "Dee"}}]
        status, body = _call(f"{url}/api/tournaments/{tid}/rounds",
                             {"tables": {"t1": {"red": "Ann", "blue": "Ann"}}})
        assert status == 400 and "twice" in body["message"]
        want: list[Result] = []
        for n, seats in enumerate(rounds, 1):
            assert _call(f"{url}/api/tournaments/{tid}/rounds", {"tables": seats}) == (
                201, {"round": n})
            for name, s in services.items():
                s.new_game(["red", "blue"])
                _play_to_the_end(s, rng)
                want += _results(s, seats[name], n, name)
            detail: dict[str, Any] = {}

            def round_over(n: int = n) -> bool:
                nonlocal detail
                detail = _call(f"{url}/api/tournaments/{tid}", token=None)[1]
                return all(g["status"] == "over" for g in detail["games"] if g["round"] == n)
            wait_until(round_over, 120, f"round {n}'s games to end in the hall")
        expected = standings(want, [3, 1], ["prestige"])
        assert [(s["person"], s["points"], s["place"], s["prestige"])
                for s in detail["standings"]] == [
            (s.person, s.points, s.place, s.prestige) for s in expected]
        assert [g["game_id"] for g in detail["games"]] == [1, 1, 2, 2]  # each table's new game

        # each finished game's play log names the people the organiser seated
        with urllib.request.urlopen(f"{url}/games/t1/1.bgsplay", timeout=10) as r:
            doc = json.loads(r.read())
        seats = rounds[0]["t1"]
        names = {p["id"]: p["name"] for p in doc["players"]}
        assert {names[s["playerRefId"]]: s["role"] for s in doc["plays"][0]["playerScores"]} \
            == {v: k for k, v in seats.items()}
        assert doc["locations"][0]["name"] == "t1"
        with urllib.request.urlopen(f"{url}/games/t2/2.bgg.xml", timeout=10) as r:
            assert b'name="Dee"' in r.read()

        shots = Path(os.environ.get("VILLAGE_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(f"{url}/tournaments/{tid}")
        assert page.locator("form").count() == 0  # no token: read-only
        first = expected[0]
        assert first.person in page.locator("table.standings tbody tr").first.inner_text()
        page.screenshot(path=str(shots / "hall-tournament-tablet.png"), full_page=True)
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(f"{url}/tournaments/{tid}?token={TOKEN}")
        phone.locator("textarea[name=tables]").fill("t1 red=Ann")  # no ':': refused, said why
        phone.locator("button", has_text="Start round 3").click()
        assert "line 1" in phone.locator(".refusal").inner_text()
        assert phone.locator("h2", has_text="Round 3").count() == 0
        phone.locator("textarea[name=tables]").fill("t1: red=Ann, blue=Dee\nt2: red=Bob, blue=Cid")
        phone.locator("button", has_text="Start round 3").click()
        phone.locator("h2", has_text="Round 3").wait_for()
        phone.screenshot(path=str(shots / "hall-tournament-phone.png"))
        page.goto(f"{url}/league")
        assert "Ann" in page.locator("table.standings").inner_text()
        page.screenshot(path=str(shots / "hall-league-tablet.png"))
    finally:
        for pub in pubs:
            pub.stop()
        for s in services.values():
            s.store.close()
        hall.kill()

