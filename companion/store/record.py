"""Game records: JSON Lines text, a header object then one action object per line.

The format, line by line::

    {"game": "village", "version": 1, "players": [...]}     <- line 1: the header
    {"type": "...", ...}                                   <- line 2: the first action
    ...                                                    <- one action per line

Each line is one compact JSON object (no spaces after separators, UTF-8, no escaping of
non-ASCII), lines end with ``\\n``, the last one too. The header must have a ``"game"`` key
naming the game (a non-empty string). Readers are lenient in three harmless ways: a
leading byte-order mark, ``\\r\\n`` line ends and blank lines are accepted.

These helpers are pure (text in, objects out); `EventStore.export_record` and
`EventStore.import_record` use them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from companion.store.errors import RecordError

JSONObject = dict[str, Any]
"""A JSON object as Python sees it: the header, an action, an event payload."""

__all__ = ["JSONObject", "check_header", "dumps_compact", "format_record", "parse_record"]


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def dumps_compact(obj: Any) -> str:
    """Serialise ``obj`` as one line of compact JSON, as records and the event log store it.

    Raises:
        TypeError: ``obj`` holds something JSON cannot represent (a set, bytes, an object…).
        ValueError: ``obj`` holds NaN or an infinity, refers to itself, or holds a string that
            is not valid Unicode text (a lone surrogate).
    """
    text = json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"not valid Unicode text: {exc.reason}") from None
    return text


def check_header(header: object) -> str | None:
    """Return why ``header`` is not a valid record header, or None if it is."""
    if not isinstance(header, dict):
        return f"the header must be a JSON object, not {_json_type(header)}"
    game = header.get("game")
    if "game" not in header:
        return 'the header has no "game" key (e.g. {"game": "village", ...})'
    if not isinstance(game, str) or not game:
        return f'the header\'s "game" must be a non-empty string, not {game!r}'
    return None


def parse_record(text: str) -> tuple[JSONObject, list[JSONObject]]:
    """Read a game record: return ``(header, actions)``.

    Raises:
        RecordError: the text is empty; a line is not valid JSON or not a JSON object; the
            header has no ``"game"`` key. The error's ``line`` says where.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    header: JSONObject | None = None
    actions: list[JSONObject] = []
    # Split on "\n" only: str.splitlines() would also split on U+2028 and friends, which
    # compact JSON leaves unescaped inside strings.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line, parse_constant=_reject_constant)
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            detail = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
            raise RecordError(number, f"not valid JSON ({detail})") from None
        if header is None:
            problem = check_header(value)
            if problem is not None:
                raise RecordError(number, problem)
            header = value
        elif isinstance(value, dict):
            actions.append(value)
        else:
            raise RecordError(number, f"an action must be a JSON object, not {_json_type(value)}")
    if header is None:
        raise RecordError(1, "the record is empty (expected a header line)")
    return header, actions


def format_record(header: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> str:
    """Write a game record: the header line, then one line per action, each ending in ``\\n``.

    Raises:
        RecordError: the header is not an object with a ``"game"`` string, or an action is not
            an object or holds something JSON cannot represent; ``line`` is the line it would
            have been written on.
    """
    problem = check_header(dict(header) if isinstance(header, Mapping) else header)
    if problem is not None:
        raise RecordError(1, problem)
    lines = [_dump_line(1, dict(header))]
    for number, action in enumerate(actions, start=2):
        if not isinstance(action, Mapping):
            raise RecordError(number, f"an action must be a JSON object, not {_json_type(action)}")
        lines.append(_dump_line(number, dict(action)))
    return "\n".join(lines) + "\n"


def _dump_line(number: int, obj: JSONObject) -> str:
    try:
        return dumps_compact(obj)
    except (TypeError, ValueError) as exc:
        raise RecordError(number, f"cannot be written as JSON ({exc})") from None


def _json_type(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list | tuple):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if value is None:
        return "null"
    return type(value).__name__
