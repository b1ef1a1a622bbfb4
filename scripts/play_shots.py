"""Screenshots of the play page's decisions and the scoreboard for docs/pages.md, at
1280×800 and 390×844 (and the scoreboard at 1920×1080): a Port + Life goals game played at
random through the API on a real server, each wanted decision shot the first time it shows.

    PYTHONPATH=$PWD python3 scripts/play_shots.py docs/screenshots [--scoreboards]

Uses Debian's Chromium through Playwright, like the browser tests (tests/web/browserkit.py).
"""

from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path[:0] = ["tests/web", "tests"]
from browserkit import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    TABLET,
    TOKEN,
    Server,
    open_page,
    settle,
)
from playwright.sync_api import sync_playwright  # noqa: E402

HD = {"width": 1920, "height": 1080}

# name → (decision kind, words in its heading or options) for the first one to shoot
WANTED = {
    "play-rows": ("turn", "take a cube"),
    "play-crafts-members": ("action", "Train a member"),
    "play-privilege": ("privilege", "Privilege 2"),
    "play-sail": ("voyage", "sail on"),
    "play-island": ("voyage", "on island"),
}


def _text(page: Any) -> str:
    return str(page.locator("#pending").inner_text() + " " + page.locator("#options").inner_text())


def play_page(browser: Any, out: Path, left: dict[str, tuple[str, str]], seed: int) -> None:
    """One game; the decisions of ``left`` shot are taken out of it."""
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "g.sqlite3")
        try:
            server.post("/api/games", {"players": ["red", "yellow", "blue"],
                                       "modules": ["port", "life_goals"]})
            tablet = open_page(browser, server.url + f"/play#token={TOKEN}", TABLET)
            phone = open_page(browser, server.url + f"/play#token={TOKEN}", PHONE)
            rng = random.Random(seed)
            while left:
                state = server.get("/api/state")
                actions = server.get("/api/legal")["actions"]
                if state.get("over") or not actions:
                    break
                kind = settle(tablet, server)
                settle(phone, server)
                for name, (want, words) in list(left.items()):
                    if kind == want and words.lower() in _text(tablet).lower():
                        tablet.screenshot(path=str(out / f"{name}-tablet.png"))
                        phone.screenshot(path=str(out / f"{name}-phone.png"), full_page=True)
                        del left[name]
                server.post("/api/actions", rng.choice(actions))
        finally:
            server.close()


def scoreboards(browser: Any, out: Path) -> None:
    four = (("4p-tablet", TABLET), ("4p-hd", HD))
    for players, shots in ((["red", "yellow", "blue", "white"], four),
                           (["red", "blue"], (("2p-tablet", TABLET),))):
        with tempfile.TemporaryDirectory() as tmp:
            server = Server(Path(tmp) / "g.sqlite3")
            try:
                server.post("/api/games", {"players": players})
                rng = random.Random(3)
                while int(server.get("/api/state")["seq"]) < 90:
                    server.post("/api/actions", rng.choice(server.get("/api/legal")["actions"]))
                seq = server.get("/api/state")["seq"]
                for name, size in shots:
                    board = open_page(browser, server.url + "/", size)
                    board.locator(f"body[data-seq='{seq}']").wait_for(state="attached")
                    board.screenshot(path=str(out / f"scoreboard-{name}.png"))
            finally:
                server.close()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    target = Path(args[0] if args else "docs/screenshots")
    target.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        left = dict(WANTED)
        for seed in range(18, 24):  # a few games: an island or a privilege may not come
            if left:
                play_page(b, target, left, seed)
        if left:
            print("not met in these games:", ", ".join(left))
        if "--scoreboards" in sys.argv:
            scoreboards(b, target)
        b.close()
