"""Suite-wide: keep the box-check answers of the machine running the tests out of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_companion_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    home = tmp_path_factory.mktemp("companion-home")
    monkeypatch.setenv("VILLAGE_COMPANION_HOME", str(home))
    yield home
