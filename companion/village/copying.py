"""A state's copy, generated from its dataclass fields (`with_clone`).

The engine never changes a state it was given: ``apply`` clones it and changes the clone,
so ``clone()`` runs once per action, and the reconciler's search clones far more often.
Each field says in its metadata how it is copied; the copy is then one generated function
(object created without ``__init__``, each slot set), and a mutable field that says
nothing stops the import instead of being shared by mistake.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_HOW = {
    "share": "{v}",
    "copy": "{v}.copy()",
    "copy_or_none": "None if {v} is None else {v}.copy()",
    "copy_values": "{{k: x.copy() for k, x in {v}.items()}}",
    "clone": "None if {v} is None else {v}.clone()",
    "clone_values": "{{k: x.clone() for k, x in {v}.items()}}",
    "fresh_set": "set()",
    "own_players": "set(new.p)",
}
SHARE = {"copy": "share"}
"""Shared by the copies: immutable, or replaced whole by the engine, never changed in place."""
COPY = {"copy": "copy"}
"""A dict, list or set of immutable values: copied."""
COPY_OR_NONE = {"copy": "copy_or_none"}
COPY_VALUES = {"copy": "copy_values"}
"""A dict of dicts, lists or sets: each value copied."""
COPY_ON_WRITE = {"copy": "copy"}
"""A dict whose values (dicts, lists, objects) the engine replaces whole and never changes
in place: the dict copied, its values shared by the copies until one of them replaces its
own."""
OWNED = {"copy": "own_players", "derive": "fresh_set"}
"""What a state has made its own (copy on write): every player in a ``clone()``, whose
players are its own copies; nothing in a ``derive()``, and nothing in the original then,
which shares its players with it."""
ON_WRITE_VALUES = {"copy": "clone_values", "derive": "copy"}
"""A dict of objects with their own ``clone()``: each cloned by ``clone()`` (a copy to
change by hand); shared by ``derive()``, the engine's copy, which clones one only before
changing it (copy on write)."""
CLONE = {"copy": "clone"}
"""An object with its own ``clone()``, or None."""
CLONE_VALUES = {"copy": "clone_values"}
"""A dict of objects with their own ``clone()``."""

_MUTABLE = re.compile(r"\b(dict|list|set)\[")


def clone_function(cls: type[T], kind: str = "copy") -> Callable[[T], T]:
    """The generated copy of a dataclass's instances (``kind`` "derive": the engine's copy,
    each field as its ``derive`` metadata says, else as ``copy`` says). Raises TypeError
    naming a field whose annotation is a dict, list or set and whose metadata does not say
    how it is copied."""
    lines = ["def clone(self):", "    new = _new(_cls)"]
    for f in fields(cls):  # type: ignore[arg-type]
        how = f.metadata.get(kind, f.metadata.get("copy"))
        if how is None:
            if _MUTABLE.search(str(f.type)):
                raise TypeError(f"{cls.__name__}.{f.name} is mutable: say how it is copied")
            how = "share"
        lines.append(f"    new.{f.name} = " + _HOW[how].format(v=f"self.{f.name}"))
        if how == "fresh_set":  # the original's too: what both share, neither owns now
            lines.append(f"    self.{f.name} = set()")
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    exec("\n".join(lines), namespace)
    clone: Callable[[T], T] = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.{'clone' if kind == 'copy' else kind}"
    clone.__doc__ = "A copy sharing nothing mutable (generated from the fields)."
    return clone


def with_clone(cls: type[T]) -> type[T]:
    """Class decorator (above ``@dataclass``): set ``cls.clone`` to `clone_function`, and
    ``cls.derive`` too when a field says how the engine's copy differs."""
    cls.clone = clone_function(cls)  # type: ignore[attr-defined]
    if any("derive" in f.metadata for f in fields(cls)):  # type: ignore[arg-type]
        cls.derive = clone_function(cls, "derive")  # type: ignore[attr-defined]
    return cls
