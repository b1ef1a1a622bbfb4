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


# Parallel runs (pytest-xdist, `--dist loadgroup`, as scripts/test runs the suite): each test
# file goes to one worker whole, so a module's or a session's fixture (a firmware image in
# simavr, a rendered table, a database server) is built once, not once per worker. Tests that
# share one resource of the machine go to the same worker: the real pcscd (one daemon, its
# socket and vpcd's fixed TCP ports) and the hall's PostgreSQL server (one per session).
_SHARED = {"pcscd": "pcscd", "postgres": "postgres", "dsn": "postgres"}
# the longest tests, one per setup or per game: spread one by one (their files' fixtures are
# cheap), else one worker would play them all while the other waits
_SPREAD = ("tests/reconcile/test_search_equivalence.py::test_same_decisions_on_whole_games",)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        shared = sorted({_SHARED[f] for f in fixtures if f in _SHARED})
        if shared:
            group = "+".join(shared)
        elif item.nodeid.startswith(_SPREAD):
            group = item.nodeid
        else:
            group = item.nodeid.split("::")[0]
        item.add_marker(pytest.mark.xdist_group(group))
