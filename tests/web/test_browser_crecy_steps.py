"""Crecy's newer steps and card forms through the pages in a real browser (Debian's
Chromium, Playwright, the app under uvicorn), at the tablet's 1280×800 and the phone's
390×844: a one-player game started on the new-game page (« Généalogie » shown refused with
its reason) and its solo table's form; the mentor's form on its owner's phone and the
count it shows (nothing of it on the table's pages); the tracks' form (house rule
``limited_tracks``); Roger's friends drawn from the deck; a mission's form when it is
validated; Don Juan's woman from the display. The positions between those steps are
played through the API as the table and the phones would (`crecy_drive`). Screenshots
(``VILLAGE_SCREENSHOTS=docs/screenshots`` keeps them)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page, seq
from crecy_drive import Drive, answer

from companion.crecy import engine
from companion.crecy.state import State

pytestmark = BROWSER
needs_playwright()


def _drawn(page: Any, server: Server, status: str = "cr-status") -> None:
    page.locator(f"#{status}[data-seq='{seq(server)}']").wait_for(state="attached")


def _wait(server: Server, ok: Any) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if ok(server.service.state()):
            return
        time.sleep(0.05)
    raise AssertionError(f"not reached: {engine.pending(server.service.state())}")


def _fill(form: Any, values: dict[str, Any]) -> None:
    for k, v in values.items():
        field = form.locator(f"[name='{k}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option("" if v is None else str(v))
        else:
            field.fill("" if v is None else str(v))
    form.locator("button[type=submit]").click()


def _question(st: State) -> dict[str, Any] | None:
    now = engine.pending(st)
    return now.detail["question"] if now.kind == "learn" else None


def _asks(card_type: str) -> Any:
    return lambda st: (q := _question(st)) is not None and q["card_type"] == card_type


def _tap(page: Any, action: dict[str, Any]) -> None:
    found = page.evaluate("""(want) => {
      const canon = (v) => JSON.stringify(v, Object.keys(v).sort());
      const b = [...document.querySelectorAll('.cr-option')].find((x) => canon(JSON.parse(x.dataset.action)) === canon(want));
      if (b) b.click();
      return !!b;
    }""", action)
    assert found, (action, page.locator(".cr-options").first.inner_text())


def _start(page: Any, players: list[str], house: tuple[str, ...] = ()) -> None:
    page.locator("input[name=game][value=crecy]").check()
    page.locator(f"input[name=count][value='{len(players)}']").check()
    for i, colour in enumerate(players):
        page.locator(f"select[name=seat-{i}]").select_option(colour)
    for i, colour in enumerate(players):
        page.locator(f"input[name=head-{colour}]").fill("ABCD"[i])
        page.locator(f"select[name=side-{colour}]").select_option(
            "matriarch" if i % 2 == 0 else "patriarch")
    for rule in house:
        page.locator(f"input[name=other-house][value={rule}]").check()
    page.locator("#start").click()
    page.locator("#started").wait_for()


def _secret_free(page: Any, names: set[str]) -> None:
    words = page.locator("body").text_content() or ""
    assert not [n for n in names if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", words)]


def test_one_player_from_the_new_game_page_and_the_mentor_on_the_phone(
        server: Server, browser: Any, shots: Path) -> None:
    new = open_page(browser, server.url + f"/new#token={TOKEN}")
    new.locator("input[name=game][value=crecy]").check()
    assert new.locator("#crecy-solo").is_hidden()
    new.locator("input[name=count][value='1']").check()
    assert new.locator("#crecy-solo").is_visible()
    genealogy = new.locator("input[name=crecy_solo][value=genealogy]")
    assert genealogy.is_disabled()
    why = new.locator("[data-solo-why=genealogy]").inner_text()
    assert "not supported" in why and "Indice" in why
    assert new.locator("input[name=crecy_solo][value=standard]").is_checked()
    new.locator("#crecy-options").screenshot(path=str(shots / "crecy-new-solo-tablet.png"))
    small = open_page(browser, server.url + f"/new#token={TOKEN}", PHONE)
    small.locator("input[name=game][value=crecy]").check()
    small.locator("input[name=count][value='1']").check()
    small.locator("#crecy-solo").scroll_into_view_if_needed()
    small.screenshot(path=str(shots / "crecy-new-solo-phone.png"))
    _start(new, ["red"])
    assert server.get("/api/state")["players"][0]["id"] == "red"
    assert server.service.state().solo is True  # one player: the standard solo variant
    drive = Drive(server, names={"mentor": ["John Law"]})
    table = open_page(browser, server.url + f"/crecy#token={TOKEN}")
    # the solo table's form (« Variante solo standard »: activity → action), on the tablet
    drive.until(_asks("crecy.solo"))
    _drawn(table, server)
    form = table.locator("#cr-question[data-card='activities']")
    values = {"aristocrat": "title_contribution", "artisan": "enterprise",
              "scientist": "fertility", "artist": "residence", "diplomat": "mission"}
    table.screenshot(path=str(shots / "crecy-solo-form-tablet.png"))
    _fill(form, values)
    _wait(server, lambda st: st.book.knows("crecy.solo", "activities"))
    assert dict(server.service.state().book.values("crecy.solo", "activities")) == values
    # the mentor, dealt and its form answered on the phone
    st = drive.until(lambda st: st.players[0].mentor is not None
                     and engine.pending(st).kind == "turn")
    me = open_page(browser, server.url + f"/crecy/me/red?token={drive.tokens['red']}", PHONE)
    _drawn(me, server, "me-status")
    me.locator("#me-mentor-learn").click()
    form = me.locator("#me-mentor-form")
    form.wait_for()
    income = st.players[0].income
    _fill(form, {"main_count": "income", "main_per": 1, "main_plus": 1,
                 "s1_count": "gold", "s1_at_least": 8, "s1_honour": 4})
    _wait(server, lambda st: st.book.knows("crecy.mentor", "John Law"))
    _drawn(me, server, "me-status")
    now = me.locator("#me-mentor-now")
    now.wait_for()
    assert now.get_attribute("data-total") == str(income + 1)
    assert "would give" in now.inner_text() and "gold: " in now.inner_text()
    me.locator("#me-mentor").screenshot(path=str(shots / "crecy-phone-mentor.png"))
    _drawn(table, server)
    _secret_free(table, {"John Law"})
    board = open_page(browser, server.url + "/crecy/board")
    _drawn(board, server)
    _secret_free(board, {"John Law"})
    for pg in (new, small, table, me, board):
        assert pg.js_errors == [], pg.js_errors


def test_the_tracks_form_roger_and_a_mission_s_form(
        server: Server, browser: Any, shots: Path) -> None:
    new = open_page(browser, server.url + f"/new#token={TOKEN}")
    _start(new, ["red", "blue"], house=("limited_tracks",))
    drive = Drive(server, names={"red": ["Roger", "Sieur A", "Sieur B"],
                                 "mission": ["Une machine révolutionnaire", "Mission Z"]})
    table = open_page(browser, server.url + f"/crecy#token={TOKEN}")
    drive.until(_asks("crecy.board"))
    _drawn(table, server)
    _fill(table.locator("#cr-question[data-card='individual board']"),
          {"income_min": -5, "income_max": 20, "prestige_min": -10, "prestige_max": 30})
    _wait(server, lambda st: st.book.knows("crecy.board", "individual board"))
    st = drive.until(lambda st: engine.pending(st).kind == "turn"
                     and engine.pending(st).player == "red")
    assert "Roger" in st.player("red").hand
    # Roger's form and his marriage, on red's phone
    red = open_page(browser, server.url + f"/crecy/me/red?token={drive.tokens['red']}", PHONE)
    _drawn(red, server, "me-status")
    red.locator("button[data-learn='Roger']").click()
    form = red.locator("#me-card-form")
    values = answer(st.book.question("crecy.friend", "Roger"))
    assert values["effect"] == "friends_from_deck"
    _fill(form, values)
    _wait(server, lambda st: st.book.knows("crecy.friend", "Roger"))
    _drawn(red, server, "me-status")
    _secret_free(table, {"Roger"})
    marry = {"type": "marry", "player": "red", "member": "head", "friend": "Roger",
             "pawn": "player"}
    _tap(red, marry)
    _wait(server, lambda st: st.player("red").family[0].spouse == "Roger")
    drive.until(lambda st: engine.pending(st).kind == "turn"
                and engine.pending(st).player == "red")
    drive.send({"type": "connections", "player": "red", "cards": 1, "pawn": "player"})
    # Roger: the friend card may come from the deck instead, tapped on the tablet
    _drawn(table, server)
    table.screenshot(path=str(shots / "crecy-roger-tablet.png"))
    _tap(table, {"type": "friends_from_deck", "player": "red"})
    _wait(server, lambda st: engine.pending(st).kind == "friend_draw")
    _drawn(red, server, "me-status")
    red.locator("#me-name").fill("Sieur C")
    red.screenshot(path=str(shots / "crecy-roger-phone.png"), full_page=True)
    red.locator("#me-report button[type=submit]").click()
    _wait(server, lambda st: "Sieur C" in st.player("red").hand)
    _drawn(table, server)
    _secret_free(table, {"Sieur C"})
    # a mission kept, then validated on the tablet: its form is asked there first
    st = drive.until(lambda st: bool(st.player("red").missions),
                     choose=lambda st: next((a for a in engine.legal_options(st)
                                             if a["type"] == "mission"
                                             and a["player"] == "red"), None))
    mission = st.player("red").missions[0]
    assert mission == "Une machine révolutionnaire"  # kept: the first of the two drawn
    _drawn(table, server)
    table.locator("#cr-corrections summary").click()
    mform = table.locator("#cr-mission-form")
    mform.locator("select").select_option(label=f"Red: {mission}")
    mform.locator("input[name=honour]").fill("2")
    mform.locator("button[type=submit]").click()
    card = table.locator("#cr-mission-card")
    card.wait_for()
    assert mission not in server.service.state().player("red").missions_done
    table.locator("#cr-adjust").screenshot(path=str(shots / "crecy-mission-form-tablet.png"))
    _fill(card, {"effect": "counts_as_activity", "activity": "artisan"})
    _wait(server, lambda st: mission in st.player("red").missions_done)
    st = server.service.state()
    assert dict(st.book.values("crecy.mission", mission) or {})["activity"] == "artisan"
    assert st.player("red").honour >= 2
    for pg in (new, table, red):
        assert pg.js_errors == [], pg.js_errors


def test_don_juan_takes_a_woman_from_the_display(
        server: Server, browser: Any, shots: Path) -> None:
    new = open_page(browser, server.url + f"/new#token={TOKEN}")
    _start(new, ["red", "blue"])
    drive = Drive(server)
    drive.effects = ["don_juan"]  # red's first child (red plays first)
    st = drive.until(lambda st: st.gen == 2 and (
        (st.todo != [] and st.todo[0].kind == "take_friend" and bool(st.todo[0].data.get("sex")))
        or _asks("crecy.friend")(st)), limit=600)
    assert st.gen == 2
    table = open_page(browser, server.url + f"/crecy#token={TOKEN}")
    asked = 0
    while _asks("crecy.friend")(server.service.state()):  # the display, face up: asked here
        st = server.service.state()
        q = _question(st)
        assert q is not None and q["card"] in st.display
        _drawn(table, server)
        if asked == 0:
            table.screenshot(path=str(shots / "crecy-don-juan-display-form-tablet.png"))
        _fill(table.locator(f"#cr-question[data-card='{q['card']}']"), answer(q))
        _wait(server, lambda s, c=q["card"]: s.book.knows("crecy.friend", c))
        asked += 1
    st = server.service.state()
    options = engine.legal_options(st)
    assert options and all(a["type"] == "take_friend" for a in options)
    _drawn(table, server)
    table.screenshot(path=str(shots / "crecy-don-juan-tablet.png"))
    woman = options[0]["friend"]
    _tap(table, options[0])
    _wait(server, lambda s: woman in s.player("red").hand)
    assert table.js_errors == [] and new.js_errors == []
