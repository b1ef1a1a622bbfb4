"""The box's printed values in force: the base game's and its rule modules', shipped, with
the owner's box-check answers (the overlay) applied and checked.

Above the engine's core (`data` knows the base game only) and its modules: this is where
the two sets of values meet.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .data import (
    BoardData,
    BoardDataError,
    DataItem,
    from_values,
    schemas,
    shipped_items,
)
from .modules.module_data import module_of, schema_of
from .modules.module_data import shipped_items as module_items
from .modules.registry import validate
from .schema import SchemaError, check, expected


def _schema(key: str) -> dict[str, Any]:
    base = schemas()
    if key in base:
        return base[key]
    found = schema_of(key)
    if found is None:
        raise BoardDataError(f"no board value is called {key!r}")
    return found


def check_value(key: str, value: Any) -> None:
    """Raise `BoardDataError` unless ``value`` fits the schema of board value ``key`` (an
    unknown key too; a rule module's value, ``port.*``, ``goals.*``, too); the message says
    what is expected."""
    schema = _schema(key)
    try:
        check(schema, value, key)
    except BoardDataError:
        raise
    except SchemaError as exc:
        raise BoardDataError(str(exc)) from None


def expectation(key: str) -> str:
    """What board value ``key`` (a module's too) accepts, in words. Raises BoardDataError
    for an unknown key."""
    return expected(_schema(key))


def items_with_overlay(
    overlay: dict[str, Any] | None = None, modules: Iterable[str] = ()
) -> dict[str, DataItem]:
    """Shipped items, the base game's and those of ``modules`` (``port``, ``life_goals``),
    with the owner's confirmed values applied (those become verified). Answers for a module
    not asked for are left aside.

    Raises BoardDataError if the overlay names an unknown key or the result is malformed
    (BoardDataError too for an unknown module).
    """
    mods = list(dict.fromkeys(modules))
    items = shipped_items()
    for m in mods:
        items.update(module_items(m))
    for key, value in (overlay or {}).items():
        if key not in items:
            if module_of(key) is not None and schema_of(key) is not None:
                check_value(key, value)
                continue  # a module not asked for: kept, not used here
            raise BoardDataError(f"box check overlay names unknown value {key!r}")
        old = items[key]
        check_value(key, value)
        items[key] = DataItem(
            key,
            value,
            old.confidence,
            True,
            "box check by the owner",
            old.question,
            old.title,
            old.look,
            old.schema,
        )
    values = {k: i.value for k, i in items.items()}
    from_values({k: v for k, v in values.items() if module_of(k) is None})  # validate
    for m in mods:
        validate(m, values)
    return items


def module_values(
    overlay: dict[str, Any] | None, modules: Iterable[str]
) -> dict[str, Any]:
    """The printed values of ``modules`` (``port.*``, ``goals.*``): shipped, with the owner's
    answers applied. Raises BoardDataError as `items_with_overlay`."""
    items = items_with_overlay(overlay, modules)
    return {k: i.value for k, i in items.items() if module_of(k) is not None}


def load(overlay: dict[str, Any] | None = None) -> BoardData:
    """The board data in force: shipped values plus the owner's overlay (its answers for
    the modules' values are left aside)."""
    return from_values({k: i.value for k, i in items_with_overlay(overlay).items()})
