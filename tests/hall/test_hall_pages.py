"""The hall pages in Debian's Chromium: three tables play through a real Mosquitto into a
real PostgreSQL; ``companion hall`` (a real process) shows every table's card, updates one
live when its table plays (no reload), and serves each game's record. Screenshots go to
``VILLAGE_SCREENSHOTS`` (1280×800 and 390×844)."""

from __future__ import annotations

import json
import os
import random
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from hallkit import BROWSER, Broker, Process, hall_rows, play, wait_until

from companion.hall.outbox import HallPublisher
from companion.hall.topics import parse_broker_url
from companion.store import EventStore
from companion.table import TableService

TABLES = ("cafe-1", "cafe-2", "cafe-3")
TOKEN = "organiser-token"

pytestmark = BROWSER


class Tables:
    """A few tables (real `TableService`s on SQLite) each with its publisher."""

    def __init__(self, folder: Path, broker: Broker) -> None:
        self.services: dict[str, TableService] = {}
        self.pubs: list[HallPublisher] = []
        for name in TABLES:
            s = TableService(EventStore(folder / f"{name}.sqlite3"), "tok")
            pub = HallPublisher(s.store.path, name, parse_broker_url(broker.url), poll=0.1)
            s.add_listener(pub.wake)
            pub.start()
            self.services[name] = s
            self.pubs.append(pub)

    def close(self) -> None:
        for pub in self.pubs:
            pub.stop()
        for s in self.services.values():
            s.store.close()


def _get(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.headers.get("Content-Type", ""), r.read()


def test_the_hall_grid_live_in_chromium(broker: Broker, dsn: str, tmp_path: Path,
                                        browser: Any) -> None:
    hall = Process(tmp_path / "hall.log", "hall", "--mqtt", broker.url, "--db", dsn,
                   "--host", "127.0.0.1", "--port", "0", "--token", TOKEN)
    tables = Tables(tmp_path, broker)
    try:
        hall.start().ready("pages on http://")
        port = re.search(r"pages on http://127\.0\.0\.1:(\d+)/", hall.log.read_text())
        assert port is not None
        url = f"http://127.0.0.1:{port.group(1)}"
        rng = random.Random(5)
        players = (["red", "blue"], ["red", "blue", "yellow"], ["white", "red", "blue", "yellow"])
        for (name, s), who in zip(tables.services.items(), players, strict=True):
            s.new_game(who, modules=["port"] if name == "cafe-2" else [])
            play(s, rng, 60 + 40 * len(who))
        finished = tables.services["cafe-3"]
        for _ in range(4000):  # one game to its end: its card says who won
            if finished.state().phase == "over":
                break
            finished.submit(rng.choice(finished.legal_view()["actions"]))
        assert finished.state().phase == "over"
        for name, s in tables.services.items():
            wait_until(lambda n=name, s=s: len(hall_rows(dsn, n)) == s.seq(), 120,
                       f"{name}'s events in the hall")

        shots = Path(os.environ.get("VILLAGE_SCREENSHOTS", tmp_path))
        shots.mkdir(parents=True, exist_ok=True)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url + "/")
        page.locator("#live[data-state='live']").wait_for(timeout=10_000)
        for name in TABLES:
            page.locator(f"#table-{name}").wait_for(timeout=10_000)
        live = tables.services["cafe-1"]
        card = page.locator("#table-cafe-1")
        wait_until(lambda: f"event {live.seq()}" in card.inner_text(), 10, "cafe-1's card")
        wait_until(lambda: "Finished" in page.locator("#table-cafe-3").inner_text(), 120,
                   "cafe-3's final state")
        assert "Winner:" in page.locator("#table-cafe-3").inner_text()
        assert "next to die" in card.inner_text()
        assert f"Round {live.state().round}" in card.inner_text()

        # a move at one table reaches its card without a reload
        page.evaluate("window.__same_page = true")
        play(live, rng, 5)
        wait_until(lambda: f"event {live.seq()}" in card.inner_text(), 5, "the live update")
        assert page.evaluate("window.__same_page") is True
        page.screenshot(path=str(shots / "hall-grid-tablet.png"))
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(url + "/")
        phone.locator("#table-cafe-3").wait_for(timeout=10_000)
        phone.screenshot(path=str(shots / "hall-grid-phone.png"))
        # on a phone the hall's links are the table pages' menu, naming the page in view
        assert phone.locator("header nav").is_visible() is False
        menu = phone.locator("details.pages-menu")
        assert menu.locator("summary").inner_text().strip().endswith("Tables")
        menu.locator("summary").click()
        phone.screenshot(path=str(shots / "hall-menu-phone.png"))
        menu.locator("a", has_text="History").click()
        phone.locator("table.hall-history").wait_for(timeout=10_000)
        assert phone.locator("details.pages-menu summary").inner_text().strip().endswith(
            "History")

        # each game's record: the public header, then every event as published
        kind, body = _get(f"{url}/games/cafe-2/1.jsonl")
        assert kind.startswith("application/x-ndjson")
        lines = [json.loads(x) for x in body.decode().splitlines()]
        assert lines[0]["players"] == ["red", "blue", "yellow"] and lines[0]["table"] == "cafe-2"
        assert lines[0]["expansions"] == ["port"]
        assert [m["seq"] for m in lines[1:]] == list(range(1, tables.services["cafe-2"].seq() + 1))

        page.goto(url + "/history")
        assert "cafe-3" in page.locator("table.hall-history").inner_text()
        page.screenshot(path=str(shots / "hall-history-tablet.png"))
        assert errors == []
        with pytest.raises(urllib.error.HTTPError) as missing:
            _get(f"{url}/games/cafe-9/1.jsonl")
        assert missing.value.code == 404
        missing.value.close()
    finally:
        tables.close()
        hall.kill()
