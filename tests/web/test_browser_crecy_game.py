"""Le Testament du Duc de Crecy through its pages in a real browser (Debian's Chromium,
Playwright, the app under uvicorn): a whole three-player game, the golden record's
(tests/crecy/golden/three-players.jsonl, a fixed game of 3 generations: its draws are
entered by hand as the record has them), started on the new-game page and played on the
tablet (1280×800) and three phones (390×844): the box's questions answered on the
tablet's forms, each draw only one player sees typed on their phone, each option naming a
hand card tapped on that phone (a friend card's form asked there when it is first played),
every other option tapped on the tablet. Then a second game: the learned cards are not
asked again, and a child card is drawn virtually. Screenshots at both sizes
(``VILLAGE_SCREENSHOTS=docs/screenshots`` keeps them)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

from browserkit import BROWSER, PHONE, TOKEN, Server, needs_playwright, open_page, seq

from companion.crecy import engine, phone, record

pytestmark = BROWSER
needs_playwright()

GOLDEN = Path(__file__).parents[1] / "crecy" / "golden" / "three-players.jsonl"
SEAT = {"green": "yellow"}  # the record's green family sits at the page's yellow seat
PHONE_KINDS = ("marry", "arrange", "discard", "swap", "keep_mission")


def _seat(a: dict[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for k in ("player", "to"):
        if out.get(k) in SEAT:
            out[k] = SEAT[out[k]]
    return out


def _record() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The golden record at the page's seats, each friend card's form answered just before
    the card is played (where the phone asks it)."""
    lines = [json.loads(x) for x in GOLDEN.read_text("utf-8").splitlines() if x]
    header = json.loads(json.dumps(lines[0]).replace('"green"', '"yellow"'))
    header["families"]["yellow"] = header["families"]["green"] = lines[0]["families"]["green"]
    del header["families"]["green"]
    actions = [_seat(a) for a in lines[1:]]
    forms = {a["card"]: a for a in actions if a["type"] == "card_values"
             and a["card_type"] == "crecy.friend"}
    out: list[dict[str, Any]] = []
    for a in actions:
        if a["type"] == "card_values" and a["card_type"] == "crecy.friend":
            continue
        if a["type"] in ("marry", "arrange") and a.get("friend") in forms:
            out.append({**forms.pop(a["friend"]), "hand": a["player"]})  # on the phone
        out.append(a)
    return header, out


SAME = """([sel, want]) => {
  const canon = (v) => JSON.stringify(v, Object.keys(v).sort());
  const i = [...document.querySelectorAll(sel)].findIndex((b) => canon(JSON.parse(b.dataset.action)) === canon(want));
  if (i >= 0) document.querySelectorAll(sel)[i].click();
  return i;
}"""


def _drawn(page: Any, server: Server, status: str) -> None:
    page.locator(f"#{status}[data-seq='{seq(server)}']").wait_for(state="attached")


def _tap(page: Any, server: Server, status: str, action: dict[str, Any]) -> None:
    _drawn(page, server, status)
    found = page.evaluate(SAME, [".cr-option", action])
    assert found >= 0, (action, page.locator(".cr-options").inner_text())


def _fill_card(form: Any, values: dict[str, Any]) -> None:
    for k, v in values.items():
        field = form.locator(f"[name='{k}']")
        if field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(str(v))
        else:
            field.fill(str(v))
    form.locator("button[type=submit]").click()


def _start(page: Any, header: dict[str, Any]) -> None:
    page.locator("input[name=game][value=crecy]").check()
    seats = header["players"]
    for i, colour in enumerate(seats):
        page.locator(f"select[name=seat-{i}]").select_option(colour)
    page.locator(f"input[name=first][value={header['first_player']}]").check()
    for colour in seats:
        fam = header["families"][colour]
        page.locator(f"input[name=head-{colour}]").fill(fam["head"])
        page.locator(f"select[name=side-{colour}]").select_option(fam["side"])
    page.locator("#start").click()
    page.locator("#started").wait_for()


def test_a_whole_game_through_the_pages_then_a_second_that_asks_nothing(
        server: Server, browser: Any, shots: Path) -> None:
    header, actions = _record()
    new = open_page(browser, server.url + f"/new#token={TOKEN}")
    new.locator("input[name=game][value=crecy]").check()
    new.screenshot(path=str(shots / "crecy-new-game-tablet.png"), full_page=True)
    _start(new, header)
    tokens = _tokens(server)
    assert new.locator("#player-links a").first.get_attribute("href").count("/crecy/me/") == 1
    table = open_page(browser, server.url + f"/crecy#token={TOKEN}")
    phones = {c: open_page(browser, server.url + f"/crecy/me/{c}?token={t}", PHONE)
              for c, t in tokens.items()}
    st = record.start(header)
    shot = {"learn", "turn", "phone_card", "phone_turn", "child"}
    i = 0
    while i < len(actions):
        a = actions[i]
        kind, p = a["type"], engine.pending(st).to_json()
        owner = next((c.id for c in st.players if (kind in phone.DRAWS or kind == "card_values"
                      or kind in PHONE_KINDS) and phone.owns(st, c.id, a)), None)
        if kind == "card_values" and owner is None:       # the box's question, on the tablet
            _drawn(table, server, "cr-status")
            form = table.locator("#cr-question")
            if "learn" in shot and a["card_type"] == "crecy.title":
                shot.discard("learn")
                table.screenshot(path=str(shots / "crecy-card-question-tablet.png"))
            _fill_card(form, a["values"])
        elif kind == "card_values":                        # a hand card's form, on its phone
            ph = phones[owner]
            _drawn(ph, server, "me-status")
            ph.locator(f"button[data-learn='{a['card']}']").click()
            form = ph.locator("#me-card-form")
            form.wait_for()
            if "phone_card" in shot:
                shot.discard("phone_card")
                ph.screenshot(path=str(shots / "crecy-phone-card-form.png"), full_page=True)
            _fill_card(form, a["values"])
        elif kind in phone.DRAWS and owner is not None:   # typed on the drawer's phone
            ph = phones[owner]
            _drawn(ph, server, "me-status")
            ph.locator("#me-name").fill(a.get("name") or a.get("mentor"))
            ph.locator("#me-report button[type=submit]").click()
        elif kind == "friend_drawn":                       # onto the display, on the tablet
            _drawn(table, server, "cr-status")
            table.locator("#cr-friend-name").fill(a["name"])
            table.locator("#cr-friend-turned").click()
        elif kind == "child_drawn":
            _drawn(table, server, "cr-status")
            if "child" in shot:
                shot.discard("child")
                table.locator("#cr-now").screenshot(path=str(shots / "crecy-child-draw-tablet.png"))
            form = table.locator("#cr-child-hand")
            form.locator("select[name=card]").select_option(a["card"])
            form.locator("select[name=effect]").select_option(a.get("effect", ""))
            form.locator("button[type=submit]").click()
        elif kind == "extra_dealt":
            _drawn(table, server, "cr-status")
            form = table.locator("#cr-extra-hand")
            form.locator("select[name=colour]").select_option(a["colour"])
            form.locator("button[type=submit]").click()
        elif kind == "adjust":
            _drawn(table, server, "cr-status")
            table.locator("#cr-corrections summary").click()
            form = table.locator("#cr-adjust-form")
            form.locator("select[name=player]").select_option(a["player"])
            for k in ("gold", "income", "prestige", "honour"):
                form.locator(f"input[name={k}]").fill(str(a.get(k, 0)))
            form.locator("input[name=note]").fill(a.get("note", ""))
            form.locator("button[type=submit]").click()
            table.locator("#cr-corrections summary").click()
        elif kind == "mentor_score":
            _drawn(table, server, "cr-status")
            form = table.locator("#cr-mentor-score")
            form.locator("input[name=main]").fill(str(a["main"]))
            for k, v in enumerate(a["secondary"]):
                form.locator(f"input[name=s{k}]").fill(str(v))
            form.locator("button[type=submit]").click()
        elif owner is not None:                            # an option naming a hand card
            if "phone_turn" in shot and kind == "discard":
                shot.discard("phone_turn")
                _drawn(phones[owner], server, "me-status")
                phones[owner].screenshot(path=str(shots / "crecy-phone-step.png"), full_page=True)
            _tap(phones[owner], server, "me-status", a)
        else:                                              # any other option, on the tablet
            if "turn" in shot and p["kind"] == "turn" and st.gen == 2:
                shot.discard("turn")
                _drawn(table, server, "cr-status")
                table.screenshot(path=str(shots / "crecy-play-tablet.png"))
            _tap(table, server, "cr-status", a)
        st = engine.apply(st, a)
        _wait_until(server, lambda s, want=i + 1: s["seq"] >= want)
        i += 1
    assert server.get("/api/state")["pending"]["kind"] == "over"
    assert server.get("/api/state")["winner"] == ["blue"]
    _drawn(table, server, "cr-status")
    assert "Blue won" in table.locator("#cr-over").inner_text()
    board = open_page(browser, server.url + "/crecy/board")
    _drawn(board, server, "cr-status")
    assert board.locator(".cr-tree[data-player=blue] .cr-member").count() >= 10
    board.screenshot(path=str(shots / "crecy-scoreboard-tablet.png"), full_page=True)
    board_phone = open_page(browser, server.url + "/crecy/board", PHONE)
    _drawn(board_phone, server, "cr-status")
    board_phone.screenshot(path=str(shots / "crecy-scoreboard-phone.png"))
    red = phones["red"]
    _drawn(red, server, "me-status")
    red.evaluate("window.scrollTo(0, 0)")
    red.screenshot(path=str(shots / "crecy-phone-end.png"), full_page=True)
    assert "Mentor" in red.locator("[data-mentor]").inner_text()
    for pg in (new, table, board, board_phone, *phones.values()):
        assert pg.js_errors == [], pg.js_errors
    # nothing private on the table's pages: hand cards drawn in private, mentors
    drawn = {a["name"] for a in actions if a["type"] == "friend_drawn" and a["to"] != "display"}
    secret = {c for p in st.players for c in p.hand if c in drawn and c not in {
        a.get("friend") for a in actions if a["type"] == "take_friend"}}
    secret |= {p.mentor for p in st.players if p.mentor}
    assert len(secret) >= 4
    for pg in (table, board):
        words = pg.locator("body").text_content() or ""
        assert not [n for n in secret if re.search(rf"(?<![\w]){re.escape(n)}(?![\w])", words)]
    assert "Ami 57" in phones["red"].locator("#me-hand").text_content()

    # a second game: the heads and generation I's cards are known, nothing is asked
    again = open_page(browser, server.url + f"/new#token={TOKEN}")
    _start(again, header)
    table.goto(server.url + "/crecy")
    _drawn(table, server, "cr-status")
    assert server.get("/api/state")["pending"]["kind"] == "mentor_deal"
    assert table.locator("#cr-question").count() == 0
    tokens = _tokens(server)
    second = {c: open_page(browser, server.url + f"/crecy/me/{c}?token={t}", PHONE)
              for c, t in tokens.items()}
    for n in range(3):                                   # mentors, on each phone
        who = server.get("/api/state")["pending"]["for"]
        _drawn(second[who], server, "me-status")
        second[who].locator("#me-name").fill(f"Mentor {n + 1}")
        second[who].locator("#me-report button[type=submit]").click()
        _wait_until(server, lambda s, n=n: s["seq"] == n + 1)
    names = iter(["Ami 04", "Ami 10", "Pierre", "Ami 16", "Ami 55"])
    while server.get("/api/state")["pending"]["kind"] == "friend_draw":
        p = server.get("/api/state")["pending"]
        now = seq(server)
        if p["to"] == "display":
            _drawn(table, server, "cr-status")
            table.locator("#cr-friend-name").fill(next(names))
            table.locator("#cr-friend-turned").click()
        else:
            ph = second[p["to"]]
            _drawn(ph, server, "me-status")
            known = [a["name"] for a in actions if a["type"] == "friend_drawn"
                     and a["to"] == p["to"]]
            mine = server.get(f"/api/state?viewer={p['to']}&token={tokens[p['to']]}")
            hand = mine["players"][header["players"].index(p["to"])]["hand"]
            ph.locator("#me-name").fill(next(x for x in known if x not in hand))
            ph.locator("#me-report button[type=submit]").click()
        _wait_until(server, lambda s, now=now: s["seq"] > now)
        if server.get("/api/state")["pending"]["kind"] == "keep_hand":
            now = seq(server)
            _tap(table, server, "cr-status", {"type": "keep_hand", "player":
                 server.get("/api/state")["pending"]["player"], "redraw": False})
            _wait_until(server, lambda s, now=now: s["seq"] > now)
    assert server.get("/api/state")["pending"]["kind"] == "turn"
    blue = second["blue"]
    _drawn(blue, server, "me-status")
    marry = blue.locator(".cr-option", has_text="marries the family head")
    marry.first.click()                                  # Ami 17 is known: no form now
    _wait_until(server, lambda s: s["pending"]["kind"] == "child_draw")
    _drawn(table, server, "cr-status")
    table.locator("#cr-now").screenshot(path=str(shots / "crecy-virtual-draw-tablet.png"))
    assert len(table.locator("#commitment").text_content() or "") == 64
    table.locator("#cr-virtual").click()
    _wait_until(server, lambda s: s["pending"]["kind"] != "child_draw")
    draws = server.get("/api/draws")["draws"]
    assert draws and draws[-1].get("seed")
    assert blue.locator("#me-card-form").count() == 0
    for pg in (again, table, *second.values()):
        assert pg.js_errors == [], pg.js_errors


def _tokens(server: Server) -> dict[str, str]:
    req = urllib.request.Request(server.url + "/api/tokens",
                                 headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req, timeout=5) as r:
        return {c: v["token"] for c, v in json.loads(r.read())["players"].items()}


def _wait_until(server: Server, ok: Any) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if ok(server.get("/api/state")):
            return
        time.sleep(0.05)
    raise AssertionError("the page's action did not reach the server")
