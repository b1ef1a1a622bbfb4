"""The readers page in Debian's Chromium against a real server with two running hub adapters
(`SerialHub`) on socat pty pairs, each talking to a scripted hub: a tag put on a reader
highlights that reader's card, zones are chosen by their words, Save writes the file
beside the database and the hubs use the new zones at once (the tag already on a reader
is re-announced in its new zone, a new tag is seen there); screenshots at 1280×800 and
390×844."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sensors"))
from browserkit import BROWSER, PHONE, TABLET, TOKEN, Server, needs_playwright, open_page
from hub_support import PeerHub, SocatPair, wait_for

from companion.reconcile.observations import Observation, PiecesGone, PiecesSeen
from companion.sensors.serial_hub import SerialHub
from web import runtime_of

pytestmark = BROWSER
sync_api = needs_playwright()
UID_RED, UID_MONK, UID_NEW = "04A1B2C3D4E5F6", "0BADCAFE", "04112233445566"


class Hubs:
    """Two scripted hubs (id 1 with 4 readers, id 2 with 3) behind real adapters that feed
    the server's `RunningSensors`; `moves` records the piece observations."""

    def __init__(self, server: Server, tmp_path: Path) -> None:
        registry = runtime_of(server.app).registry
        registry.enrol(UID_RED, "red-1a")
        registry.enrol(UID_MONK, "monk-2")
        running = runtime_of(server.app).running
        self.obs: list[Observation] = []
        self.lock = threading.Lock()
        running.subscribe(self._record)
        self.pairs, self.peers, self.hubs = [], [], []
        for hub_id, readers in ((1, 4), (2, 3)):
            d = tmp_path / f"pty{hub_id}"
            d.mkdir()
            pair = SocatPair(d)
            self.pairs.append(pair)
            self.peers.append(PeerHub(pair.b, readers=readers, hub_id=hub_id))
            hub = SerialHub(pair.a, running.observe, None, registry.lookup,
                            name=f"serial:/dev/ttyUSB{hub_id - 1}")
            running.add(hub)
            hub.start()
            self.hubs.append(hub)
        assert wait_for(lambda: all(h.state == "streaming" for h in self.hubs), 5)
        self.faulted: set[tuple[int, int]] = set()  # (hub id, reader) not answering
        self.stop = threading.Event()
        self.beat = threading.Thread(target=self._heartbeat, daemon=True)
        self.beat.start()

    def _heartbeat(self) -> None:
        """Each hub's HB line every second, as the firmware sends (a silent link is lost)."""
        ms = 0
        while not self.stop.wait(1.0):
            ms += 1000
            for peer in self.peers:
                polls = ["F" if (peer.hub_id, r) in self.faulted else "20"
                         for r in range(peer.readers)]
                try:
                    peer.line(f"HB {ms} {','.join(polls)}")
                except OSError:
                    return

    def _record(self, obs: Observation) -> None:
        if isinstance(obs, PiecesSeen | PiecesGone):
            with self.lock:
                self.obs.append(obs)

    def moves(self) -> list[tuple[str, str, str, str]]:
        with self.lock:
            return [(o.kind, o.source, o.zone, next(iter(o.pieces | o.unknown_uids)))
                    for o in self.obs if isinstance(o, PiecesSeen | PiecesGone)]

    def put(self, hub: int, reader: int, uid: str) -> None:
        peer = self.peers[hub - 1]
        peer.present.add((reader, uid))
        peer.line(f"SEEN {reader} {uid}")

    def close(self) -> None:
        self.stop.set()
        self.beat.join(timeout=2)
        for x in (*self.hubs, *self.peers, *self.pairs):
            x.close()


@pytest.fixture
def hubs(server: Server, tmp_path: Path) -> Iterator[Hubs]:
    h = Hubs(server, tmp_path)
    yield h
    h.close()


def _select(page: Any, reader: str) -> Any:
    return page.locator(f'select[id="zone-{reader}"]')


def _latest(page: Any) -> list[str]:
    return page.eval_on_selector_all(".reader-card.latest", "els => els.map(e => e.dataset.reader)")


def test_find_each_reader_choose_its_zone_and_save(
        server: Server, hubs: Hubs, browser: Any, shots: Path, tmp_path: Path) -> None:
    page = open_page(browser, f"{server.url}/readers#token={TOKEN}", TABLET)
    page.wait_for_selector('.reader-card[data-reader="hub:2/reader:2"]')
    assert page.locator(".reader-card").count() == 7
    assert page.locator("fieldset.hub legend").all_inner_texts() == [
        "Hub 1 · connected", "Hub 2 · connected"]
    page.wait_for_function("() => document.querySelector('.reader-card .status')"
                           ".textContent.includes('20 reads/s')")
    assert _latest(page) == []  # no tag seen yet: nothing highlighted

    # a tag on hub 1's reader 2 marks that card; then one on hub 2's reader 0 takes over
    hubs.put(1, 2, UID_RED)
    page.wait_for_function("() => document.querySelector('.reader-card.latest')")
    assert _latest(page) == ["hub:1/reader:2"]
    card = page.locator('.reader-card[data-reader="hub:1/reader:2"]')
    assert card.locator(".latest-badge").is_visible()
    assert "A tag is on it" in card.locator(".status").inner_text()
    hubs.put(2, 0, UID_MONK)
    page.wait_for_function(
        "() => document.querySelector('.reader-card.latest')?.dataset.reader === 'hub:2/reader:0'")
    assert _latest(page) == ["hub:2/reader:0"]

    # the choices are words, never keys
    options = _select(page, "hub:1/reader:0").locator("option").all_inner_texts()
    assert options[0] == "Not used" and "Red farm" in options and "Council level 2" in options
    assert "Black bag's mouth" in options and all(":" not in o for o in options)

    for reader, words in [("hub:1/reader:0", "Red farm"), ("hub:1/reader:1", "Blue farm"),
                          ("hub:1/reader:2", "Black bag's mouth"),
                          ("hub:1/reader:3", "Council level 2"),
                          ("hub:2/reader:0", "Church window 1 (right)")]:
        _select(page, reader).select_option(label=words)
    assert page.locator("#zones-state").inner_text() == "Not saved yet."
    # a refresh of the status must not undo the choices: wait for one that starts after
    # them and has run (the page asks again only once the previous refresh is done)
    for _ in range(2):
        with page.expect_request(lambda r: r.method == "GET" and r.url.endswith("/api/zones")):
            pass
    assert _select(page, "hub:1/reader:3").input_value() == "council:2"
    page.screenshot(path=str(shots / "readers-zones-1280.png"))

    page.click("#zones-save")
    page.wait_for_function(
        "() => document.querySelector('#zones-state').textContent.startsWith('Saved')")
    saved = json.loads((tmp_path / "games.zones.json").read_text())
    assert saved == {"hubs": {"1": {"0": "farm:red", "1": "farm:blue", "2": "bag",
                                    "3": "council:2"},
                              "2": {"0": "church:1"}}, "default": {}}
    # the hubs took it: the pieces already on readers moved, new tags are seen there
    assert wait_for(lambda: len(hubs.moves()) == 6, 3), hubs.moves()
    assert sorted(hubs.moves()[2:]) == sorted([
        ("gone", "hub:1/reader:2", "unmapped", "red-1a"),
        ("seen", "hub:1/reader:2", "bag", "red-1a"),
        ("gone", "hub:2/reader:0", "unmapped", "monk-2"),
        ("seen", "hub:2/reader:0", "church:1", "monk-2")])
    hubs.put(1, 0, UID_NEW)
    assert wait_for(lambda: len(hubs.moves()) == 7, 3)
    assert hubs.moves()[-1] == ("seen", "hub:1/reader:0", "farm:red", UID_NEW)
    page.wait_for_function(
        "() => document.querySelector('.reader-card.latest')?.dataset.reader === 'hub:1/reader:0'")
    assert page.js_errors == []

    # a phone opened afterwards shows the saved zones
    phone = open_page(browser, f"{server.url}/readers#token={TOKEN}", PHONE)
    phone.wait_for_selector('.reader-card.latest[data-reader="hub:1/reader:0"]')
    assert _select(phone, "hub:1/reader:2").input_value() == "bag"
    assert _select(phone, "hub:2/reader:1").input_value() == ""
    chosen = _select(phone, "hub:1/reader:3").locator("option:checked").inner_text()
    assert chosen == "Council level 2"
    phone.screenshot(path=str(shots / "readers-zones-390.png"), full_page=True)

    # a reader that stops answering is said on its card and on its hub
    hubs.faulted.add((2, 2))
    hubs.peers[1].line("FAULT 2 timeout")
    card = phone.locator('.reader-card[data-reader="hub:2/reader:2"] .status')
    phone.wait_for_function(
        "() => document.querySelector('.reader-card[data-reader=\"hub:2/reader:2\"] .status')"
        ".textContent.startsWith('Not answering')")
    assert card.inner_text() == "Not answering"
    assert phone.locator('fieldset[data-hub="serial:/dev/ttyUSB1"] legend').inner_text() == (
        "Hub 2 · connected, a reader is not answering")
    assert phone.js_errors == []


def test_save_without_the_token_asks_for_it(server: Server, hubs: Hubs, browser: Any,
                                            tmp_path: Path) -> None:
    page = open_page(browser, f"{server.url}/readers", TABLET)
    page.evaluate("() => localStorage.clear()")
    page.reload()
    page.wait_for_selector('select[id="zone-hub:1/reader:0"]')
    page.locator("#token-form").wait_for()  # asked at once: no token known
    _select(page, "hub:1/reader:0").select_option(label="Yellow farm")
    page.click("#zones-save")
    page.wait_for_function("() => !document.querySelector('#refusal').hidden")
    assert "table token" in page.locator("#refusal").inner_text()
    assert not (tmp_path / "games.zones.json").exists()
    page.fill("#token-input", TOKEN)
    page.click("#token-form button")  # the save goes through with the token
    page.wait_for_function(
        "() => document.querySelector('#zones-state').textContent.startsWith('Saved')")
    assert json.loads((tmp_path / "games.zones.json").read_text())["hubs"]["1"] == {
        "0": "farm:yellow"}
    assert hubs.hubs[0].zones.zone(1, 0) == "farm:yellow"
    assert page.js_errors == []
