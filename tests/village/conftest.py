"""Fixtures for the rules tests (helpers live in ``scenarios.py``)."""

from __future__ import annotations

import pytest
from scenarios import started

from companion.village.state import GameState
from companion.village.vocabulary import Color


@pytest.fixture
def three() -> GameState:
    """Jérôme (blue), Aurélie (yellow), Philippe (red): the rulebook's three players."""
    return started([Color.BLUE.value, Color.YELLOW.value, Color.RED.value])
