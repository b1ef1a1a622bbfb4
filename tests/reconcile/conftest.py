"""Shared helpers: real engine states taken from seeded random games."""

from __future__ import annotations

from typing import Any

import pytest
from reconcile_kit import game_states

from companion import village as v


@pytest.fixture(scope="session")
def situations() -> dict[str, list[tuple[v.GameState, dict[str, Any]]]]:
    """Up to 6 situations per action type, from a few seeded games."""
    by_type: dict[str, list[tuple[v.GameState, dict[str, Any]]]] = {}
    for seed in range(1, 6):
        for st, a in game_states(seed):
            got = by_type.setdefault(a["type"], [])
            if len(got) < 6:
                got.append((st, a))
    return by_type
