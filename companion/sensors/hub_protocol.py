"""The reader hub's line protocol (``firmware/PROTOCOL.md``), host side: pure parsing.

A hub line is ``<seq> <TYPE> <args…>*CC`` + CR LF, ``CC`` the CRC-8 (poly 0x07, init 0)
of everything before ``*`` as two hex digits. `parse_line` turns one line (without the
line end) into a `HubLine` or raises `BadLine`; `command` builds a host command.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

PROTOCOL_VERSION = 1
LINE_MAX = 128
TYPES = frozenset(
    {"HELLO", "SEEN", "GONE", "HB", "FAULT", "READY", "SYNC", "ACK", "NAK", "FULL"}
)
_UID = re.compile(r"^(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})$")


class BadLine(ValueError):
    """A line that is not a valid hub line: framing, checksum or fields."""


def _crc8_bitwise(data: bytes) -> int:
    c = 0
    for b in data:
        c ^= b
        for _ in range(8):
            c = ((c << 1) ^ 0x07) & 0xFF if c & 0x80 else (c << 1) & 0xFF
    return c


_CRC8_TABLE = tuple(_crc8_bitwise(bytes([i])) for i in range(256))


def crc8(data: bytes) -> int:
    """CRC-8/SMBUS: polynomial 0x07, initial value 0, no reflection."""
    c = 0
    table = _CRC8_TABLE
    for b in data:
        c = table[c ^ b]
    return c


def frame(body: str) -> bytes:
    """``body`` with its checksum and CR LF: what goes on the wire."""
    raw = body.encode("ascii")
    return raw + b"*%02X\r\n" % crc8(raw)


def command(text: str) -> bytes:
    """A host command (``"START"``, ``"RATE 40"``) framed for the hub."""
    return frame(text)


@dataclass(frozen=True, slots=True)
class HubLine:
    """One checked line: its sequence number, type and the fields after the type."""

    seq: int
    type: str
    args: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)  # key=value args (HELLO)

    def reader(self, count: int | None = None) -> int:
        """The reader index of SEEN/GONE/FAULT/READY/FULL; raises BadLine if out of range."""
        try:
            r = int(self.args[0])
        except (IndexError, ValueError):
            raise BadLine(f"{self.type}: no reader index") from None
        if r < 0 or (count is not None and r >= count):
            raise BadLine(f"{self.type}: reader {r} out of range")
        return r


def parse_line(raw: bytes) -> HubLine:
    """Check and split one line (CR/LF already stripped); raises BadLine."""
    if len(raw) > LINE_MAX:
        raise BadLine("line too long")
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError:
        raise BadLine("not ASCII") from None
    if len(text) < 4 or text[-3] != "*":
        raise BadLine("no checksum")
    body, check = text[:-3], text[-2:]
    try:
        expected = int(check, 16)
    except ValueError:
        raise BadLine("checksum is not hex") from None
    if crc8(body.encode("ascii")) != expected:
        raise BadLine("checksum mismatch")
    parts = body.split(" ")
    if len(parts) < 2 or not parts[0].isdigit() or int(parts[0]) > 255:
        raise BadLine("no sequence number")
    seq, kind, args = int(parts[0]), parts[1], tuple(parts[2:])
    if kind not in TYPES:
        raise BadLine(f"unknown line type {kind!r}")
    params: dict[str, str] = {}
    if kind == "HELLO":
        if not args or args[0] != "village-hub":
            raise BadLine("HELLO from something that is not a village hub")
        for a in args[1:]:
            k, sep, v = a.partition("=")
            if not sep:
                raise BadLine(f"HELLO: {a!r} is not key=value")
            params[k] = v
        for k in ("proto", "readers", "status"):
            if k not in params:
                raise BadLine(f"HELLO without {k}")
        if not params["readers"].isdigit() or len(params["status"]) != int(params["readers"]):
            raise BadLine("HELLO: readers and status disagree")
    elif kind in ("SEEN", "GONE"):
        if len(args) != 2 or not args[0].isdigit() or not _UID.match(args[1]):
            raise BadLine(f"{kind}: expected a reader and a UID")
    elif kind in ("FAULT", "READY"):
        if len(args) < 1 or not args[0].isdigit():
            raise BadLine(f"{kind}: no reader index")
    elif kind == "HB":
        if len(args) not in (2, 3) or not args[0].isdigit():
            raise BadLine("HB: expected uptime, poll counts [, error counts]")
        for p in args[1].split(","):
            if p != "F" and not p.isdigit():
                raise BadLine("HB: bad poll count")
        if len(args) == 3 and (not all(e.isdigit() for e in args[2].split(","))
                               or args[2].count(",") != args[1].count(",")):
            raise BadLine("HB: bad error counts")
    elif kind == "FULL" and (len(args) != 2 or not all(a.isdigit() for a in args)):
        raise BadLine("FULL: expected a reader and a count")
    elif kind == "SYNC" and (len(args) != 1 or not args[0].isdigit()):
        raise BadLine("SYNC: expected a count")
    return HubLine(seq, kind, args, params)


__all__ = ["PROTOCOL_VERSION", "BadLine", "HubLine", "command", "crc8", "frame", "parse_line"]
