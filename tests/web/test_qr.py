"""QR codes of the player and table links: ``GET /qr.svg?text=…`` draws them here (segno), and
the new-game and play pages use it."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
import segno
from flask.testing import FlaskClient

from web.pages import QR_MAX_TEXT

SVG = "{http://www.w3.org/2000/svg}"


def modules(svg: bytes) -> list[list[bool]]:
    """Read the dark modules back out of segno's SVG path (``M x y``, ``m dx dy``, ``h n``:
    a run of n dark modules on row y - 0.5), as a matrix without the quiet zone."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    _, _, width, height = (int(float(n)) for n in root.attrib["viewBox"].split())
    assert width == height
    path = next(p for p in root.iter(f"{SVG}path") if p.get("stroke") == "#000")
    grid = [[False] * width for _ in range(height)]
    x = y = 0.0
    for cmd, args in re.findall(r"([Mmh])([-\d. ]+)", path.attrib["d"]):
        nums = [float(n) for n in args.split()]
        if cmd == "M":
            x, y = nums
        elif cmd == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            for col in range(int(x), int(x + nums[0])):
                grid[int(y)][col] = True
            x += nums[0]
    return grid


def unbordered(grid: list[list[bool]], border: int = 4) -> list[list[bool]]:
    assert not any(grid[r][c] for r in range(len(grid)) for c in range(border)), "quiet zone"
    return [row[border:-border] for row in grid[border:-border]]


@pytest.mark.parametrize(
    "text",
    [
        "http://192.168.1.20:8000/me/red?token=H3o7hGtSV9-JTLGuzb72hg",
        "http://raspberrypi.local:8000/play#token=Zx_9-aa",
        "x" * QR_MAX_TEXT,
        "Café ♜ 🎲",
    ],
    ids=["player", "table", "longest", "unicode"],
)
def test_qr_is_an_svg_of_exactly_that_text(client: FlaskClient, text: str) -> None:
    r = client.get("/qr.svg", query_string={"text": text})
    assert r.status_code == 200
    assert r.mimetype == "image/svg+xml"
    assert r.headers["Cache-Control"] == "no-store", "a link may carry a token"
    expected = [[bool(v) for v in row] for row in segno.make(text, micro=False).matrix]
    assert unbordered(modules(r.data)) == expected
    assert b"token" not in r.data, "the link is only in the modules"


def test_different_texts_give_different_codes(client: FlaskClient) -> None:
    a = client.get("/qr.svg?text=http://pi/me/red?token=a").data
    b = client.get("/qr.svg?text=http://pi/me/red?token=b").data
    assert modules(a) != modules(b)


@pytest.mark.parametrize("query", ["", "?text=", f"?text={'y' * (QR_MAX_TEXT + 1)}"])
def test_qr_refuses_no_text_and_too_long(client: FlaskClient, query: str) -> None:
    r = client.get("/qr.svg" + query)
    assert r.status_code == 400
    assert r.mimetype == "text/plain"
    assert b"<svg" not in r.data


def test_pages_use_the_qr_route(client: FlaskClient) -> None:
    with client.get("/static/qr.js") as r:
        qr = r.get_data(as_text=True)
    assert "/qr.svg?text=${encodeURIComponent(text)}" in qr
    with client.get("/static/links-list.js") as r:
        links = r.get_data(as_text=True)
    assert 'from "./qr.js"' in links and "qrFigure(url" in links
    # the public address (LAN or --public-url), not loopback; each game's phone page
    assert "${base}${path}/" in links and 'path = "/me"' in links
    with client.get("/static/newgame.js") as r:
        assert 'from "./links-list.js"' in r.get_data(as_text=True)
    with client.get("/static/play.js") as r:
        play = r.get_data(as_text=True)
    assert 'from "./qr.js"' in play and "/play#token=" in play
    html = client.get("/play").get_data(as_text=True)
    assert 'id="show-table-link"' in html and 'id="table-link-dialog"' in html
