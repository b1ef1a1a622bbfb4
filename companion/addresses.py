"""Where phones and tablets reach the companion: the host's LAN address, and the base
address of the links and QR codes handed to players (``companion serve --public-url``)."""

from __future__ import annotations

import socket


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
