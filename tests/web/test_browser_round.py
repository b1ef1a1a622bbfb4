"""Real-browser tests (Debian's Chromium, Playwright, uvicorn on 127.0.0.1) of the green bag
after a reload and by hand, and of a whole round played through the pages up to the mass
and the next round's green bag."""

from __future__ import annotations

import hashlib
import json
import re
import urllib.parse
from pathlib import Path
from typing import Any

from browserkit import BROWSER, TOKEN, Server, click_and_wait, needs_playwright, open_page, seq

import companion.village as v
from companion import bags

pytestmark = BROWSER
needs_playwright()


def nonzero(spaces: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    return {s: {c: n for c, n in cubes.items() if n} for s, cubes in spaces.items()}


def shown_placement(page: Any) -> dict[str, dict[str, int]]:
    """The cubes the green-bag page says to put on each space: {space: {cube: n}}."""
    out: dict[str, dict[str, int]] = {}
    places = page.locator("#placement > .placement .place")
    for i in range(places.count()):
        place = places.nth(i)
        counts = {}
        for chip in place.locator(".cube-n").all_inner_texts():
            n, cube = chip.split()
            counts[cube] = int(n)
        out[str(place.get_attribute("data-space"))] = counts
    return out


def test_bag_shows_the_rounds_draw_after_reload_and_by_hand(
    server: Server, browser: Any, shots: Path
) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    server.post("/api/actions", {"type": "virtual_draw"})  # customer tiles
    page = open_page(browser, server.url + f"/bag#token={TOKEN}")
    page.locator("#virtual-panel").wait_for()
    commitment = page.locator("#commitment").text_content()
    page.click("#draw")
    page.locator("#verify.ok").wait_for()
    assert "shown here before the draw" in page.locator("#verify").inner_text()

    # A fresh load (another tablet, or this one after sleeping): the same placement, from
    # the state's round_fill, and the seed still checks against the stored commitment.
    page.reload()
    page.locator("#placement[data-source=virtual]").wait_for()
    fill = nonzero(server.get("/api/state")["board"]["round_fill"])
    draw = server.get("/api/draws")["draws"][-1]
    assert draw["kind"] == "fill_bag" and draw["digest"] == commitment
    assert shown_placement(page) == fill == nonzero(draw["action"]["spaces"])
    assert f"#{draw['seq']}, virtual draw" in page.locator("#placement").inner_text()
    # the proof is folded under "check this draw" after a reload; open it
    page.locator("#reveal-panel > summary").click()
    page.locator("#verify.ok").wait_for()
    assert page.locator("#seed").inner_text() == draw["seed"]
    # the list of every draw is fetched after the seed shows: the customer tiles, the green bag
    page.wait_for_function("() => document.querySelectorAll('#all-draws li').length === 2")
    assert hashlib.sha256(draw["seed"].encode()).hexdigest() == commitment
    assert "stored with the draw" in page.locator("#verify").inner_text()

    # Undo it; the table then draws by hand and enters it with the steppers.
    server.post("/api/undo", {})
    page.locator("#hand-panel").wait_for()
    assert page.locator("#reveal-panel").is_hidden()
    hand = bags.draw_action(v.chance_spec(server.service.state()), "by-hand")["spaces"]
    hand = nonzero(hand)
    assert hand != fill, "the hand draw differs from the undone virtual one"
    for space, cubes in hand.items():
        name = space.capitalize()
        for cube, n in cubes.items():
            plus = page.get_by_role("button", name=f"one {cube} more on {name}", exact=True)
            for _ in range(n):
                plus.click()
    page.click("#hand-form button[type=submit]")
    page.locator("#placement[data-source=hand]").wait_for()
    assert "drawn by hand" in page.locator("#placement").inner_text()
    assert shown_placement(page) == hand
    assert page.locator("#reveal-panel").is_hidden(), "no seed for a hand draw"
    page.reload()
    page.locator("#placement[data-source=hand]").wait_for()
    assert shown_placement(page) == hand == nonzero(server.get("/api/state")["board"]["round_fill"])
    page.screenshot(path=str(shots / "bag-hand-tablet.png"), full_page=True)
    assert page.js_errors == []
    assert seq(server) == 4  # customers, virtual fill, its undo, the hand fill


def option_actions(page: Any) -> list[dict[str, Any]]:
    """The actions of the option buttons on show, in order."""
    raw = page.locator("#options button.option").evaluate_all("bs => bs.map(b => b.dataset.action)")
    return [json.loads(a) for a in raw]


def settled(page: Any, server: Server) -> str:
    """Wait until the page shows the options of the server's current seq; its kind."""
    now = seq(server)
    page.locator(f"#options[data-seq='{now}']").wait_for(state="attached")
    return str(page.locator("#options").get_attribute("data-kind"))


def choose(kind: str, actions: list[dict[str, Any]]) -> int:
    """A deterministic table: take from the church while it has cubes (else the first cube
    offered), go to church without paying a coin (so a member is in the black bag and its
    owner can still buy it out), skip every other action; anything else: the first option."""

    def first(pred: Any) -> int | None:
        return next((i for i, a in enumerate(actions) if pred(a)), None)

    if kind == "turn":
        pick = first(lambda a: a["type"] == "take" and a["space"] == "church")
        pick = first(lambda a: a["type"] == "take") if pick is None else pick
    elif kind == "action":
        pick = first(lambda a: a["type"] == "church" and "coin" not in a["pay"])
        pick = first(lambda a: a["type"] == "skip") if pick is None else pick
    else:
        pick = None
    return 0 if pick is None else pick


def test_a_whole_round_then_mass_then_round_two(server: Server, browser: Any, shots: Path) -> None:
    # A new game from the new-game page: two players, red starts.
    tablet = open_page(browser, server.url + f"/new#token={TOKEN}")
    tablet.check("input[name=count][value='2']", force=True)
    tablet.click("#start")
    tablet.locator("#player-links li").nth(1).wait_for()
    assert list(server.get("/api/state")["players"]) == ["red", "yellow"]
    # Each player's private link as a QR code drawn by the companion.
    tokens = server.service.player_tokens()
    for colour in ("red", "yellow"):
        img = tablet.locator(f"#player-links li[data-colour={colour}] img")
        link = f"{server.url}/me/{colour}?token={tokens[colour]}"
        assert img.get_attribute("src") == "/qr.svg?text=" + urllib.parse.quote(
            link, safe="-_.!~*'()"
        )
        tablet.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle())
        assert img.bounding_box()["width"] >= 150, "big enough to scan at arm's length"
    tablet.screenshot(path=str(shots / "new-started-tablet.png"))

    # Customers from the play page, the green bag from the bag page.
    tablet.goto(server.url + "/play")
    assert settled(tablet, server) == "reveal_customers"
    # The table link as a QR code, for a second tablet.
    tablet.click("#show-table-link")
    qr = tablet.locator("#table-link-dialog[open] img")
    qr.wait_for()
    tablet.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=qr.element_handle())
    src = urllib.parse.urlsplit(str(qr.get_attribute("src")))
    assert src.path == "/qr.svg"
    assert urllib.parse.parse_qs(src.query)["text"] == [f"{server.url}/play#token={TOKEN}"]
    tablet.screenshot(path=str(shots / "play-table-link-tablet.png"))
    tablet.click("#table-link-close")
    assert tablet.locator("#table-link-dialog").is_hidden()
    click_and_wait(tablet, tablet.locator("#options button.option").first, server)
    tablet.goto(server.url + "/bag")
    tablet.locator("#virtual-panel").wait_for()
    tablet.click("#draw")
    tablet.locator("#placement[data-source=virtual]").wait_for()

    # Every turn of round 1 through the play page, until the last cube is taken.
    tablet.goto(server.url + "/play")
    played: list[str] = []  # the types of the actions clicked
    refused = False
    for _ in range(120):
        kind = settled(tablet, server)
        if kind in ("buyout", "mass_draw"):
            break
        if kind == "turn" and not refused and len(played) >= 8:
            # A refusal shown on the page: a cube that is not on that space.
            st = server.get("/api/state")
            space, cube = next(
                (s, c)
                for s, cubes in st["board"]["spaces"].items()
                for c in ("brown", "pink", "orange", "green", "plague")
                if not cubes.get(c)
            )
            before = st["seq"]
            wrong = {"type": "take", "player": st["current_player"], "space": space, "cube": cube}
            tablet.click(".manual summary")
            tablet.fill("#manual", json.dumps(wrong))
            tablet.click("#manual-form button[type=submit]")
            box = tablet.locator("#refusal")
            box.wait_for()
            shown = box.inner_text()
            assert shown.startswith(f"Refused by the rules: No {cube} cube on the {space} space")
            assert "no_such_cube" not in shown and shown.count(f"No {cube} cube") == 1, shown
            assert seq(server) == before, "the state is untouched"
            tablet.click(".manual summary")
            refused = True
            continue
        actions = option_actions(tablet)
        i = choose(kind, actions)
        click_and_wait(tablet, tablet.locator("#options button.option").nth(i), server)
        played.append(actions[i]["type"])
    st = server.get("/api/state")
    assert refused
    assert st["round"] == 1 and st["pending"]["kind"] == "buyout", st["pending"]
    assert all(not any(c.values()) for c in st["board"]["spaces"].values()), "every cube taken"
    cubes = sum(sum(c.values()) for c in st["board"]["round_fill"].values())
    assert played.count("take") == cubes, "one take per cube drawn"
    assert "church" in played, "a member went into the black bag"
    assert tablet.locator("#refusal").is_hidden(), "the next good action cleared the refusal"
    assert "open the mass page" in tablet.locator("#pending-detail").inner_text()

    # The mass on the mass page: a buy-out, then the virtual draw with its commitment.
    tablet.goto(server.url + "/mass")
    assert settled(tablet, server) == "buyout"
    buyer = st["pending"]["player"]
    in_bag = [m for m in st["board"]["black_bag"]["members"] if m.startswith(buyer)]
    assert in_bag and st["players"][buyer]["coins"] >= 1
    tablet.screenshot(path=str(shots / "mass-buyout-tablet.png"), full_page=True)
    bought: list[str] = []
    while (kind := settled(tablet, server)) == "buyout":
        actions = option_actions(tablet)
        i = next((i for i, a in enumerate(actions) if a["members"]), 0)
        if not bought:
            assert actions[i]["members"], "a buy-out is offered"
            bought = actions[i]["members"]
        now = seq(server)
        tablet.locator("#options button.option").nth(i).click()
        tablet.locator(f"#options[data-seq='{now + 1}']").wait_for(state="attached")
    after = server.get("/api/state")
    assert not set(bought) & set(after["board"]["black_bag"]["members"])
    assert after["players"][buyer]["coins"] == st["players"][buyer]["coins"] - len(bought)
    assert kind == "mass_draw"
    tablet.locator("#virtual-panel").wait_for()
    commitment = tablet.locator("#commitment").text_content()
    assert len(commitment) == 64 and tablet.locator("#reveal-panel").is_hidden()
    tablet.click("#draw")
    tablet.locator("#verify.ok").wait_for()
    seed = tablet.locator("#seed").inner_text()
    assert hashlib.sha256(seed.encode()).hexdigest() == commitment
    assert "shown here before the draw" in tablet.locator("#verify").inner_text()
    draw = server.get("/api/draws")["draws"][-1]
    assert draw["kind"] == "mass_draw" and draw["seed"] == seed
    tablet.screenshot(path=str(shots / "mass-drawn-tablet.png"), full_page=True)

    # Moves in the church if anyone can, then round 2 waits for the green bag.
    for _ in range(20):
        kind = settled(tablet, server)
        if kind != "church_move":
            break
        actions = option_actions(tablet)
        i = next((i for i, a in enumerate(actions) if a["type"] == "done"), 0)
        now = seq(server)
        tablet.locator("#options button.option").nth(i).click()
        tablet.locator(f"#options[data-seq='{now + 1}']").wait_for(state="attached")
    st = server.get("/api/state")
    assert st["round"] == 2 and st["pending"]["kind"] == "fill_bag", st["pending"]
    tablet.goto(server.url + "/bag")
    tablet.locator("#virtual-panel").wait_for()
    assert "Round 2" in tablet.locator("#bag-status").inner_text()
    assert tablet.locator("#hand-panel").is_visible()
    tablet.click("#draw")
    tablet.locator("#placement[data-source=virtual]").wait_for()
    st = server.get("/api/state")
    assert st["round"] == 2 and st["pending"]["kind"] == "turn"
    assert shown_placement(tablet) == nonzero(st["board"]["round_fill"])
    assert f"Round 2's draw (#{st['seq']}" in tablet.locator("#placement").inner_text()
    assert tablet.js_errors == []


SETUP_TILES = ["c02", "c01", "c03", "c04", "c05", "c06", "c07", "c08"]


def play_to_market_day(server: Server) -> None:
    """Through the API: harvest until someone has grain for c02 (3 grain), take the market
    cube and serve it; stops when the emptied waiting-line space needs a tile."""
    for _ in range(80):
        legal = server.get("/api/legal")
        st = server.get("/api/state")
        kind, actions = legal["pending"]["kind"], legal["actions"]
        if kind == "reveal_customers":
            return

        def first(pred: Any, actions: list[dict[str, Any]] = actions) -> Any:
            return next((a for a in actions if pred(a)), None)

        if kind == "turn":
            grain = st["players"][st["current_player"]]["grain"]
            action = (
                (grain >= 3 and first(lambda a: a["type"] == "take" and a["space"] == "market"))
                or first(lambda a: a["type"] == "take" and a["space"] == "harvest")
                or first(lambda a: a["type"] == "take" and a["space"] != "market")
                or actions[0]
            )
        elif kind == "action":
            action = first(lambda a: a["type"] in ("harvest", "skip")) or actions[0]
        else:
            action = first(lambda a: a["type"] == "serve") or actions[0]
        server.post("/api/actions", action)
    raise AssertionError("no market day")


CUSTOMERS = v.new_game(["red", "blue"]).data.customers


def tile_face(tile: str) -> str:
    """What the hand form shows for a tile (customers.js tileText)."""
    c = CUSTOMERS[tile]
    wants = [f"{n} {g.value}" for g, n in c.goods if n] + ([f"{c.grain} grain"] if c.grain else [])
    return f"{' + '.join(wants) or 'nothing'} · {c.prestige} prestige"


def pick_tile(select: Any, tile: str) -> None:
    """Choose the face of ``tile`` (alike tiles are one choice; the page picks distinct ones)."""
    select.select_option(
        value=select.locator(f"option[data-tiles~='{tile}']").get_attribute("value")
    )


def test_customer_tiles_by_hand(server: Server, browser: Any, shots: Path) -> None:
    server.post("/api/games", {"players": ["red", "blue"]})
    page = open_page(browser, server.url + f"/bag#token={TOKEN}")
    panel = page.locator("#customers-panel")
    panel.wait_for()
    selects = page.locator("#customers-slots select")
    assert selects.count() == 8, "setup: stalls 1-5 and waiting line 1-3 (2 players)"
    assert page.locator("#placement-panel").is_hidden(), "no cubes before the customers"
    labels = page.locator("#customers-slots label > span").all_inner_texts()
    assert labels[0] == "Stall 1" and labels[5] == "Waiting line 1"
    options = selects.first.locator("option").all_inner_texts()
    faces = {tile_face(t) for t in CUSTOMERS}
    assert len(options) == 1 + len(faces), "tiles alike on their face are one choice"
    assert not re.search(r"\bc\d+\b", "".join(options)), "no tile id (issue 18 item 11)"
    assert "3 grain · 3 prestige" in options, options
    page.screenshot(path=str(shots / "bag-customers-tablet.png"), full_page=True)

    # The same tile twice is caught on the page; nothing is sent.
    for i in range(8):
        pick_tile(selects.nth(i), SETUP_TILES[i] if i else SETUP_TILES[1])
    page.click("#customers-form button[type=submit]")
    page.locator("#refusal", has_text="chosen twice").wait_for()
    assert seq(server) == 0
    pick_tile(selects.first, SETUP_TILES[0])
    page.click("#customers-form button[type=submit]")
    panel.wait_for(state="hidden")
    market = server.get("/api/state")["board"]["market"]
    assert market["stalls"] + market["queue"][:3] == SETUP_TILES
    assert "fill_bag" not in server.get("/api/draws")["latest"], "by hand: no seed"
    # the answer to the post hides the refusal; the live event may hide the panel first
    page.locator("#refusal").wait_for(state="hidden")

    # After a market day: one waiting-line space to fill; a served tile is refused.
    state = server.service.state()
    server.post("/api/actions", bags.draw_action(v.chance_spec(state), "fixed"))
    play_to_market_day(server)
    st = server.get("/api/state")
    assert st["pending"]["slots"] == [7]
    served = sum(p["customers"]["count"] for p in st["players"].values())
    assert served == 1  # c02, face down: the public view does not say which
    panel.wait_for()
    assert selects.count() == 1
    # the round's cubes stay (the placement is drawn after the panel, once its draw is fetched)
    page.locator("#placement[data-source=hand]").wait_for()
    assert page.locator("#customers-slots label > span").inner_text() == "Waiting line 3"
    on_market = {t for t in st["board"]["market"]["stalls"] + st["board"]["market"]["queue"] if t}
    tiles = selects.first.locator("option").evaluate_all("os => os.map(o => o.dataset.tiles)")
    listed = {t for ts in tiles if ts for t in ts.split()}
    assert listed == {f"c{i:02}" for i in range(1, 25)} - on_market
    before = seq(server)
    pick_tile(selects.first, "c02")
    page.click("#customers-form button[type=submit]")
    refusal = page.locator("#refusal")
    refusal.wait_for()
    assert "Refused by the rules" in refusal.inner_text()
    assert "still in the face-down stack" in refusal.inner_text()
    assert seq(server) == before
    page.screenshot(path=str(shots / "bag-customers-refused-tablet.png"), full_page=True)
    pick_tile(selects.first, "c09")
    page.click("#customers-form button[type=submit]")
    panel.wait_for(state="hidden")
    assert server.get("/api/state")["board"]["market"]["queue"][2] == "c09"
    assert page.js_errors == []
