"""Every page renders with its key elements, without a game and during one; the box-check
and new-game pages show the board values in force; scripts and styles are served locally."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from appkit import make_app
from flask.testing import FlaskClient

from companion.village.box_values import items_with_overlay
from web import runtime_of
from web.pages import box_check_rows, setup_rows

TOKEN = "pages-test-token"  # the conftest's app token
AUTH = {"Authorization": f"Bearer {TOKEN}"}

PAGES = {
    "/": ["families", "plot", "chronicle", "bags", "spaces", "round", "turn", "end-meter"],
    "/play": [
        "pending",
        "options",
        "refusal",
        "undo",
        "undo-dialog",
        "manual-form",
        "token-form",
        "show-table-link",
        "table-link-dialog",
    ],
    "/bag": [
        "commitment",
        "draw",
        "seed",
        "seed-hash",
        "verify",
        "placement",
        "hand-form",
        "customers-panel",
        "customers-form",
        "customers-slots",
    ],
    "/mass": ["black-bag", "options", "commitment", "draw", "hand-form", "church", "seed"],
    "/new": ["new-game", "seats", "start", "player-links", "token-form"],
    "/boxcheck": ["boxcheck", "save-notice"],
    "/me/red": ["me", "me-score", "me-customers", "me-supplies"],
}


class _Page(HTMLParser):
    """Collects ids, script and stylesheet URLs, and the embedded facts."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.urls: list[str] = []
        self._in_facts = False
        self.facts = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(str(a["id"]))
        if tag == "script" and a.get("src"):
            self.urls.append(str(a["src"]))
        if tag == "link" and a.get("rel") == "stylesheet":
            self.urls.append(str(a["href"]))
        self._in_facts = tag == "script" and a.get("id") == "facts"

    def handle_data(self, data: str) -> None:
        if self._in_facts:
            self.facts += data

    def handle_endtag(self, tag: str) -> None:
        self._in_facts = False


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def start_game(client: FlaskClient) -> None:
    r = client.post("/api/games", json={"players": ["red", "blue", "yellow"]}, headers=AUTH)
    assert r.status_code == 201, r.get_json()


@pytest.mark.parametrize("with_game", [False, True], ids=["no-game", "game"])
@pytest.mark.parametrize("path", sorted(PAGES))
def test_page_renders_with_its_elements(client: FlaskClient, path: str, with_game: bool) -> None:
    if with_game:
        start_game(client)
    r = client.get(path)
    assert r.status_code == 200
    assert r.mimetype == "text/html"
    page = parse(r.get_data(as_text=True))
    missing = set(PAGES[path]) - page.ids
    assert not missing, f"{path} lacks {sorted(missing)}"
    facts = json.loads(page.facts)
    assert set(facts["setup_spaces"]) == {"2", "3", "4"}
    assert len(facts["customers"]) == 24


@pytest.mark.parametrize("path", sorted(PAGES))
def test_assets_are_local_and_served(client: FlaskClient, path: str) -> None:
    page = parse(client.get(path).get_data(as_text=True))
    assert page.urls, "a page loads its stylesheet and script"
    for url in page.urls:
        assert url.startswith("/static/"), f"{url} is not served locally"
        with client.get(url) as r:
            assert r.status_code == 200, url
            assert r.mimetype in ("text/css", "text/javascript", "application/javascript")


def test_every_module_import_resolves(client: FlaskClient) -> None:
    """Each `import … from "./x.js"` in the scripts names a file the server serves."""
    static = client.application.static_folder
    assert static is not None
    for js in Path(static).glob("*.js"):
        for name in re.findall(r'from "\./([\w-]+\.js)"', js.read_text("utf-8")):
            with client.get(f"/static/{name}") as r:
                assert r.status_code == 200, f"{js.name} imports {name}"


def test_navigation_marks_the_current_page(client: FlaskClient) -> None:
    html = client.get("/bag").get_data(as_text=True)
    assert re.search(r'<a href="/bag" aria-current="page">Green bag</a>', html)
    assert 'href="/play" aria-current' not in html


def test_the_box_check_is_not_marked_as_the_new_game_page(client: FlaskClient) -> None:
    """Issue 18 item 9: the box check is its own page, not "New game"."""
    html = client.get("/boxcheck").get_data(as_text=True)
    assert 'aria-current="page"' not in html


def test_a_page_that_needs_the_token_says_where_it_comes_from(client: FlaskClient) -> None:
    """Issue 18 item 16: /new opened directly explains the table token."""
    html = client.get("/new").get_data(as_text=True)
    form = html.split('id="token-form"', 1)[1].split("</form>", 1)[0]
    assert "companion serve" in form and "#token=" in form and "Players' links" in form


def test_the_boxes_have_the_same_names_on_every_page(client: FlaskClient) -> None:
    """Issue 18 item 18: "Le Port" and "Objectifs de vie" on the new-game page and the box
    check alike."""
    new = client.get("/new").get_data(as_text=True)
    box = client.get("/boxcheck").get_data(as_text=True)
    for name in ("Le Port", "Objectifs de vie (life goals)"):
        assert name in new and name in box, name
    assert ">Port<" not in box and ">Life goals<" not in box


def test_goals_come_first_on_a_players_phone(client: FlaskClient) -> None:
    """Issue 18 item 13: the goals above the score, customers and supplies."""
    html = client.get("/me/red").get_data(as_text=True)
    assert html.index('id="me-goals-panel"') < html.index('id="me-score"')


def test_unknown_colour_has_no_private_page(client: FlaskClient) -> None:
    assert client.get("/me/purple").status_code == 404


def test_private_page_names_the_family(client: FlaskClient) -> None:
    html = client.get("/me/blue?token=abc").get_data(as_text=True)
    assert 'data-colour="blue"' in html
    assert "Blue family" in html


def test_box_check_is_a_form_per_value_unverified_first(client: FlaskClient) -> None:
    items = items_with_overlay(None, ("port", "life_goals"))  # boxes owned not said: every box
    html = client.get("/boxcheck").get_data(as_text=True)
    keys = re.findall(r'<section class="bc-value (verified|unverified)" data-key="([^"]+)"', html)
    assert {k for _, k in keys} == set(items)
    boxes = re.findall(r'<section class="bc-value \w+" data-key="[^"]+" data-box="([^"]+)"', html)
    assert list(dict.fromkeys(boxes)) == ["Village", "Le Port", "Objectifs de vie (life goals)"]
    for box in set(boxes):  # box by box (issue 18 item 9); in a box, unverified first
        flags = [cls == "verified" for (cls, _), b in zip(keys, boxes, strict=True) if b == box]
        assert flags == sorted(flags), "unverified values come first"
    unverified = sum(1 for i in items.values() if not i.verified)
    assert f"{unverified} of {len(items)} values are not checked yet" in html
    # the new-game page counts the same values (issue 18 item 18)
    new = client.get("/new").get_data(as_text=True)
    assert f"{unverified} of {len(items)} printed values are not verified yet" in new
    visible = html.split('id="boxcheck"', 1)[1].split("</main>")[0]
    text = re.sub(r"<[^>]+>", " ", visible).replace("&#39;", "'")
    for item in items.values():
        assert item.title in text and item.look in text
    for artefact in ("null", "{", "[", "chronicle.sections", "time_track", "_", "seed 0"):
        assert artefact not in text, artefact  # what people read: no JSON, no keys
    dotted = re.findall(r"\b[a-z_]+\.[a-z_]+\b", text)  # a data key ("travel.map")
    assert not dotted, dotted  # issue 18 item 9
    assert not re.search(r"\((?:PS|PV|PM|PD|PE|LA|LS)\d", text), "no design-note rule codes"
    assert "Your answers are saved on the companion" in html
    assert html.count("data-confirm=") == len(items)
    # a number field per whole number, with its range; a choice per choice
    row = re.search(r'data-key="time_track.length"(.*?)</section>', html, re.S)
    assert row is not None
    assert re.search(r'type="number"[^>]*min="4" max="40" value="10"', row.group(1))
    graves = re.search(r'data-key="graves.marks"(.*?)</section>', html, re.S)
    assert graves is not None and graves.group(1).count("<select") == 8


def test_box_check_honours_an_overlay(tmp_path: Path) -> None:

    answers = tmp_path / "boxcheck.json"
    answers.write_text(json.dumps({"time_track.length": 12}))
    app = make_app(db_path=tmp_path / "g.sqlite3", table_token=TOKEN, boxcheck_path=str(answers))
    try:
        html = app.test_client().get("/boxcheck").get_data(as_text=True)
        row = re.search(
            r'<section class="bc-value (\w+)" data-key="time_track.length"[^>]*>(.*?)</section>',
            html,
            re.S,
        )
        assert row is not None
        assert row.group(1) == "verified"
        assert 'value="12"' in row.group(2)
        assert "checked by you" in row.group(2)
    finally:
        runtime_of(app).close()


def test_new_game_shows_setup_values_for_each_count(client: FlaskClient) -> None:
    html = client.get("/new").get_data(as_text=True)
    for n in (2, 3, 4):
        assert f'data-count="{n}"' in html
    assert "setup." not in html and "Cubes drawn onto each action space" in html
    for name in ("well_coins", "final_seller_sells", "train_only"):
        assert f'name="house" value="{name}"' in html
    assert 'href="/boxcheck"' in html
    assert 'data-colours="red,yellow,blue,white"' in html
    # only the 3-player table is visible at first
    assert re.search(r'data-count="3"\s*>', html)
    assert re.search(r'data-count="2"\s*hidden', html)


def test_setup_rows_pick_the_player_count_in_words() -> None:
    items = items_with_overlay()
    rows = setup_rows(items)
    bag = {r["label"]: r["value"] for r in rows[2]}
    card = items["setup.2.bag"].value
    assert bag["Cubes put in the green bag each round (setup card)"] == ", ".join(
        f"{k} {n}" for k, n in card.items()
    )
    graves = items["graves.marks"].value
    for n in (2, 3, 4):
        said = {r["label"]: r["value"] for r in rows[n]}["Anonymous graves in play"]
        assert said == f"{sum(1 for m in graves if m is None or m <= n)} graves"
    for r in rows[4]:
        assert not re.search(r"[\[\]{}]|null|None|\b[a-z]+[._][a-z]+\b", r["label"] + r["value"])


def test_box_check_rows_text() -> None:
    rows = {r["key"]: r for r in box_check_rows(items_with_overlay())}
    assert rows["scoring.travel"]["value"] == "[0, 1, 3, 6, 10, 14, 18]"
    assert rows["graves.marks"]["value"].startswith("[–, –")
    assert rows["customers.tiles"]["value"] == "24 entries"
    assert json.loads(rows["setup.3.bag"]["raw"])["brown"] >= 0


def test_customer_hand_form_says_served_tiles_are_refused(client: FlaskClient) -> None:
    html = client.get("/bag").get_data(as_text=True)
    form = html[html.index('id="customers-panel"') : html.index('id="customers-form"')]
    assert "the rules refuse it" in form
    assert "every tile not on the market" in form


# -- the top bar follows the game being played ---------------------------------------------

NEW_GAMES = {
    "village": {"players": ["red", "blue"]},
    "colonia": {"game": "colonia", "players": ["yellow", "blue"]},
    "crecy": {"game": "crecy", "players": ["red", "blue"], "options": {"families": {
        "red": {"head": "Rouge", "side": "matriarch"},
        "blue": {"head": "Bleu", "side": "patriarch"}}}},
}
BARS = {
    "village": [("Scoreboard", "/"), ("Play", "/play"), ("Green bag", "/bag"), ("Mass", "/mass"),
                ("Tags", "/tags")],
    "colonia": [("Table", "/colonia"), ("Scoreboard", "/"), ("Phones", "/links")],
    "crecy": [("Play", "/crecy"), ("Board", "/crecy/board"), ("Phones", "/links")],
}
SHARED = [("New game", "/new"), ("History", "/history")]


def bar(html: str) -> list[tuple[str, str]]:
    nav = html[html.index('<nav aria-label="Pages"'):html.index("</nav>")]
    return [(label, href) for href, label in re.findall(r'<a href="([^"]+)"[^>]*>([^<]+)</a>', nav)]


@pytest.mark.parametrize("game", sorted(NEW_GAMES))
def test_the_top_bar_shows_the_links_of_the_game_played(client: FlaskClient, game: str) -> None:
    r = client.post("/api/games", json=NEW_GAMES[game], headers=AUTH)
    assert r.status_code == 201, r.get_json()
    for path in ("/", "/new", "/history", "/links"):
        assert bar(client.get(path).get_data(as_text=True)) == BARS[game] + SHARED, path


def test_the_top_bar_before_any_game_is_villages(client: FlaskClient) -> None:
    assert bar(client.get("/").get_data(as_text=True)) == BARS["village"] + SHARED


@pytest.mark.parametrize(("game", "label", "page"),
                         [("colonia", "Colonia", "/colonia"),
                          ("crecy", "Le Testament du Duc de Crecy", "/crecy")])
@pytest.mark.parametrize("path", ["/bag", "/mass", "/me/red"])
def test_a_village_page_during_another_game_says_which_game(
        client: FlaskClient, game: str, label: str, page: str, path: str) -> None:
    client.post("/api/games", json=NEW_GAMES[game], headers=AUTH)
    html = client.get(path).get_data(as_text=True)
    assert f"The current game is <strong>{label}</strong>" in html
    assert f'<a class="btn btn-big" href="{page}">' in html
    parsed = parse(html)
    assert not [u for u in parsed.urls if u.endswith(".js")], "no Village script runs"
    assert "bag-contents" not in parsed.ids and "black-bag" not in parsed.ids


def test_the_current_page_is_marked_in_another_games_bar(client: FlaskClient) -> None:
    client.post("/api/games", json=NEW_GAMES["crecy"], headers=AUTH)
    html = client.get("/crecy/board").get_data(as_text=True)
    # once in the bar and once in the phone's menu of the same links
    assert html.count('<a href="/crecy/board" aria-current="page">Board</a>') == 2
    assert html.count('aria-current="page"') == 2
