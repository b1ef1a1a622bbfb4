"""Who may do what, and the parts a request reaches: the app's `Runtime` and its
`TableService`, the Bearer token, the one table-token check.

Anyone may read; every change needs the table token (``Authorization: Bearer <token>``, or
``?token=`` where a page needs it in a URL, such as an ``<img>``)."""

from __future__ import annotations

from flask import current_app, request

from companion.runtime import Runtime
from companion.table import TableService
from web.errors import ApiError

__all__ = ["bearer_token", "has_table_token", "require_table_token", "runtime", "service"]


def runtime() -> Runtime:
    """The app's `Runtime` (`web.create_app`)."""
    rt: Runtime = current_app.extensions["runtime"]
    return rt


def service() -> TableService:
    """The runtime's `TableService`."""
    return runtime().service


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, None without one."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def has_table_token(in_query: bool = False) -> bool:
    """Whether the request bears the table token (also as ``?token=`` with ``in_query``)."""
    token = (request.args.get("token") if in_query else None) or bearer_token()
    return service().is_table_token(token)


def require_table_token(
    in_query: bool = False,
    message: str = "this needs the table token: Authorization: Bearer …",
) -> None:
    """Raises ApiError 401 (``message``) unless the request bears the table token
    (`has_table_token`)."""
    if not has_table_token(in_query):
        raise ApiError(401, "unauthorized", message)
