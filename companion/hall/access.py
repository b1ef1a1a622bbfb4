"""Who may publish what on the hall's broker: one credential per table, made by the hall
(``companion hall add-table NAME``), and Mosquitto's password and ACL files written from them.

A table's user is its table name; it may write only ``village/hall/<name>/events`` and
``…/state`` and read only its own ``…/ack`` and the hall's epoch (`topics.ONLINE`). The hall's
own user, `HALL_USER` (no table name can begin with ``_``), reads and writes the whole tree.
Passwords are stored hashed as Mosquitto 2 hashes them (``$7$``: PBKDF2-HMAC-SHA512, 101
iterations, a 12-byte salt, as ``mosquitto_passwd`` writes them; Mosquitto's
``password_mosq.c``); a table's password is printed once, when it is made, and the hall's is
kept readable by root only in ``hall.secret`` beside the files. Mosquitto reads both files at
start and again on SIGHUP (``systemctl reload mosquitto``).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import grp
import hashlib
import os
import secrets
import sys
from pathlib import Path
from typing import Any, Final

from companion.hall.topics import ONLINE, ROOT, check_table_name

__all__ = ["HALL_USER", "Access", "add_parser", "hash_password"]

HALL_USER: Final = "_hall"
ITERATIONS: Final = 101
DEFAULT_DIR: Final = Path("/etc/mosquitto/village-hall")


def hash_password(password: str, salt: bytes | None = None) -> str:
    """Mosquitto 2's ``$7$`` hash of ``password``."""
    salt = salt if salt is not None else os.urandom(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, ITERATIONS)
    return f"$7${ITERATIONS}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def _write(path: Path, text: str, mode: int = 0o640) -> None:
    """Replace ``path`` at once (a reader never sees half a file); group ``mosquitto``
    when there is one."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.chmod(tmp, mode)
    with contextlib.suppress(KeyError, OSError):  # the broker's group may read it
        os.chown(tmp, -1, grp.getgrnam("mosquitto").gr_gid)
    os.replace(tmp, path)


class Access:
    """The broker's ``passwd`` and ``acl`` files (and ``hall.secret``) in ``folder`` (made if
    missing). Raises OSError when the folder cannot be written."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.passwd = self.folder / "passwd"
        self.acl = self.folder / "acl"
        self.secret = self.folder / "hall.secret"

    def users(self) -> dict[str, str]:
        """Every user and its hash, as the password file holds them."""
        if not self.passwd.exists():
            return {}
        out = {}
        for line in self.passwd.read_text(encoding="utf-8").splitlines():
            user, sep, hashed = line.partition(":")
            if sep:
                out[user] = hashed
        return out

    def hall_password(self) -> str:
        """The hall's own password, made (and its user added) the first time."""
        if self.secret.exists() and HALL_USER in self.users():
            return self.secret.read_text(encoding="utf-8").strip()
        password = secrets.token_urlsafe(18)
        self.folder.mkdir(parents=True, exist_ok=True)
        _write(self.secret, password + "\n", 0o600)
        self._save({**self.users(), HALL_USER: hash_password(password)})
        return password

    def add_table(self, name: str) -> str:
        """A new password for table ``name`` (replacing any it had); returns it. Raises
        ValueError for a name that cannot be a topic level."""
        check_table_name(name)
        self.hall_password()
        password = secrets.token_urlsafe(18)
        self._save({**self.users(), name: hash_password(password)})
        return password

    def remove_table(self, name: str) -> bool:
        """Take table ``name``'s credential away; whether it had one."""
        users = self.users()
        if name not in users or name == HALL_USER:
            return False
        del users[name]
        self._save(users)
        return True

    def _save(self, users: dict[str, str]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        _write(self.passwd, "".join(f"{u}:{h}\n" for u, h in sorted(users.items())))
        _write(self.acl, acl_text(sorted(u for u in users if u != HALL_USER)))


def acl_text(tables: list[str]) -> str:
    """Mosquitto's ACL file for the hall and ``tables``."""
    lines = ["# written by companion hall add-table: do not edit by hand", "",
             f"user {HALL_USER}", f"topic readwrite {ROOT}/#", ""]
    for t in tables:
        lines += [f"user {t}", f"topic write {ROOT}/{t}/events", f"topic write {ROOT}/{t}/state",
                  f"topic read {ROOT}/{t}/ack", f"topic read {ONLINE}", ""]
    return "\n".join(lines)


def add_parser(sub: Any) -> None:
    p = sub.add_parser("add-table", help="make a table's broker credential and ACL entry")
    p.add_argument("name", help="the table's name (its topic level and broker user)")
    p.add_argument("--dir", type=Path, default=DEFAULT_DIR,
                   help=f"where the broker's passwd and acl files are kept (default {DEFAULT_DIR})")
    p.add_argument("--broker", default="HALL-HOST",
                   help="the broker's host[:port] as the tables reach it (for the URL printed)")
    p.set_defaults(func=run_add_table)


def run_add_table(args: argparse.Namespace) -> int:
    """Print the table's URL with its new password; 2 for a bad name or a folder it cannot
    write."""
    try:
        password = Access(args.dir).add_table(args.name)
    except (ValueError, OSError) as exc:
        print(f"companion hall add-table: {exc}", file=sys.stderr)
        return 2
    print(f"table {args.name}: companion serve --hall-table {args.name} "
          f"--hall mqtt://{args.name}:{password}@{args.broker}")
    print(f"files: {args.dir / 'passwd'}, {args.dir / 'acl'} (reload the broker:"
          " systemctl reload mosquitto)")
    return 0
