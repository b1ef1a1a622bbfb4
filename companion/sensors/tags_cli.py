"""``companion tags …``: the tag registry from the command line.

    companion tags listen --pcsc --json --count 3 --timeout 30   # is my reader working?
    companion tags enrol --pcsc [--colour red] [--all]            # guided: "tap red 1, first copy"
    companion tags list | export FILE | import FILE | retire UID

Every command takes ``--db`` (default: the service's games database), where the registry
lives beside the games (``companion.sensors.tag_registry``).
"""

from __future__ import annotations

import argparse
import json
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from companion.reconcile.observations import (
    Health,
    Observation,
    PiecesGone,
    PiecesSeen,
    TagTapped,
    to_json,
)
from companion.sensors import Adapter, Emit
from companion.sensors.serial_hub import SerialHub, TagEvent
from companion.sensors.tag_registry import (
    COLOURS,
    PIECES,
    Enrolment,
    TagError,
    TagRegistry,
    TagTaken,
    normalise_uid,
    piece_label,
    pieces_of,
)

__all__ = ["SourceError", "add_parser", "open_sources"]


class SourceError(RuntimeError):
    """A tag source that cannot be opened here (pyscard missing, no serial adapter)."""


def _default_db() -> Path:
    from companion.paths import DEFAULT_DB

    return DEFAULT_DB.expanduser()


def open_sources(
    pcsc: bool,
    serial: list[str],
    emit: Emit,
    lookup: Callable[[str], str | None],
    on_tag: Callable[[TagEvent], None] | None = None,
) -> list[Adapter]:
    """Build (not start) the adapters asked for: the PC/SC pad and one serial hub per port
    (``on_tag`` receives each hub tag event with its reader and UID).

    Raises SourceError: pyscard is not installed.
    """
    adapters: list[Adapter] = []
    if pcsc:
        try:
            import smartcard  # noqa: F401
        except ImportError as exc:
            raise SourceError(
                "--pcsc needs pyscard: pip install 'village-companion[hardware]'"
            ) from exc
        from companion.sensors.pcsc_pad import PcscPad

        adapters.append(PcscPad(emit, lookup, name="pad"))
    for port in serial:
        adapters.append(SerialHub(port, emit, lookup=lookup, on_tag=on_tag))
    return adapters


def _registry(args: argparse.Namespace, create: bool) -> TagRegistry | None:
    db = Path(args.db).expanduser() if args.db else _default_db()
    if not create and not db.exists():
        return None
    db.parent.mkdir(parents=True, exist_ok=True)
    return TagRegistry(db)


def _fail(command: str, message: str) -> int:
    print(f"companion tags {command}: {message}", file=sys.stderr)
    return 2


# -- listen ------------------------------------------------------------------------------


def _listen(args: argparse.Namespace) -> int:
    registry = _registry(args, create=False)
    lookup = registry.lookup if registry else (lambda uid: None)
    observations: queue.Queue[Observation | TagEvent] = queue.Queue()

    def emit(obs: Observation) -> None:
        # a hub's tags are printed one by one from its tag events (reader and UID), not as
        # the zone observations they also make
        if not isinstance(obs, PiecesSeen | PiecesGone):
            observations.put(obs)

    try:
        adapters = open_sources(args.pcsc or not args.serial, args.serial or [],
                                emit, lookup, on_tag=observations.put)
    except SourceError as exc:
        return _fail("listen", str(exc))
    for a in adapters:
        a.start()
    deadline = None if args.timeout is None else time.monotonic() + args.timeout
    seen = 0
    status = 0
    try:
        while args.count is None or seen < args.count:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                if args.count is not None:
                    print(f"companion tags listen: timeout after {args.timeout} s: "
                          f"{seen} of {args.count} observations", file=sys.stderr)
                    status = 1
                break
            try:
                obs = observations.get(timeout=0.2 if left is None else min(left, 0.2))
            except queue.Empty:
                continue
            if not isinstance(obs, Health):
                seen += 1
            _print_observation(obs, args.json)
    except KeyboardInterrupt:
        status = 130
    finally:
        for a in adapters:
            a.close()
    if args.stats:
        print(json.dumps(_stats(adapters, seen)) if args.json else
              "stats: " + ", ".join(f"{k} {v}" for k, v in _stats(adapters, seen).items()
                                    if k != "kind"))
    sys.stdout.flush()
    return status


def _print_observation(obs: Observation | TagEvent, as_json: bool) -> None:
    if isinstance(obs, TagEvent):
        reader = f"hub:{obs.hub}/reader:{obs.reader}"
        row = {"kind": obs.kind, "reader": reader, "zone": obs.zone, "uid": obs.uid}
        if obs.piece:
            row["piece"] = obs.piece
        print(json.dumps(row) if as_json else
              f"{obs.kind:7} {reader}  {obs.uid}  {obs.piece or 'unknown tag'}", flush=True)
        return
    data = to_json(obs)
    if isinstance(obs, TagTapped) and obs.piece is None:
        del data["piece"]
    if as_json:
        print(json.dumps(data, ensure_ascii=False), flush=True)
    elif isinstance(obs, TagTapped):
        what = f"{obs.piece} ({piece_label(obs.piece)})" if obs.piece else "unknown tag"
        print(f"tapped  {obs.reader}  {obs.uid}  {what}", flush=True)
    elif isinstance(obs, Health):
        print(f"health  {obs.device}: {obs.state}  {obs.detail}", flush=True)
    else:
        print(json.dumps(data, ensure_ascii=False), flush=True)


def _stats(adapters: list[Adapter], seen: int) -> dict[str, Any]:
    """``lines``/``bad_lines`` summed over the serial links (None without one)."""
    lines: int | None = None
    bad: int | None = None
    for a in adapters:
        stats = getattr(a, "stats", None)
        if callable(stats):
            s = stats()
            lines = (lines or 0) + int(s.get("lines", 0))
            bad = (bad or 0) + int(s.get("bad_lines", 0))
    return {"kind": "stats", "lines": lines, "bad_lines": bad, "observations": seen}


# -- enrol -------------------------------------------------------------------------------


class _Enrolment:
    """The guided enrolment: one piece at a time, taps and typed commands in one queue."""

    def __init__(self, registry: TagRegistry, pieces: tuple[str, ...], out: TextIO) -> None:
        self.registry = registry
        self.pieces = pieces
        self.out = out
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.history: list[tuple[int, Enrolment | None]] = []
        self.enrolled = 0
        self.skipped = 0

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def observe(self, obs: Observation) -> None:
        if isinstance(obs, TagTapped):
            self.events.put(("tap", obs.uid))
        elif isinstance(obs, Health) and obs.state != "up":
            self.events.put(("health", f"{obs.device}: {obs.state} {obs.detail}".strip()))

    def hub_tag(self, event: TagEvent) -> None:
        """A tag put on any hub reader counts as a tap (``seen``); lifting it does nothing."""
        if event.kind == "seen":
            self.events.put(("tap", event.uid))

    def run(self, keyboard_only: bool) -> None:
        i = 0
        while i < len(self.pieces):
            piece = self.pieces[i]
            self.say(f"[{i + 1}/{len(self.pieces)}] tap {piece_label(piece)} ({piece})"
                     "   (s skip, u undo, q quit)")
            i = self._step(i, piece, keyboard_only)
            if i < 0:
                break
        total = len(self.registry.enrolled())
        self.say(f"enrolled {self.enrolled}, skipped {self.skipped}; "
                 f"{total} of {len(PIECES)} pieces have a tag")

    def _step(self, i: int, piece: str, keyboard_only: bool) -> int:
        """Wait for what happens to piece ``i``; return the next index (-1: stop)."""
        while True:
            kind, value = self.events.get()
            if kind == "health":
                self.say(f"  reader: {value}")
                continue
            if kind == "eof":
                if keyboard_only:
                    return -1
                continue
            if kind == "key":
                command = value.strip().lower()
                if command in ("q", "quit"):
                    return -1
                if command in ("s", "skip"):
                    self.say(f"  skipped {piece}")
                    self.history.append((i, None))
                    self.skipped += 1
                    return i + 1
                if command in ("u", "undo"):
                    return self._undo(i)
                if not command:
                    continue
                try:
                    value = normalise_uid(command)
                except TagError as exc:
                    self.say(f"  {exc}; or type s, u or q")
                    continue
            if self.history and self.history[-1][1] and self.history[-1][1].uid == value:
                last = self.history[-1][1]
                self.say(f"  tag {value} was just enrolled to {last.piece}: "
                         f"tap the tag of {piece_label(piece)}")
                continue
            try:
                e = self.registry.enrol(value, piece)
            except TagTaken as exc:
                self.say(f"  {exc}")
                continue
            if e.already:
                self.say(f"  tag {value} is already enrolled to {piece}")
            else:
                extra = f" (replaces {e.replaced}, now retired)" if e.replaced else ""
                self.say(f"  ok: {piece} = {value}{extra}")
                self.enrolled += 1
            self.history.append((i, e))
            return i + 1

    def _undo(self, i: int) -> int:
        if not self.history:
            self.say("  nothing to undo")
            return i
        index, e = self.history.pop()
        if e is None:
            self.skipped -= 1
            self.say(f"  back to {self.pieces[index]}")
        else:
            try:
                self.registry.undo(e)
            except TagError as exc:
                self.say(f"  {exc}")
                return i
            if not e.already:
                self.enrolled -= 1
            self.say(f"  undone: {e.piece} no longer {e.uid}"
                     + (f" ({e.replaced} back in use)" if e.replaced else ""))
        return index


def _read_keys(events: queue.Queue[tuple[str, str]], stream: TextIO) -> None:
    for line in stream:
        events.put(("key", line))
    events.put(("eof", ""))


def _enrol(args: argparse.Namespace) -> int:
    registry = _registry(args, create=True)
    assert registry is not None
    try:
        pieces = pieces_of(args.colour) if args.all else registry.missing(args.colour)
    except TagError as exc:
        return _fail("enrol", str(exc))
    if not pieces:
        print(f"every piece{' of ' + ', '.join(args.colour) if args.colour else ''} has a tag; "
              "--all enrols them again (spare tags)")
        return 0
    session = _Enrolment(registry, pieces, sys.stdout)
    use_pcsc = args.pcsc or (not args.serial and not args.keyboard)
    try:
        adapters = open_sources(use_pcsc, args.serial or [], session.observe, registry.lookup,
                                on_tag=session.hub_tag)
    except SourceError as exc:
        return _fail("enrol", str(exc))
    threading.Thread(target=_read_keys, args=(session.events, sys.stdin), daemon=True).start()
    for a in adapters:
        a.start()
    try:
        session.run(keyboard_only=not adapters)
    except KeyboardInterrupt:
        session.say("interrupted; what was enrolled is saved")
        return 130
    finally:
        for a in adapters:
            a.close()
    return 0


# -- list, export, import, retire ------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    registry = _registry(args, create=False)
    enrolled = registry.enrolled() if registry else {}
    rows = [{"piece": p, "label": piece_label(p), "uid": enrolled.get(p)} for p in PIECES]
    if args.json:
        print(json.dumps({"enrolled": len(enrolled), "total": len(PIECES), "pieces": rows,
                          "retired": registry.retired() if registry else []}, indent=1))
    else:
        for r in rows:
            print(f"{r['piece']:10} {r['uid'] or '-':22} {r['label']}")
        print(f"{len(enrolled)} of {len(PIECES)} pieces have a tag")
    return 0


def _export(args: argparse.Namespace) -> int:
    registry = _registry(args, create=False)
    data = registry.export() if registry else TagRegistry.empty_export()
    text = json.dumps(data, indent=1) + "\n"
    if args.file == "-":
        sys.stdout.write(text)
    else:
        Path(args.file).write_text(text, "utf-8")
        print(f"{sum(1 for t in data['tags'] if t['retired'] is None)} tags written to {args.file}")
    return 0


def _import(args: argparse.Namespace) -> int:
    registry = _registry(args, create=True)
    assert registry is not None
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        n = registry.import_(json.loads(text))
    except (OSError, ValueError) as exc:  # TagError and JSONDecodeError are ValueErrors
        return _fail("import", str(exc))
    print(f"imported: {n} of {len(PIECES)} pieces have a tag")
    return 0


def _retire(args: argparse.Namespace) -> int:
    registry = _registry(args, create=False)
    try:
        if registry is None:
            raise TagError("no registry in this database yet")
        piece = registry.retire(args.uid)
    except TagError as exc:
        return _fail("retire", str(exc))
    print(f"retired {normalise_uid(args.uid)}; {piece} ({piece_label(piece)}) has no tag now")
    return 0


# -- the parser --------------------------------------------------------------------------


def _sources(p: argparse.ArgumentParser) -> None:
    p.add_argument("--pcsc", action="store_true", help="the PC/SC tap pad (the default)")
    p.add_argument("--serial", action="append", metavar="PORT",
                   help="a reader hub on this serial port (repeatable)")


def add_parser(sub: Any) -> None:
    """Add ``tags`` and its subcommands to the ``companion`` subparsers ``sub``."""
    tags = sub.add_parser("tags", help="NFC tags under the pieces: listen, enrol, export")
    tags.add_argument("--db", type=Path, default=None,
                      help="the games database holding the registry (default: the service's)")
    tsub = tags.add_subparsers(dest="tags_command", required=True)

    p = tsub.add_parser("listen", help="print what the readers see (is my reader working?)")
    _sources(p)
    p.add_argument("--count", type=int, help="stop after N tag observations (exit 1 on timeout)")
    p.add_argument("--timeout", type=float, help="stop after S seconds")
    p.add_argument("--stats", action="store_true",
                   help="end with lines, bad_lines (serial links) and observations")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=_listen)

    p = tsub.add_parser("enrol", help="guided enrolment: tap each piece when asked")
    _sources(p)
    p.add_argument("--keyboard", action="store_true",
                   help="no reader: type each UID (a reader that types, or by hand)")
    p.add_argument("--colour", action="append", choices=COLOURS,
                   help="only this colour (repeatable; 'monk' for the black monks)")
    p.add_argument("--all", action="store_true",
                   help="every piece, also those with a tag (a new tag replaces the old)")
    p.set_defaults(func=_enrol)

    p = tsub.add_parser("list", help="each piece and its tag")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_list)

    p = tsub.add_parser("export", help="write the registry as JSON (FILE or - for stdout)")
    p.add_argument("file")
    p.set_defaults(func=_export)

    p = tsub.add_parser("import", help="replace the registry with an export (FILE or -)")
    p.add_argument("file")
    p.set_defaults(func=_import)

    p = tsub.add_parser("retire", help="retire a lost or broken tag")
    p.add_argument("uid")
    p.set_defaults(func=_retire)
