"""``companion serve``: the table service on the LAN (uvicorn: the live feed on an event loop,
the rest in Flask threads; see `web.asgi`).

    python -m companion.serve --port 8000            # or: companion serve
    python -m companion.serve --demo                 # a simulated game, no hardware
    python -m companion.serve --pcsc --serial auto   # the tap pad and a reader hub
    python -m companion.serve --camera 0             # a webcam over the table

At start it prints the table's URL (with the table token) as text and as a QR code. Without
``--token`` the token is read from (or generated into) a file beside the database, so the
players' links survive restarts.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Final

from companion.addresses import public_url
from companion.collector import settle_collector
from companion.paths import DEFAULT_DB, DEMO_DB
from companion.settings import DEMO_SECONDS, FeedLimits, Settings

if TYPE_CHECKING:
    from web.connections import ConnectionLimits

THREADS: Final = FeedLimits().read_workers
"""Flask worker threads for requests without the table token (live streams hold none)."""
USER_TIMEOUT_MS: Final = 3000
"""TCP_USER_TIMEOUT: a connection whose sent data stays unacknowledged this long is dropped
by the kernel (with the 2 s heartbeats, a vanished tablet is released within 5 s)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the ``serve`` options to ``parser``."""
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    parser.add_argument("--port", type=int, default=8000, help="TCP port (default: 8000)")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        help=f"the games database (default: {DEFAULT_DB}; with --demo: {DEMO_DB})",
    )
    parser.add_argument(
        "--token",
        default=None,
        help="the table token (default: kept in <db>.token, generated the first time)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="a demo table: a simulated game plays itself, a few actions per second",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=THREADS,
        help=f"Flask threads for readers (default: {THREADS}; 4 more serve the table token)",
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=DEMO_SECONDS,
        metavar="SECONDS",
        help=f"with --demo: seconds between two actions (default: {DEMO_SECONDS})",
    )
    parser.add_argument(
        "--sensors",
        choices=("none", "sim"),
        default="none",
        help="sim: with --demo, the game is played on a simulated table seen by simulated "
        "sensors and the reconciler (see docs/sensing.md)",
    )
    parser.add_argument("--pcsc", action="store_true",
                        help="watch the PC/SC tap pad (any reader pcscd knows)")
    parser.add_argument(
        "--serial", action="append", default=[], metavar="PORT",
        help="a reader hub on this serial port (repeatable; 'auto': a hub found by its hello)")
    parser.add_argument(
        "--zones", type=Path, default=None, metavar="FILE",
        help="the hubs' reader → zone map (default: <db>.zones.json when present; hardware.md)")
    parser.add_argument(
        "--camera", default=None, metavar="SPEC",
        help="a camera over the table: V4L2 index, video file, image folder or 'sim' "
        "(calibration: <db>.camera.json when present; docs/vision.md)")
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address phones and tablets use, e.g. http://192.168.1.20:8000 (default: "
        "this machine's LAN address and the port); links and QR codes are built from it",
    )
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument(
        "--behind-proxy", action="store_true",
        help="trust X-Forwarded-For from a reverse proxy on this machine (127.0.0.1, ::1) for "
        "the client's address; without it the header is ignored")
    parser.add_argument(
        "--connections-per-address", type=int, default=None, metavar="N",
        help="open connections one client address may hold (default: 160; docs/service.md)")
    parser.add_argument(
        "--header-timeout", type=float, default=None, metavar="SECONDS",
        help="seconds a request's headers may take to arrive (default: 10)")
    parser.add_argument(
        "--hall", default=None, metavar="mqtt://HOST[:PORT]",
        help="publish the table's public events to a hall's MQTT broker (docs/hall.md)")
    parser.add_argument(
        "--hall-table", default=None, metavar="NAME",
        help="this table's name in the hall (default: the host name)")
    parser.add_argument(
        "--boxcheck",
        type=Path,
        default=None,
        help="the box-check answers file (default: ~/.config/village-companion/boxcheck.json)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); return the exit status."""
    import uvicorn

    from companion.runtime import Runtime
    from companion.store import (
        StorageFull,
        StorageReadOnly,
        StorageUnavailable,
        StoreError,
        storage_error,
    )
    from companion.table.limits import raise_file_limit
    from web import create_app
    from web.asgi import make_asgi
    from web.connections import Connections, guarded_protocol

    db = Path(args.db or (DEMO_DB if args.demo else DEFAULT_DB)).expanduser()
    if args.speed <= 0:
        print("companion serve: --speed must be a positive number of seconds", file=sys.stderr)
        return 2
    fd_limit = raise_file_limit(8192)  # one descriptor per open connection
    try:
        limits = connection_limits(args, fd_limit)
    except ValueError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    try:
        sock = listening_socket(args.host, args.port)
    except OSError as exc:
        print(f"companion serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 2
    port = int(sock.getsockname()[1])
    base = public_url(args.public_url, args.host, port)
    try:
        db.parent.mkdir(parents=True, exist_ok=True)
        unusable = unwritable(db)
        if unusable is not None:
            sock.close()
            print(f"companion serve: cannot use the database {db}: {unusable}", file=sys.stderr)
            return 2
        token = args.token or load_or_make_token(db.with_suffix(".token"))
        runtime = Runtime(Settings(
            db_path=db,
            table_token=token,
            demo=args.demo,
            demo_interval=args.speed,
            boxcheck_path=args.boxcheck,
            sensors=args.sensors,
            pcsc=args.pcsc,
            serial=tuple(args.serial),
            zones=args.zones,
            camera=args.camera,
            public_url=base,
            hall=args.hall,
            hall_table=args.hall_table,
            feed=FeedLimits(read_workers=max(args.threads, 2), max_streams=stream_cap(limits)),
        ))
    except ValueError as exc:  # ZoneMapError, CalibrationError: a file that is not one
        sock.close()
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    except (StoreError, OSError) as exc:
        sock.close()
        if args.zones is not None and isinstance(exc, OSError) and exc.filename is not None \
                and Path(exc.filename) == args.zones:
            print(f"companion serve: cannot read the zone map {args.zones}: {exc.strerror}",
                  file=sys.stderr)
            return 2
        error = storage_error(db, exc) if isinstance(exc, OSError) else exc
        if isinstance(error, StorageFull):
            why = "the disk is full"
        elif isinstance(error, StorageReadOnly):
            why = "it cannot be written (read-only file system or no permission)"
        else:
            why = "it cannot be opened"
        detail = error.detail if isinstance(error, StorageUnavailable) else str(error)
        print(f"companion serve: cannot use the database {db}: {why} ({detail})", file=sys.stderr)
        return 2
    runtime.start()
    app = create_app(runtime)
    connections = Connections(limits)
    config = uvicorn.Config(
        make_asgi(app),
        http=guarded_protocol(connections),
        proxy_headers=args.behind_proxy,
        forwarded_allow_ips="127.0.0.1,::1",
        timeout_keep_alive=5,
        lifespan="on",
        log_level="warning",
        access_log=False,
        timeout_graceful_shutdown=1,
        backlog=2048,
        server_header=False,
    )
    server = uvicorn.Server(config)

    def _stop(signum: int, frame: FrameType | None) -> None:
        # A flag, never an exception: a SystemExit raised from a signal handler lands
        # wherever the main thread is, and inside a finalizer or weakref callback Python
        # swallows it ("Exception ignored"), the server then running on (a CI run at start-up
        # saw exactly that). Set before `server.run`, uvicorn starts and stops at once.
        server.should_exit = True

    # before uvicorn's own handlers are in place, and when it re-raises the signal after its
    # graceful stop: a clean exit
    signal.signal(signal.SIGTERM, _stop)
    url = f"{base}/play#token={token}"
    print(f"village-companion: database {db}", flush=True)
    print(f"village-companion: listening on http://{args.host}:{port}", flush=True)
    print(f"village-companion: scoreboard {base}/", flush=True)
    print(f"village-companion: table URL {url}", flush=True)
    if args.demo:
        print(
            f"village-companion: demo: one action every {args.speed:g} s (--speed to change)",
            flush=True,
        )
    print(f"village-companion: table token {token}", flush=True)
    if not args.no_qr:
        print_qr(url)
    settle_collector()  # start-up done: frozen, and the search's states traced less often
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        sock.close()
        runtime.close()
    return 0


def connection_limits(args: argparse.Namespace, fd_limit: int) -> ConnectionLimits:
    """The connection limits for this process (`web.connections`): the total from the
    open-file limit in force, the rest from the options. Raises ValueError for a limit
    that leaves no room or an option out of range."""
    from web.connections import ConnectionLimits

    overrides: dict[str, float] = {}
    if args.connections_per_address is not None:
        if args.connections_per_address < 8:
            raise ValueError("--connections-per-address must be 8 or more (a tablet uses ~6)")
        overrides["per_address"] = args.connections_per_address
    if args.header_timeout is not None:
        if not 0.5 <= args.header_timeout <= 300:
            raise ValueError("--header-timeout must be between 0.5 and 300 seconds")
        overrides["header_timeout"] = args.header_timeout
    return ConnectionLimits.for_descriptors(fd_limit, **overrides)


def stream_cap(limits: ConnectionLimits) -> int:
    """Public live streams in all: 2,000, or half the connection budget when that is
    smaller (a Raspberry Pi left at 1,024 open files: 464), so page loads keep room."""
    return max(8, min(2000, limits.total // 2))


def listening_socket(host: str, port: int) -> socket.socket:
    """A TCP socket listening on ``host:port`` whose connections inherit
    ``TCP_USER_TIMEOUT`` (`USER_TIMEOUT_MS`). Raises OSError (e.g. the port is taken)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # asyncio: TCP_NODELAY
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if hasattr(socket, "TCP_USER_TIMEOUT"):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, USER_TIMEOUT_MS)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def unwritable(db: Path) -> str | None:
    """Why this process could not write the database ``db`` (the file, its WAL and
    shared-memory files, or the folder they are made in), or None when it can."""
    if db.exists() and not os.access(db, os.W_OK):
        return "the file is read-only for this user or on its file system (fix its mode or owner)"
    for extra in (db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        if extra.exists() and not os.access(extra, os.W_OK):
            return f"{extra.name} is read-only for this user (fix its mode or owner)"
    if not db.exists() and not os.access(db.parent, os.W_OK | os.X_OK):
        return f"the folder {db.parent} cannot be written by this user"
    return None


def load_or_make_token(path: Path) -> str:
    """The table token kept in ``path``; a new one is generated and written (mode 0600) if
    the file is missing. Raises OSError if the file cannot be read or written."""
    from companion.table.tokens import new_table_token

    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = ""
    if text:
        return text
    token = new_table_token()
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(token + "\n")
    return token


def print_qr(url: str) -> None:
    """Print ``url`` as a QR code on the terminal (segno)."""
    import segno

    segno.make(url).terminal(out=sys.stdout, compact=True)
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m companion.serve``: parse the options and `run`."""
    parser = argparse.ArgumentParser(prog="companion serve", description=__doc__.split("\n")[0])
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
