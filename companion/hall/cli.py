"""``companion hall --mqtt URL --db postgresql://…``: run the hall's ingest until
interrupted (Ctrl-C or SIGTERM)."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from types import FrameType
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hall", help="store every table's events in PostgreSQL (docs/hall.md)")
    p.add_argument("--mqtt", required=True, metavar="mqtt://HOST[:PORT]",
                   help="the broker the tables publish to")
    p.add_argument("--db", required=True, metavar="postgresql://…",
                   help="the hall's PostgreSQL database (its schema is applied at start)")
    p.add_argument("--client-id", default="village-hall",
                   help="the hall's MQTT client id (its persistent session)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the hall; 2 for a bad URL, a missing package or a database it cannot use."""
    from companion.hall.ingest import Hall
    from companion.hall.topics import parse_broker_url

    try:
        hall = Hall(parse_broker_url(args.mqtt), args.db, args.client_id)
        hall.start()
    except ImportError as exc:
        print(f"companion hall: {exc.name} is missing: pip install -e '.[hall]'",
              file=sys.stderr)
        return 2
    except Exception as exc:  # ValueError (URL), psycopg.Error (database)
        print(f"companion hall: {exc}", file=sys.stderr)
        return 2
    done = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, _stop)
    print(f"companion hall: storing events from {args.mqtt}", flush=True)
    try:
        done.wait()
    except KeyboardInterrupt:
        pass
    finally:
        hall.stop()
    return 0
