"""A module's printed values: one JSON file per module, items shaped as in ``board.json``.

A file is ``{"module": name, "items": {key: {value, confidence, verified, source,
question, ...}}}``. Keys carry the module's prefix (``port.``, ``goals.``), so a record
header can hold the base keys and the keys of the modules it switches on side by side.
"""

from __future__ import annotations

import copy
import functools
import json
from importlib import resources
from typing import Any

from ..data import BoardDataError, DataItem

FILES = {"port": "data/port.json", "life_goals": "data/life_goals.json"}
PREFIXES = {"port": "port.", "life_goals": "goals."}


@functools.cache
def _raw(module: str) -> dict[str, Any]:
    if module not in FILES:
        raise BoardDataError(f"no data file for module {module!r}; known: {sorted(FILES)}")
    pkg = __package__.rsplit(".", 1)[0]
    text = resources.files(pkg).joinpath(FILES[module]).read_text("utf-8")
    doc = json.loads(text)
    if doc.get("module") != module:
        raise BoardDataError(f"{FILES[module]} is not the data of module {module!r}")
    items: dict[str, Any] = doc["items"]
    bad = [k for k in items if not k.startswith(PREFIXES[module])]
    if bad:
        raise BoardDataError(
            f"{FILES[module]}: keys without the {PREFIXES[module]!r} prefix: {bad}"
        )
    return items


def shipped_items(module: str) -> dict[str, DataItem]:
    """The module's shipped items (a fresh copy each call). Raises BoardDataError for an
    unknown module or a malformed file."""
    return {
        key: DataItem(
            key,
            copy.deepcopy(v["value"]),
            v["confidence"],
            bool(v["verified"]),
            v["source"],
            v["question"],
            v["title"],
            v["look"],
            v["schema"],
        )
        for key, v in _raw(module).items()
    }


def shipped_values(module: str) -> dict[str, Any]:
    """Key → value of the module's shipped items."""
    return {k: i.value for k, i in shipped_items(module).items()}


def module_of(key: str) -> str | None:
    """The module whose prefix ``key`` carries (None: a base game key)."""
    return next((m for m, prefix in PREFIXES.items() if key.startswith(prefix)), None)


def schema_of(key: str) -> dict[str, Any] | None:
    """The schema of module value ``key`` (None: no module has that value)."""
    module = module_of(key)
    item = _raw(module).get(key) if module else None
    return None if item is None else dict(item["schema"])


def require_keys(module: str, values: dict[str, Any]) -> None:
    """Raise BoardDataError naming the module's keys missing from ``values``."""
    missing = sorted(set(_raw(module)) - set(values))
    if missing:
        raise BoardDataError(f"{module} data lacks {missing}")
