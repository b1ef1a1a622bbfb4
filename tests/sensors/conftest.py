"""Fixtures for the sensor tests: a real pcscd with vpcd's virtual readers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pcscdkit import MAIN, Pcscd, skip_reason


@pytest.fixture
def pcscd(tmp_path: Path) -> Iterator[Pcscd]:
    """A real ``pcscd --foreground`` serving "Virtual PCD 00 00" and "… 00 01" (35963/4);
    skips with the reason when not root, or pcscd, vpcd or pyscard are missing."""
    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    daemon = Pcscd(tmp_path)
    daemon.start(MAIN)
    yield daemon
    daemon.stop()
