"""``companion serve``: the table service on the LAN, under waitress.

    python -m companion.serve --port 8000            # or: companion serve
    python -m companion.serve --demo                 # a simulated game, no hardware

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
from typing import Final

DATA_DIR: Final = Path("~/.local/share/village-companion")
DEFAULT_DB: Final = DATA_DIR / "games.sqlite3"
DEMO_DB: Final = DATA_DIR / "demo.sqlite3"
DEMO_SECONDS: Final = 1.8
"""Seconds between two demo actions: a pace a person watching the scoreboard can follow."""
THREADS: Final = 64
"""waitress worker threads: each open live-update stream (one per tablet) holds one."""


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
        "--threads", type=int, default=THREADS, help=f"server threads (default: {THREADS})"
    )
    parser.add_argument(
        "--speed",
        type=float,
        default=DEMO_SECONDS,
        metavar="SECONDS",
        help=f"with --demo: seconds between two actions (default: {DEMO_SECONDS})",
    )
    parser.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address phones and tablets use, e.g. http://192.168.1.20:8000 (default: "
        "this machine's LAN address and the port); links and QR codes are built from it",
    )
    parser.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    parser.add_argument(
        "--boxcheck",
        type=Path,
        default=None,
        help="the box-check answers file (default: ~/.config/village-companion/boxcheck.json)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted (Ctrl-C or SIGTERM); return the exit status."""
    import waitress

    from web import create_app

    db = Path(args.db or (DEMO_DB if args.demo else DEFAULT_DB)).expanduser()
    db.parent.mkdir(parents=True, exist_ok=True)
    token = args.token or load_or_make_token(db.with_suffix(".token"))
    if args.speed <= 0:
        print("companion serve: --speed must be a positive number of seconds", file=sys.stderr)
        return 2
    app = create_app(
        {
            "DB_PATH": db,
            "TABLE_TOKEN": token,
            "DEMO": args.demo,
            "DEMO_INTERVAL": args.speed,
            "BOXCHECK_PATH": args.boxcheck,
        }
    )
    server = waitress.create_server(
        app,
        host=args.host,
        port=args.port,
        threads=max(args.threads, 8),
        channel_timeout=3600,
        ident="village-companion",
    )

    def _stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, _stop)
    port = int(server.effective_port)
    base = public_url(args.public_url, args.host, port)
    app.config["PUBLIC_URL"] = base
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

    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.close()
    return 0


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


def public_url(given: str | None, host: str, port: int) -> str:
    """The base address of links for phones: ``given`` (``--public-url``) as is, else
    ``http://<LAN address>:<port>`` (see `lan_address`)."""
    if given:
        return given.rstrip("/")
    return f"http://{lan_address(host)}:{port}"


def lan_address(host: str) -> str:
    """The address tablets should use: ``host`` itself unless it is a wildcard, else this
    machine's LAN address (found by a UDP ``connect``, which sends no packet)."""
    if host not in ("0.0.0.0", "", "::"):
        return host
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address: str = probe.getsockname()[0]
        except OSError:
            address = "127.0.0.1"
    return address


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
