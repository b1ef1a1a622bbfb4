"""Fixtures for the service tests (defined in ``servicekit.py``, a uniquely named module,
so test files can import its helpers whatever other ``conftest`` is loaded)."""

from servicekit import app, client, db_path, game, server_factory, service

__all__ = ["app", "client", "db_path", "game", "server_factory", "service"]
