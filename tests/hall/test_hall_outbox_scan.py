"""The publisher looks only at the games that may have something to send: new games, games a
notice named, games not acknowledged to their end, and every game once a minute; never a
count of every game's events every poll (the cost grew with months of games)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from companion.hall.outbox import FULL_SCAN_S, HallPublisher
from companion.hall.topics import BrokerUrl
from companion.store import EventStore
from companion.table import Notice


class CountingStore(EventStore):
    """The real store, counting which games each listing asked for."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.listed: list[list[int]] = []
        self.counted = 0

    def games(self) -> Any:
        self.counted += 1
        return super().games()

    def games_since(self, after: int = 0, ids: Any = ()) -> Any:
        out = super().games_since(after, ids)
        self.listed.append([g.id for g in out])
        return out


def test_finished_games_are_not_read_again_every_poll(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "g.sqlite3")
    for _ in range(120):
        gid = store.create_game({"game": "village", "players": ["red", "blue"]})
        for n in range(3):
            store.append(gid, {"type": "pass", "n": n}, "tablet")
    pub = HallPublisher(store.path, "t1", BrokerUrl("127.0.0.1", 1))  # never started
    try:
        now = time.monotonic()
        acked = {g: 3 for g in range(1, 121)}
        assert pub._to_publish(store, acked, now) == []     # the first look: every game
        assert len(store.listed[-1]) == 120
        for i in range(1, 50):                               # then each poll: none of them
            assert pub._to_publish(store, acked, now + i * 0.5) == []
            assert store.listed[-1] == []
        store.append(7, {"type": "pass"}, "tablet")          # an old game played again
        pub.wake(Notice(7, 4, "{}"))
        todo = pub._to_publish(store, acked, now + 30)
        assert [(g.id, g.event_count) for g in todo] == [(7, 4)]
        assert store.listed[-1] == [7]
        assert [g.id for g in pub._to_publish(store, acked, now + 31)] == [7]  # still behind
        acked[7] = 4
        new = store.create_game({"game": "village", "players": ["red", "blue"]})
        assert [g.id for g in pub._to_publish(store, acked, now + 32)] == [new]  # announced
        assert store.listed[-1] == [new]
        acked[new] = 0
        store.append(9, {"type": "pass"}, "tablet")          # written behind its back:
        assert pub._to_publish(store, acked, now + 33) == []  # seen at the next full look
        assert [g.id for g in pub._to_publish(store, acked, now + FULL_SCAN_S + 1)] == [9]
        assert store.counted == 0
    finally:
        pub.outbox.close()
        store.close()
