"""The narration travels with each event: on the live feed, in ``/api/log``, after an undo
and after a restart (recomputed from the stored events)."""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient
from servicekit import AUTH

from companion.store import EventStore
from companion.table import TableService


def feed(service: TableService, after: int = 0) -> list[dict]:
    sub = service.subscribe(after=after)
    got = [json.loads(n.data) for n in iter(lambda: sub.get(timeout=0.01), None)]
    sub.close()
    return got


def test_each_event_carries_its_narration(service: TableService, game: int) -> None:
    service.submit({"type": "virtual_draw"}, "tablet")  # customer tiles
    service.submit({"type": "virtual_draw"}, "tablet")  # green bag
    take = service.legal()[0]
    service.submit(take, "tablet")
    got = feed(service)
    tiles = got[0]["narration"]
    assert tiles[0] == "Turn up 8 customer tiles and lay them out."
    assert tiles[1].startswith("Stall 1: wants ") and tiles[6].startswith("Waiting line 1: ")
    assert tiles[-1] == "Next: fill the green bag and draw the cubes for round 1."
    assert got[1]["narration"][0].startswith("Round 1: put ")
    first = take["player"].capitalize()
    assert got[1]["narration"][-1] == f"Now {first}: take a cube or use the well."
    article = "an" if take["cube"] == "orange" else "a"
    space = take["space"].capitalize()
    assert got[2]["narration"][0] == f"{first} takes {article} {take['cube']} cube from {space}."


def test_undo_says_what_it_undid(service: TableService, game: int) -> None:
    service.submit({"type": "virtual_draw"}, "tablet")
    service.submit({"type": "virtual_draw"}, "tablet")
    take = service.legal()[0]
    service.submit(take, "tablet")
    told = service.log()[-1]["narration"][0].rstrip(".")
    seq = service.undo()
    undo = feed(service, after=seq - 1)[-1]
    assert undo["kind"] == "revert"
    assert undo["narration"][0] == f"Undone: {told}."
    assert undo["narration"][1].startswith(f"Now {take['player'].capitalize()}: take a cube")


def test_log_route_and_restart(client: FlaskClient, game: int, db_path: Path) -> None:
    for _ in range(3):
        client.post("/api/actions", json={"type": "virtual_draw"}, headers=AUTH)
        legal = client.get("/api/legal").get_json()["actions"]
        if legal and legal[0]["type"] != "virtual_draw":
            client.post("/api/actions", json=legal[0], headers=AUTH)
    client.post("/api/undo", headers=AUTH)
    body = client.get("/api/log").get_json()
    entries = body["entries"]
    assert [e["seq"] for e in entries] == list(range(1, len(entries) + 1))
    assert entries[-1]["narration"][0].startswith("Undone: ")
    assert entries[-1]["kind"] == "revert" and entries[-2]["undone"]
    assert not any(e["undone"] for e in entries[:-2])
    assert body["undo"] == entries[-3]["narration"][0]
    assert client.get("/api/log", query_string={"limit": 2}).get_json()["entries"] == entries[-2:]
    after = client.get("/api/log", query_string={"after": 2}).get_json()["entries"]
    assert [e["seq"] for e in after] == [e["seq"] for e in entries if e["seq"] > 2]
    # A restarted service tells the same story, recomputed from the stored events.
    with EventStore(db_path) as store:
        again = TableService(store, "t")
        assert again.log() == entries
