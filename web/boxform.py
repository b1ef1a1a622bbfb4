"""The box-check form: each board value as fields an owner fills with the component in hand.

`form_node` turns a value's schema (``board.json``, see `companion.village.schema`) and its
value in force into a tree the ``boxcheck.html`` template draws: a number field per whole
number, a choice per choice, groups and rows for objects, lists and tuples. Names (cities,
tile ids) are shown, not edited. Each field carries its place in the value (``path``, JSON),
so ``boxcheck.js`` rebuilds the value from the fields; nobody types JSON.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion.boxcheck import BOXES
from companion.village.data import DataItem
from companion.village.modules.module_data import module_of

BOX_NAMES = {"": "Village", **BOXES}
"""The boxes as the new-game page names them (the name printed on each box)."""

__all__ = ["BOX_NAMES", "CONFIDENCE_WORDS", "form_node", "form_rows", "source_words"]

BOOKS = {"000": "the Descendance rulebook", "003": "the Le Port rulebook"}
_SEED = re.compile(r"seed (\d{3})(?: \([^)]*\))?")
_RULE_CODES = re.compile(r" ?\((?:[A-Z]{2}\d+[a-z]?(?:[–-][A-Z]{0,2}\d+)?(?:, )?)+\)")
_KEY = re.compile(r"\b[a-z_]+(?:\.[a-z0-9_{}]+)+\b")


def source_words(source: str, titles: dict[str, str]) -> str:
    """Where a value comes from, for people: a rulebook by its name (not "seed 000"),
    another value by its title (not its data key), without the design notes' rule codes."""
    text = _SEED.sub(lambda m: BOOKS.get(m.group(1), "a rulebook"), source)
    text = _RULE_CODES.sub("", text)
    return _KEY.sub(lambda m: titles.get(m.group(0), "another value").lower(), text)

CONFIDENCE_WORDS = {
    "unknown": "a guess",
    "low": "a guess from one outside source",
    "medium": "worked out from a rulebook example",
    "high": "from the rulebook",
}


def _label(schema: dict[str, Any], fallback: str) -> str:
    return str(schema.get("label") or fallback)


def _choice(schema: dict[str, Any], value: Any, path: list[Any], label: str) -> dict[str, Any]:
    return {
        "kind": "choice",
        "label": label,
        "path": json.dumps(path),
        "options": [
            {
                "json": json.dumps(o["value"]),
                "label": o["label"],
                "selected": type(o["value"]) is type(value) and o["value"] == value,
            }
            for o in schema["options"]
        ],
    }


def _number(
    schema: dict[str, Any], value: Any, path: list[Any], label: str, optional: bool = False
) -> dict[str, Any]:
    return {
        "kind": "number",
        "label": label,
        "unit": schema.get("unit", ""),
        "path": json.dumps(path),
        "value": value if isinstance(value, int) else (0 if optional else schema["min"]),
        "min": 0 if optional else schema["min"],
        "max": schema["max"],
        "optional": optional,
    }


def form_node(
    schema: dict[str, Any], value: Any, path: list[Any], label: str, optional: bool = False
) -> dict[str, Any]:
    """The form tree of ``value`` (shaped by ``schema``) at ``path``, titled ``label``."""
    kind = schema["type"]
    if kind == "integer":
        return _number(schema, value, path, label, optional)
    if kind == "choice":
        return _choice(schema, value, path, label)
    if kind == "text":
        return {"kind": "name", "label": label, "text": str(value)}
    if kind == "object":
        fields: dict[str, Any] = schema["fields"]
        optional_names = set(schema.get("optional", ()))
        present = value if isinstance(value, dict) else {}
        children = [
            form_node(part, present.get(name), [*path, name], _label(part, name),
                      name in optional_names)
            for name, part in fields.items()
            if part["type"] != "text"  # ids are not edited
        ]
        return {"kind": "group", "label": label, "children": children}
    if kind == "map":
        present = value if isinstance(value, dict) else {}
        values: dict[str, Any] = schema["values"]
        only = list(values.get("fields", {}).items()) if values["type"] == "object" else []
        if len(only) == 1:  # one field per name (a city's reward): one field, named after it
            field_name, part = only[0]
            children = [
                form_node(part, (item or {}).get(field_name), [*path, name, field_name],
                          f"{name}: {_label(part, field_name)}")
                for name, item in present.items()
            ]
        else:
            children = [
                form_node(values, item, [*path, name], name) for name, item in present.items()
            ]
        return {"kind": "group", "label": label, "children": children}
    if kind == "tuple":
        items = value if isinstance(value, list) else []
        children = [
            form_node(part, item, [*path, n], _label(part, ""))
            for n, (part, item) in enumerate(zip(schema["items"], items, strict=False))
        ]
        names = [c["text"] for c in children if c["kind"] == "name"]
        fields_ = [c for c in children if c["kind"] != "name"]
        return {"kind": "row", "label": " – ".join(names) or label, "children": fields_}
    if kind == "list":
        items = value if isinstance(value, list) else []
        item_schema: dict[str, Any] = schema["items"]
        labels: list[str] = schema.get("item_labels") or []
        base = schema.get("item_label", "")
        children = [
            form_node(item_schema, item, [*path, n],
                      labels[n] if n < len(labels) else f"{base} {n + 1}".strip())
            for n, item in enumerate(items)
        ]
        simple = item_schema["type"] in ("integer", "choice")
        resizable = simple and schema["min_items"] != schema["max_items"]
        return {
            "kind": "list",
            "label": label,
            "path": json.dumps(path),
            "children": children,
            "resizable": resizable,
            "min": schema["min_items"],
            "max": schema["max_items"],
            "item_label": base,
        }
    raise ValueError(f"no form for schema type {kind!r}")


def form_rows(items: dict[str, DataItem]) -> list[dict[str, Any]]:
    """One form per board value, box by box; in a box unverified first, least confident
    first. ``box`` names the value's box, ``source`` says where it comes from in words."""
    order = {"unknown": 0, "low": 1, "medium": 2, "high": 3}
    titles = {i.key: i.title for i in items.values()}
    rows = [
        {
            "key": i.key,
            "title": i.title,
            "look": i.look,
            "verified": i.verified,
            "confidence": i.confidence,
            "confidence_words": "checked by you" if i.source == "box check by the owner"
            else ("from the rulebook" if i.verified else CONFIDENCE_WORDS.get(i.confidence, "")),
            "source": source_words(i.source, titles),
            "value": json.dumps(i.value, ensure_ascii=False),
            "form": form_node(i.schema or {}, i.value, [], ""),
            "place": n,
            "box": BOX_NAMES.get(module_of(i.key) or "", "Village"),
        }
        for n, i in enumerate(items.values())
    ]
    # the board file's order within a confidence: setup cards, board, tiles, scoring
    # box by box (Village, Le Port, Objectifs de vie), then within a box as above
    boxes = list(BOX_NAMES.values())
    rows.sort(
        key=lambda r: (
            boxes.index(str(r["box"])),
            r["verified"],
            order.get(str(r["confidence"]), 0),
            r["place"],
        )
    )
    return rows
