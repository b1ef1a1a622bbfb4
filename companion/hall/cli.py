"""``companion hall --mqtt URL --db postgresql://…``: store every table's events and serve the
hall pages until interrupted (Ctrl-C or SIGTERM).

This module sits on the top layer (it starts the web server: `companion.tools.layers`)."""

from __future__ import annotations

import argparse
import secrets
import signal
import sys
from types import FrameType
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(sub: Any) -> None:
    p = sub.add_parser("hall", help="store every table's events in PostgreSQL and serve the"
                       " hall pages (docs/hall.md)")
    p.add_argument("--mqtt", metavar="mqtt://HOST[:PORT]",
                   help="the broker the tables publish to (required to run the hall)")
    p.add_argument("--db", metavar="postgresql://…",
                   help="the hall's PostgreSQL database (its schema is applied at start)")
    p.add_argument("--client-id", default="village-hall",
                   help="the hall's MQTT client id (its persistent session)")
    p.add_argument("--host", default="0.0.0.0", help="where the hall pages listen")
    p.add_argument("--port", type=int, default=8100, help="the hall pages' port (0: any free)")
    p.add_argument("--token", default=None,
                   help="the organiser's token (default: a new one, printed at start)")
    p.add_argument("--no-web", action="store_true", help="store events only, serve no page")
    p.set_defaults(func=run)
    more = p.add_subparsers(dest="hall_command", metavar="{add-table}")
    from companion.hall.access import add_parser as add_access_parser

    add_access_parser(more)


def run(args: argparse.Namespace) -> int:
    """Run the hall; 2 for a bad URL, a missing package or a database it cannot use."""
    if not args.mqtt or not args.db:
        print("companion hall: --mqtt and --db are both needed to run the hall",
              file=sys.stderr)
        return 2
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

    def _stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, _stop)
    print(f"companion hall: storing events from {args.mqtt}", flush=True)
    try:
        if args.no_web:
            signal.pause()
        else:
            _serve(args)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        hall.stop()
    return 0


def _serve(args: argparse.Namespace) -> None:
    import uvicorn

    from companion.serve import listening_socket
    from web.hall import create_hall_app
    from web.hall_live import HallASGI

    token = args.token or secrets.token_urlsafe(12)
    sock = listening_socket(args.host, args.port)
    port = int(sock.getsockname()[1])
    config = uvicorn.Config(HallASGI(create_hall_app(args.db, token), args.db),
                            lifespan="on", log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, server_header=False)
    print(f"companion hall: pages on http://{args.host}:{port}/", flush=True)
    print(f"companion hall: organiser token {token}", flush=True)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
