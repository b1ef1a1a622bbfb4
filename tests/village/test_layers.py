"""The engine's layers, read from the code's imports (every import that runs, those inside
functions too; imports under ``if TYPE_CHECKING`` are for the type checker only): no
import cycle anywhere in the project's packages, the engine's core imports none of its
rule modules, and only the games registry names Village."""

from __future__ import annotations

from pathlib import Path

from companion.tools import layers

REPO = Path(__file__).resolve().parents[2]
ASSEMBLY = {"companion.village", "companion.village.game", "companion.village.record",
            "companion.village.box_values"}
"""The Village package's entry points, the ones allowed to name its modules."""


def _graph() -> dict[str, set[str]]:
    found = layers.modules(REPO)
    known = set(found)
    return {name: layers.imports(REPO, path, known) & known for name, path in found.items()}


def test_no_runtime_import_cycle() -> None:
    assert layers.cycles(_graph()) == []


def test_no_import_runs_from_a_lower_layer_to_a_higher_one() -> None:
    """The layers of `companion.tools.layers` (docs/architecture.md), rooms beside."""
    found = layers.report(REPO)
    assert found.wrong == [], "\n".join(found.lines())


def test_the_layer_check_sees_a_wrong_way_import(tmp_path: Path) -> None:
    """The check can fail: an engine module that imports the table service is caught."""
    for package in ("companion", "web", "vision"):
        (tmp_path / package).mkdir()
    (tmp_path / "companion" / "village").mkdir()
    (tmp_path / "companion" / "table").mkdir()
    (tmp_path / "companion" / "village" / "rule.py").write_text(
        "from companion.table.service import TableService\n")
    (tmp_path / "companion" / "table" / "service.py").write_text(
        "from companion.village import rule\n")
    found = layers.report(tmp_path)
    assert found.wrong == [("companion.village.rule", "companion.table.service")]
    assert found.loops == [["companion.table.service", "companion.village.rule"]]


def test_the_engine_core_imports_none_of_its_rule_modules() -> None:
    graph = _graph()
    core = [n for n in graph if n.startswith("companion.village")
            and not n.startswith("companion.village.modules") and n not in ASSEMBLY]
    assert core and {n: sorted(t for t in graph[n] if t.startswith("companion.village.modules"))
                     for n in core if any(t.startswith("companion.village.modules")
                                          for t in graph[n])} == {}


def test_the_table_imports_no_game_by_name() -> None:
    graph = _graph()
    table = [n for n in graph if n.startswith(("companion.table", "companion.games"))]
    named = {n: sorted(t for t in graph[n] if t.startswith("companion.village")) for n in table}
    assert {n: t for n, t in named.items() if t} == {}
    assert "companion.village" not in (REPO / "companion" / "bags.py").read_text("utf-8")
