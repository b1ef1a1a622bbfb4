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
# socket and vpcd's fixed TCP ports; a test that says "no pcscd here" must not run while
# another starts one) and the hall's PostgreSQL server (one per session).
_SHARED = {"pcscd": "pcscd", "postgres": "postgres", "dsn": "postgres"}
# files whose tests need the machine's pcscd stopped, or start one without the fixture
_PCSCD_FILES = ("tests/sensors/test_tags_cli.py", "tests/sensors/test_pcsc_pad_unit.py",
                "tests/sensors/test_runtime_pad.py", "tests/sensors/test_pcsc_pad.py",
                "tests/sensors/test_registry_page.py")
# the longest tests, one per setup or per game: spread one by one (their files' fixtures are
# cheap), else one worker would play them all while the other waits
_SPREAD = ("tests/reconcile/test_search_equivalence.py::test_same_decisions_on_whole_games",)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (on each worker)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        shared = sorted({_SHARED[f] for f in fixtures if f in _SHARED}
                        | ({"pcscd"} if item.nodeid.startswith(_PCSCD_FILES) else set()))
        if shared:
            group = "+".join(shared)
        elif item.nodeid.startswith(_SPREAD):
            group = item.nodeid
        else:
            group = item.nodeid.split("::")[0]
        item.add_marker(pytest.mark.xdist_group(group))
