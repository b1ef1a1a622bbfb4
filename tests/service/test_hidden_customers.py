"""Which customer a player served is face down: the public feed does not say."""

from __future__ import annotations

import json
import random
from pathlib import Path

from companion.store import EventStore
from companion.table import TableService


def test_the_public_feed_hides_which_customer_was_served(tmp_path: Path) -> None:
    service = TableService(EventStore(tmp_path / "g.sqlite3"), "tok")
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
