"""Nothing a table publishes to the hall tells a private outcome (the spectator feed's
property, tests/service/test_secrets.py, for the hall's messages).

Two tables play the same public moves with different private outcomes (life goals dealt,
treasures drawn); at every step the messages each table's publisher sends (events, the
game's announcement, the retained state: captured at the client, exactly as handed to
paho) must be the same. And with every draw made virtually, no private draw's seed is
ever published, not even after the end, and no token.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import companion.village as v
from companion import bags
from companion.hall.outbox import HallPublisher
from companion.hall.topics import BrokerUrl
from companion.store import EventStore
from companion.table import TableService

PRIVATE_KINDS = {"deal_silver", "deal_gold", "draw_treasure"}
MODULES = ["port", "life_goals"]
NOISE = frozenset({"time", "commitment", "digest"})


class Recorder:
    """Stands for the paho client: keeps what is published."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    def publish(self, topic: str, payload: str, qos: int = 0, retain: bool = False) -> None:
        self.sent.append((topic, json.loads(payload)))

    def take(self) -> list[tuple[str, Any]]:
        out, self.sent = self.sent, []
        return out


def _publisher(service: TableService, name: str) -> tuple[HallPublisher, Recorder]:
    # no acknowledgement ever comes here: without an endless stall, a slow step (a loaded
    # machine) makes one table resend its whole history and not the other (timing, not a
    # secret: what is resent is what was sent)
    pub = HallPublisher(service.store.path, "t", BrokerUrl("127.0.0.1"), window=10_000,
                        stall=float("inf"))
    recorder = Recorder()
    pub._client = recorder
    return pub, recorder


def _normalised(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _normalised(val) for k, val in obj.items() if k not in NOISE}
    if isinstance(obj, list | tuple):
        return [_normalised(x) for x in obj]
    return obj


def _different(spec: v.ChanceSpec, outcome: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    for _ in range(50):
        other = bags.draw_with_rng(spec, rng)
        if other != outcome:
            return other
    return outcome


@pytest.mark.parametrize("seed", [1, 2])
def test_the_hall_cannot_tell_two_tables_apart_by_their_private_outcomes(
        tmp_path: Path, seed: int) -> None:
    rng, twin = random.Random(seed), random.Random(seed + 100)
    tables = [TableService(EventStore(tmp_path / f"{n}.sqlite3"), "tok") for n in "ab"]
    pubs = [_publisher(t, n) for t, n in zip(tables, "ab", strict=True)]
    for table in tables:
        table.new_game(["red", "blue", "white"][: 2 + seed % 2], modules=MODULES,
                       goal_claims="manual")
    private = 0
    stores = [EventStore(t.store.path) for t in tables]
    for step in range(900):
        a, b = tables
        if a.state().phase == "over":
            break
        spec_a, spec_b = v.chance_spec(a.state()), v.chance_spec(b.state())
        if spec_a is not None and spec_b is not None and spec_a.kind in PRIVATE_KINDS:
            outcome = bags.draw_with_rng(spec_a, rng)
            other = _different(spec_b, outcome, twin)
            private += other != outcome
            a.submit(outcome)
            b.submit(other)
        elif spec_a is not None:
            assert spec_a == spec_b
            outcome = bags.draw_with_rng(spec_a, rng)
            a.submit(outcome)
            b.submit(outcome)
        else:
            chosen = rng.choice(a.legal_view()["actions"])
            a.submit(chosen)
            b.submit(chosen)
        if a.state().phase == "over":
            break  # the end shows every hand in the state: the tables may differ from here
        sent = []
        for (pub, recorder), store in zip(pubs, stores, strict=True):
            pub._pump(store)
            sent.append(_normalised(recorder.take()))
        assert sent[0], f"step {step}: nothing published"
        assert sent[0] == sent[1], f"step {step}: the hall's messages tell the tables apart"
    assert private >= 2, "too few private outcomes to test anything"
    for store in stores:
        store.close()
    for (pub, _), table in zip(pubs, tables, strict=True):
        pub.outbox.close()
        table.store.close()


def test_no_private_seed_is_ever_published(tmp_path: Path) -> None:
    service = TableService(EventStore(tmp_path / "g.sqlite3"), "table-secret-9f3c")
    service.new_game(["red", "blue", "white"], modules=MODULES, goal_claims="manual")
    tokens = {service.table_token, *service.player_tokens().values()}
    pub, recorder = _publisher(service, "g")
    store = EventStore(service.store.path)
    rng = random.Random(7)
    seeds: set[str] = set()
    for _ in range(5000):
        if service.state().phase == "over":
            break
        service.submit(rng.choice(service.legal_view()["actions"]))
        last = service.events()[-1].payload
        audit = last.get("_draw")
        if isinstance(audit, dict) and last.get("type") in ("deal_goals", "draw_treasure"):
            seeds.add(audit["seed"])
        pub._pump(store)
    pub._pump(store)
    assert service.state().phase == "over"
    assert len(seeds) >= 2
    published = json.dumps(recorder.sent)
    assert not [s for s in seeds if s in published], "a private seed reached the hall"
    assert not [t for t in tokens if t in published], "a token reached the hall"
    store.close()
    pub.outbox.close()
    service.store.close()
