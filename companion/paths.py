"""Where the companion keeps its files on the host, in one place.

- the games database (and beside it ``<db>.token``, ``<db>.zones.json``,
  ``<db>.camera.json``): `DEFAULT_DB`, or `DEMO_DB` for ``companion serve --demo``;
- the owner's box-check answers: `config_dir()` / ``boxcheck.json``
  (``$VILLAGE_COMPANION_HOME`` overrides the folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

__all__ = ["DATA_DIR", "DEFAULT_DB", "DEMO_DB", "config_dir"]

DATA_DIR: Final = Path("~/.local/share/village-companion")
"""The databases' folder (``~`` not yet expanded)."""
DEFAULT_DB: Final = DATA_DIR / "games.sqlite3"
"""The games database."""
DEMO_DB: Final = DATA_DIR / "demo.sqlite3"
"""The demo's database (``companion serve --demo``), apart from the real games."""


def config_dir() -> Path:
    """The owner's settings folder: ``$VILLAGE_COMPANION_HOME``, else
    ``~/.config/village-companion``."""
    home = os.environ.get("VILLAGE_COMPANION_HOME")
    return Path(home) if home else Path.home() / ".config" / "village-companion"
