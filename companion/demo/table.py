"""The demo table: a simulated game that plays itself through `TableService.submit`.

A background thread picks a random entry of `TableService.legal` (virtual draws included)
every ``interval`` seconds (default 1.8: a pace a person watching the scoreboard follows)
and submits it with source ``"demo"``, exactly as a tablet
would; when a game ends it waits a little and starts another.
"""

from __future__ import annotations

import logging
import random
import threading
from typing import Final

from companion.table.errors import TableError
from companion.table.service import TableService

log = logging.getLogger(__name__)

DEMO_PLAYERS: Final = (
    ("red", "yellow", "blue"),
    ("red", "blue"),
    ("red", "yellow", "blue", "white"),
)


class DemoTable:
    """Drives the current game of ``service`` with random legal actions."""

    def __init__(self, service: TableService, interval: float = 1.8, seed: int | None = None):
        self._service = service
        self._interval = interval
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="demo-table", daemon=True)
        self.games_started = 0

    def start(self) -> None:
        """Start the background thread."""
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout)

    def step(self) -> None:
        """Take one step: start a game if none is going on, else submit one legal action."""
        svc = self._service
        if svc.current_game_id is None or not svc.legal():
            self.games_started += 1
            players = self._rng.choice(DEMO_PLAYERS)
            svc.new_game(list(players), label=f"demo {self.games_started}")
            return
        action = self._rng.choice(svc.legal())
        svc.submit(action, "demo")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                over = self._service.current_game_id is not None and not self._service.legal()
                if over:
                    self._stop.wait(self._interval * 15)  # let the table see the result
                self.step()
            except TableError as exc:  # another client acted first: try again
                log.info("demo step refused: %s", exc)
            except Exception:
                log.exception("demo step failed")
            self._stop.wait(self._interval)
