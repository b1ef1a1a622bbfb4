"""Child process for the durability test: append actions in a tight loop, forever.

    python durable_writer.py DB_PATH GAME_ID

After each append returns, prints ``SEQ PAYLOAD_JSON`` and flushes: a printed line is an
acknowledged event. The test kills this process with SIGKILL at a random moment.
"""

from __future__ import annotations

import sys

from companion.store import EventStore


def main(db_path: str, game_id: int) -> None:
    store = EventStore(db_path)
    n = 0
    while True:
        n += 1
        action = {"type": "work", "n": n, "pad": "x" * (n % 97)}
        event = store.append(game_id, action, "demo")
        sys.stdout.write(f"{event.seq} {event.to_json()}\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
