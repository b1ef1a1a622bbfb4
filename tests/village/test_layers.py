"""The engine's layers, read from the code's imports (every import that runs, those inside
functions too; imports under ``if TYPE_CHECKING`` are for the type checker only): no
import cycle anywhere in the project's packages, the engine's core imports none of its
rule modules, and only the games registry names Village."""

from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "web", "vision")
ASSEMBLY = {"companion.village", "companion.village.game", "companion.village.record",
            "companion.village.box_values"}
"""The Village package's entry points, the ones allowed to name its modules."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _runtime_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    typing_only: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only |= {id(n) for n in ast.walk(node)}
    out: set[str] = set()
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                target = f"{base}.{alias.name}"
                out.add(target if target in known else base)
        elif isinstance(node, ast.Import):
            out |= {alias.name for alias in node.names}
    return {t for t in out if t in known and t != name}


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _runtime_imports(name, path, known) for name, path in known.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_runtime_import_cycle() -> None:
    assert _cycles(_graph()) == []


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
