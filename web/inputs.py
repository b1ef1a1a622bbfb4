"""The one way the web layer reads what a request sends: a JSON body, its fields, query
integers. Each refusal is an `ApiError` 400 that says what was expected."""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import request

from web.errors import ApiError

__all__ = ["int_arg", "json_body", "json_object", "no_body", "only"]


def _reject_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not valid JSON")


def json_body() -> Any:
    """The request body parsed as JSON (NaN and Infinity refused). Raises ApiError 400."""
    raw = request.get_data(cache=True)
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise ApiError(400, "bad_json", f"the body is not JSON: {exc}") from None


def json_object() -> dict[str, Any]:
    """The body as a JSON object. Raises ApiError 400 (not JSON, or not an object)."""
    body = json_body()
    if not isinstance(body, dict):
        raise ApiError(400, "malformed", f"expected a JSON object, got {type(body).__name__}")
    return body


def only(body: dict[str, Any], allowed: frozenset[str] | set[str], what: str) -> None:
    """Raises ApiError 400 ``unknown_fields`` for a body with fields other than
    ``allowed``, naming them and what is accepted."""
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        names = ", ".join(repr(k) for k in unknown)
        accepted = ", ".join(repr(k) for k in sorted(allowed)) or "no fields"
        raise ApiError(400, "unknown_fields", f"{what} does not take {names}; it takes {accepted}")


def no_body(what: str) -> None:
    """Refuse a body on an endpoint that takes none (an empty body or ``{}`` is fine).
    Raises ApiError 400."""
    raw = request.get_data(cache=True)
    if raw.strip():
        only(json_object(), frozenset(), what)


def int_arg(name: str, header: str | None = None) -> int | None:
    """The query parameter ``name`` (else the header ``header``) as a 64-bit integer; None
    when absent or empty. Raises ApiError 400 ``bad_parameter``."""
    text = request.args.get(name)
    label = name
    if (text is None or not text.strip()) and header is not None:
        text, label = request.headers.get(header), header
    if text is None or not text.strip():
        return None
    try:
        value = int(text.strip())
    except ValueError:
        raise ApiError(400, "bad_parameter",
                       f"{label} must be an integer, not {text[:40]!r}") from None
    if not -(2**63) <= value < 2**63:
        raise ApiError(400, "bad_parameter", f"{label} is out of range")
    return value
