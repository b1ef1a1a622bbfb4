"""The hall's MQTT names: broker URLs, table names and the topic tree of one table.

Each table publishes under ``village/hall/<table>/``:

- ``events``: one message per stored event, its public form (`companion.hall.public`), QoS 1;
- ``state``: retained, the current game's public state (a newcomer gets it at once);

and the hall answers on ``village/hall/<table>/ack`` with the last seq of each game it has
stored without a gap. Each time the hall has (re)subscribed it publishes a new epoch,
retained, on ``village/hall/_hall/online`` (`ONLINE`): a table that sees a new epoch sends
again what the hall has not acknowledged (the hall may have missed it while away).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = ["ONLINE", "ROOT", "BrokerUrl", "ack_topic", "check_table_name", "events_topic",
           "parse_broker_url", "state_topic", "table_of"]

ROOT: Final = "village/hall"
ONLINE: Final = f"{ROOT}/_hall/online"
_TABLE_NAME: Final = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class BrokerUrl:
    """Where the broker listens (``mqtt://[user[:password]@]host[:port]``, or ``mqtts://``
    for TLS, with ``?ca=FILE`` to trust a CA of the café's own instead of the system's)."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = None
    tls: bool = False
    ca: str | None = None


def parse_broker_url(text: str) -> BrokerUrl:
    """``mqtt://host[:port]`` or ``mqtts://host[:port][?ca=FILE]`` (user and password
    optional; ports 1883 and 8883 by default). Raises ValueError for another scheme, no
    host, a bad port or a CA file that does not exist."""
    parts = urlsplit(text)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"not an mqtt:// or mqtts:// URL: {text!r}")
    if not parts.hostname:
        raise ValueError(f"no broker host in {text!r}")
    tls = parts.scheme == "mqtts"
    try:
        port = parts.port or (8883 if tls else 1883)
    except ValueError as exc:
        raise ValueError(f"bad broker port in {text!r}") from exc
    ca = parse_qs(parts.query).get("ca", [None])[-1]
    if ca is not None and (not tls or not Path(ca).is_file()):
        raise ValueError(f"?ca= needs mqtts:// and a file that exists (got {ca!r})")
    return BrokerUrl(parts.hostname, port, unquote(parts.username) if parts.username else None,
                     unquote(parts.password) if parts.password else None, tls, ca)


def check_table_name(name: str) -> str:
    """``name`` if it can be a topic level (letters, digits, ``_.-``, at most 64).
    Raises ValueError otherwise (``+``, ``#`` and ``/`` would escape the table's tree)."""
    if not _TABLE_NAME.match(name):
        raise ValueError(f"a table name is letters, digits, '_', '.', '-' (got {name!r})")
    return name


def events_topic(table: str) -> str:
    return f"{ROOT}/{check_table_name(table)}/events"


def state_topic(table: str) -> str:
    return f"{ROOT}/{check_table_name(table)}/state"


def ack_topic(table: str) -> str:
    return f"{ROOT}/{check_table_name(table)}/ack"


def table_of(topic: str) -> str | None:
    """The table a ``village/hall/<table>/<leaf>`` topic belongs to (None: not one)."""
    parts = topic.split("/")
    if len(parts) != 4 or "/".join(parts[:2]) != ROOT or not _TABLE_NAME.match(parts[2]):
        return None
    return parts[2]
