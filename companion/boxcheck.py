"""The box check: the owner confirms or corrects each unverified printed value once.

Answers are stored as an overlay file (JSON: key → value) used by every later game. Its
place: ``--overlay``, else ``$VILLAGE_COMPANION_HOME/boxcheck.json``, else
``~/.config/village-companion/boxcheck.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, TextIO

from companion.village.data import BoardDataError, check_value, expectation, items_with_overlay


def overlay_path(override: str | None = None) -> Path:
    if override:
        return Path(override)
    home = os.environ.get("VILLAGE_COMPANION_HOME")
    base = Path(home) if home else Path.home() / ".config" / "village-companion"
    return base / "boxcheck.json"


def load_overlay(path: Path) -> dict[str, Any]:
    """The saved answers ({} when none). Raises BoardDataError if the file is unreadable."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardDataError(f"cannot read box check answers {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise BoardDataError(f"{path}: expected a JSON object")
    return data


def load_overlay_lenient(path: Path) -> tuple[dict[str, Any], list[str]]:
    """The saved answers that can be used, and a sentence for each that cannot (an
    unreadable file, an unknown key, a value of the wrong shape): a bad answer file never
    stops the table, it falls back to the shipped values for what it cannot use."""
    try:
        raw = load_overlay(path)
    except BoardDataError as exc:
        return {}, [str(exc)]
    overlay: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in raw.items():
        try:
            check_value(key, value)
            items_with_overlay({**overlay, key: value})
        except BoardDataError as exc:
            problems.append(f"the saved answer for {key} is not used: {exc}")
            continue
        overlay[key] = value
    return overlay, problems


def save_overlay(path: Path, overlay: dict[str, Any]) -> None:
    """Write the answers atomically (validated first).

    Raises:
        BoardDataError: a bad answer. companion.store.StorageUnavailable (StorageFull,
        StorageReadOnly): the file cannot be written; the previous answers are kept.
    """
    items_with_overlay(overlay)
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".boxcheck-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(overlay, f, indent=1, ensure_ascii=False)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        from companion.store import StorageUnavailable, storage_error

        error = storage_error(path, exc)
        assert isinstance(error, StorageUnavailable)
        raise error from exc


def set_answer(overlay: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    """A new overlay with ``key`` answered; raises BoardDataError if key or value is bad."""
    new = dict(overlay)
    new[key] = value
    items_with_overlay(new)
    return new


def status(overlay: dict[str, Any]) -> list[dict[str, Any]]:
    """Every value with its confidence, source, question and whether it is verified."""
    return [
        {
            "key": i.key,
            "value": i.value,
            "confidence": i.confidence,
            "verified": i.verified,
            "source": i.source,
            "question": i.question,
            "title": i.title,
            "look": i.look,
            "expected": expectation(i.key),
            "schema": i.schema,
        }
        for i in items_with_overlay(overlay).values()
    ]


def interactive(path: Path, stdin: TextIO, stdout: TextIO) -> int:
    """Ask about each unverified value: Enter keeps it unverified, ``y`` confirms it as
    shown, any JSON corrects it, ``q`` stops. Saves after each answer."""
    overlay = load_overlay(path)
    todo = [s for s in status(overlay) if not s["verified"]]
    stdout.write(f"{len(todo)} value(s) to check against your box. Answers go to {path}\n")
    for item in todo:
        where = f"[{item['key']}] ({item['confidence']}; {item['source']})"
        stdout.write(f"\n{item['title']} {where}\n")
        stdout.write(f"{item['look']}\n  shipped: {json.dumps(item['value'])}\n")
        stdout.write(f"  expected: {item['expected']}\n")
        while True:
            stdout.write(
                "  y = as printed, Enter = skip, q = quit, or type the right value (JSON): "
            )
            stdout.flush()
            line = stdin.readline()
            answer = line.strip()
            if not line or answer == "q":
                return 0
            if not answer:
                break
            try:
                value = item["value"] if answer == "y" else json.loads(answer)
                overlay = set_answer(overlay, item["key"], value)
            except (json.JSONDecodeError, BoardDataError) as exc:
                stdout.write(f"  not accepted: {exc}\n")
                continue
            save_overlay(path, overlay)
            stdout.write("  saved.\n")
            break
    return 0
