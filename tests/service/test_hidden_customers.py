"""Which customer a player served is face down: the public feed does not say."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.store import EventStore
from companion.table import TableService
from companion.table.feed import Subscription


def _play_until_three_sales(path: Path) -> tuple[TableService, Subscription, int]:
    """One game, played by taking a sale whenever one is offered; the deck is shuffled
    from the table's own secret seed, so a game may end after fewer than three."""
    service = TableService(EventStore(path), "tok")
    service.new_game(["red", "blue", "white"])
    sub = service.subscribe(after=0)
    rng = random.Random(3)
    served = 0
    for _ in range(3000):
        offers = service.legal()
        chosen = next((a for a in offers if a["type"] == "serve"), None) or rng.choice(offers)
        served += chosen["type"] == "serve"
        service.submit(chosen)
        if served >= 3 or service.state().phase == "over":
            break
    return service, sub, served


def test_the_public_feed_hides_which_customer_was_served(tmp_path: Path) -> None:
    # 30 games measured: 4 to 14 sales each, and CI once saw a game with 2; five tries
    for attempt in range(5):
        service, sub, served = _play_until_three_sales(tmp_path / f"g{attempt}.sqlite3")
        if served >= 3:
            break
        sub.close()
        service.store.close()
    assert served >= 3
    notices = []
    while (n := sub.get(timeout=0.1)) is not None:
        notices.append(json.loads(n.data))
    sales = [n["action"] for n in notices if n.get("type") == "serve"]
    assert len(sales) == served
    assert all(set(a) == {"type", "player", "hidden"} for a in sales)
    # the table's own record keeps everything
    record = [json.loads(line) for line in service.export_record().splitlines()[1:]]
    assert sum(1 for a in record if a["type"] == "serve" and "slot" in a) == served
    sub.close()
    service.store.close()
