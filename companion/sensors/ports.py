"""Finding a hub: the serial ports that may hold one, its hello, and which port an
adapter of this process holds.

    candidate_ports()                 # ["/dev/ttyACM0", "/dev/ttyUSB0", …]
    discover_hubs()                   # [(port, hello params)] of the ports that answer
    if claim(port): … release(port)   # scanning adapters never share a port
"""

from __future__ import annotations

import contextlib
import glob
import threading
import time
from collections.abc import Iterable
from typing import Any

from companion.sensors.hub_protocol import BadLine, HubLine, command, parse_line

__all__ = ["ask_hello", "candidate_ports", "claim", "discover_hubs", "release"]


def candidate_ports() -> list[str]:
    """Serial ports that may hold a hub: USB serial adapters and CDC-ACM boards."""
    ports: set[str] = set(glob.glob("/dev/ttyUSB*")) | set(glob.glob("/dev/ttyACM*"))
    try:
        from serial.tools import list_ports

        ports |= {p.device for p in list_ports.comports() if p.vid is not None}
    except ImportError:  # pragma: no cover - pyserial without tools
        pass
    return sorted(ports)


# ports held by scanning adapters of this process
_CLAIMED: set[str] = set()
_CLAIMS_LOCK = threading.Lock()


def claim(port: str) -> bool:
    """Take ``port`` for an adapter of this process; False if another one holds it."""
    with _CLAIMS_LOCK:
        if port in _CLAIMED:
            return False
        _CLAIMED.add(port)
        return True


def release(port: str) -> None:
    """Give ``port`` back (no error if it was not held)."""
    with _CLAIMS_LOCK:
        _CLAIMED.discard(port)


def ask_hello(ser: Any, timeout: float, stop: threading.Event | None = None) -> HubLine | None:
    """Send HELLO on an open port and read until a hub's hello comes back (other and
    garbled lines skipped); None after ``timeout`` seconds or once ``stop`` is set."""
    deadline = time.monotonic() + timeout
    buf = b""
    ser.write(command("HELLO"))
    while time.monotonic() < deadline and not (stop is not None and stop.is_set()):
        buf += ser.read(256)
        while b"\n" in buf:
            raw, buf = buf.split(b"\n", 1)
            try:
                line = parse_line(raw.rstrip(b"\r"))
            except BadLine:
                continue
            if line.type == "HELLO":
                return line
    return None


def discover_hubs(
    candidates: Iterable[str] | None = None, timeout: float = 3.0, baudrate: int = 115200
) -> list[tuple[str, dict[str, str]]]:
    """Ports that answer a village hub hello within ``timeout``: [(port, hello params)]."""
    import serial

    found = []
    for p in candidates if candidates is not None else candidate_ports():
        try:
            ser = serial.Serial(p, baudrate, timeout=0.05, exclusive=True)
        except (OSError, serial.SerialException, ValueError):
            continue
        try:
            hello = ask_hello(ser, timeout)
            if hello is not None:
                found.append((p, dict(hello.params)))
        except (OSError, serial.SerialException):
            pass
        finally:
            with contextlib.suppress(Exception):
                ser.close()
    return found
