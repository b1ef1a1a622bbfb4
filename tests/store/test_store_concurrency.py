"""Many threads (and several connections) appending to the same games."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

from companion.store import ConcurrentAppend, EventStore

THREADS = 8
PER_THREAD = 40


def run_threads(target: Callable[[int], None]) -> None:
    """Start THREADS threads on ``target(index)`` together; re-raise the first failure."""
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def body(index: int) -> None:
        try:
            barrier.wait()
            target(index)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    if errors:
        raise errors[0]


def check_gap_free(store: EventStore, game: int) -> None:
    events = store.events(game)
    assert [e.seq for e in events] == list(range(1, THREADS * PER_THREAD + 1))
    for thread in range(THREADS):
        mine = [e.payload["n"] for e in events if e.payload["thread"] == thread]
        assert mine == list(range(PER_THREAD)), "each thread's appends keep their order"


def test_threads_sharing_one_store_get_gap_free_seqs(store: EventStore) -> None:
    game = store.create_game({"game": "village"})
    other = store.create_game({"game": "village"})

    def append(thread: int) -> None:
        for n in range(PER_THREAD):
            store.append(game, {"thread": thread, "n": n}, "tablet")
            if n % 10 == 0:
                store.append(other, {"thread": thread, "n": n}, "camera")

    run_threads(append)
    check_gap_free(store, game)
    assert [e.seq for e in store.events(other)] == list(range(1, THREADS * 4 + 1))


def test_threads_with_their_own_connections_get_gap_free_seqs(db_path: Path) -> None:
    with EventStore(db_path) as setup:
        game = setup.create_game({"game": "village"})

    def append(thread: int) -> None:
        with EventStore(db_path) as own:
            for n in range(PER_THREAD):
                own.append(game, {"thread": thread, "n": n}, "tag_reader")

    run_threads(append)
    with EventStore(db_path) as store:
        check_gap_free(store, game)


def test_expected_seq_lets_exactly_one_writer_through(store: EventStore) -> None:
    """Each thread reads the last seq and appends only if nobody came first, retrying on
    ConcurrentAppend. Every stored action must then have been decided on the state just
    before it."""
    game = store.create_game({"game": "village"})

    def append(thread: int) -> None:
        n = 0
        while n < PER_THREAD:
            seen = store.last_seq(game)
            try:
                store.append(
                    game, {"thread": thread, "n": n, "seen": seen}, "tablet", expected_seq=seen
                )
            except ConcurrentAppend:
                continue  # someone came first: look again
            n += 1

    run_threads(append)
    check_gap_free(store, game)
    assert all(e.payload["seen"] == e.seq - 1 for e in store.events(game))
