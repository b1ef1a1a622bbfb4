"""A virtual contactless tag for vsmartcard-vpcd: a socket client speaking vpcd's protocol.

vpcd (the pcscd driver ``libifdvpcd``) listens on TCP (35963 for "Virtual PCD 00 00",
35964 for "… 00 01" with the default ``/etc/reader.conf.d/vpcd``); a card *is* a
connection. Every message either way is a 2-byte big-endian length, then the payload. A
1-byte payload from vpcd is a control code (0 power off, 1 power on, 2 reset, 4 "send your
ATR"); a longer one is an APDU, answered with the response bytes and a status word. This
card answers the ATR of an ISO 14443 tag behind a PC/SC reader and ``FF CA 00 00 00`` (GET
DATA: the UID, as an ACR122U answers it) with its UID + ``90 00``; ``6D 00`` to the rest.
Closing the socket takes the tag off the reader.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
import time

# PC/SC part 3 ATR of a MIFARE Classic 1K tag as an ACR122U reports it.
ATR = bytes.fromhex("3B8F8001804F0CA000000306030001000000006A")
GET_UID = bytes.fromhex("FFCA000000")
POWER_OFF, POWER_ON, RESET, GET_ATR = 0, 1, 2, 4


class VirtualTag:
    """Put a tag with ``uid`` (hex) on the vpcd reader listening on ``port``.

    ``VirtualTag(uid, port).place()`` connects (vpcd reports the card ~0.5 s later);
    ``remove()`` closes the connection. ``apdus`` counts the APDUs it answered."""

    def __init__(self, uid: str, port: int = 35963, host: str = "127.0.0.1") -> None:
        self.uid = bytes.fromhex(uid)
        self.addr = (host, port)
        self.apdus = 0
        self.uid_reads = 0
        self._sock: socket.socket | None = None
        self._thread: threading.Thread | None = None

    def place(self, timeout: float = 5.0) -> VirtualTag:
        """Connect to vpcd (retrying until ``timeout``: vpcd listens once pcscd loaded it).
        Raises OSError if it never accepts."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._sock = socket.create_connection(self.addr, timeout=1.0)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        self._sock.settimeout(None)
        self._thread = threading.Thread(target=self._serve, args=(self._sock,), daemon=True)
        self._thread.start()
        return self

    def remove(self) -> None:
        """Take the tag off the reader (close the socket with a reset: no TIME_WAIT left on
        vpcd's port, which would stop a restarted pcscd from listening there)."""
        sock, self._sock = self._sock, None
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        if self._thread is not None:
            self._thread.join(2)

    def __enter__(self) -> VirtualTag:
        return self.place()

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def _serve(self, sock: socket.socket) -> None:
        try:
            while True:
                head = _recv_exact(sock, 2)
                if head is None:
                    return
                (length,) = struct.unpack(">H", head)
                payload = _recv_exact(sock, length)
                if payload is None:
                    return
                answer = self._answer(payload)
                if answer is not None:
                    sock.sendall(struct.pack(">H", len(answer)) + answer)
        except OSError:
            return

    def _answer(self, payload: bytes) -> bytes | None:
        if len(payload) == 1:
            return ATR if payload[0] == GET_ATR else None
        self.apdus += 1
        if payload == GET_UID:
            self.uid_reads += 1
            return self.uid + b"\x90\x00"
        return b"\x6d\x00"


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data
