"""The shape of each board value, as written in ``data/board.json`` (``"schema"``).

A schema is JSON: ``{"type": ...}`` with

- ``integer``: ``min``, ``max`` (a whole number; true/false and 3.0 are not);
- ``choice``: ``options``, a list of ``{"value", "label"}``;
- ``text``: ``max_length``;
- ``list``: ``items`` (one schema), ``min_items``, ``max_items``;
- ``tuple``: ``items`` (one schema per position);
- ``object``: ``fields`` (name → schema), ``optional`` (names that may be left out); no
  other names are accepted;
- ``map``: free names (``keys``, a text schema) to ``values`` (one schema), ``min_items``,
  ``max_items``.

Any node may carry ``label``/``unit`` (words for a form). `check` raises `BoardDataError`
saying where the value is wrong and what is expected there.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["check", "expected"]


class SchemaError(ValueError):
    """A value does not fit its schema (base of the board data error, see `data`)."""


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def expected(schema: dict[str, Any]) -> str:
    """What ``schema`` accepts, in words (e.g. "a whole number from 4 to 40")."""
    kind = schema.get("type")
    if kind == "integer":
        return f"a whole number from {schema['min']} to {schema['max']}"
    if kind == "choice":
        return "one of " + ", ".join(_show(o["value"]) for o in schema["options"])
    if kind == "text":
        return f"a text of 1 to {schema['max_length']} characters"
    if kind == "list":
        low, high = schema["min_items"], schema["max_items"]
        count = f"{low}" if low == high else f"{low} to {high}"
        return f"a list of {count} items, each {expected(schema['items'])}"
    if kind == "tuple":
        return f"a list of exactly {len(schema['items'])} items"
    if kind == "object":
        names = list(schema["fields"])
        return "an object with " + ", ".join(names)
    if kind == "map":
        return f"an object of {schema['min_items']} to {schema['max_items']} named entries"
    raise SchemaError(f"unknown schema type {kind!r}")


def check(schema: dict[str, Any], value: Any, where: str) -> None:
    """Raise `SchemaError` (``"<where>: expected …, got …"``) unless ``value`` fits."""
    kind = schema.get("type")

    def fail() -> None:
        raise SchemaError(f"{where}: expected {expected(schema)}, got {_show(value)}")

    if kind == "integer":
        if not _is_int(value) or not schema["min"] <= value <= schema["max"]:
            fail()
    elif kind == "choice":
        if not any(type(o["value"]) is type(value) and o["value"] == value
                   for o in schema["options"]):
            fail()
    elif kind == "text":
        if not isinstance(value, str) or not 1 <= len(value) <= schema["max_length"]:
            fail()
    elif kind in ("list", "tuple"):
        if not isinstance(value, list):
            fail()
        if kind == "tuple":
            if len(value) != len(schema["items"]):
                fail()
            for n, (part, item) in enumerate(zip(schema["items"], value, strict=True)):
                check(part, item, f"{where}[{n}]")
            return
        if not schema["min_items"] <= len(value) <= schema["max_items"]:
            fail()
        for n, item in enumerate(value):
            check(schema["items"], item, f"{where}[{n}]")
    elif kind == "object":
        if not isinstance(value, dict):
            fail()
        fields: dict[str, Any] = schema["fields"]
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise SchemaError(f"{where}: unknown {', '.join(map(repr, unknown))}; "
                              f"expected {expected(schema)}")
        optional = set(schema.get("optional", ()))
        for name, part in fields.items():
            if name in value:
                check(part, value[name], f"{where}.{name}")
            elif name not in optional:
                raise SchemaError(f"{where}: {name!r} is missing; expected {expected(schema)}")
    elif kind == "map":
        if not isinstance(value, dict) or not (
            schema["min_items"] <= len(value) <= schema["max_items"]
        ):
            fail()
        for name, item in value.items():
            check(schema["keys"], name, f"{where} (a name)")
            check(schema["values"], item, f"{where}.{name}")
    else:
        raise SchemaError(f"{where}: unknown schema type {kind!r}")
