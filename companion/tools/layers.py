"""The layers of the code, read from its imports: ``python -m companion.tools.layers``.

Each package of the product sits on a layer (`LAYERS`, lowest first); a module may import
from its own layer's packages and from lower layers, never from a higher one. The rooms
beside the product (simulators, demos, benchmarks, tools) may import any product layer;
nothing in the product imports them, except the composition root (`companion.runtime`),
which picks the demo to run. Imports under ``if TYPE_CHECKING:`` are not counted (they do
not run).

Prints the layers, each package's imports of other packages, and every import that runs
the wrong way, and every import cycle between modules; exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Final

__all__ = ["LAYERS", "ROOMS", "Report", "cycles", "imports", "package_of", "report"]

LAYERS: Final[tuple[tuple[str, ...], ...]] = (
    ("vision", "companion.paths", "companion.addresses", "companion.settings",
     "companion.collector"),
    ("companion.games", "companion.store"),
    ("companion.village", "companion.crecy", "companion.colonia", "companion.bags"),
    ("companion.boxcheck", "companion.table", "companion.reconcile"),
    ("companion.sensors", "companion.hall"),
    ("companion.runtime",),
    ("web",),
    ("companion.serve", "companion.camera_cli", "companion.cli", "companion.hall.cli"),
)
"""The product's packages, lowest layer first."""

ROOMS: Final[tuple[str, ...]] = ("companion.sim", "companion.demo", "companion.bench",
                                 "companion.tools", "companion.hall.bench")
"""Beside the product: they may import it; only the composition root imports a room
(`companion.runtime` → `companion.demo`), and the command line (`companion.cli`) runs them."""

ROOTS: Final = ("companion", "web", "vision")


def module_name(root: Path, path: Path) -> str:
    """``companion/table/service.py`` → ``companion.table.service``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            out.update(id(sub) for sub in ast.walk(node))
    return out


def imports(root: Path, path: Path, known: set[str]) -> set[str]:
    """The project modules ``path`` imports when it runs (relative imports resolved;
    ``from pkg import name`` is ``pkg.name`` when that is a module)."""
    me = module_name(root, path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".")
                if path.name != "__init__.py":
                    base = base[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            subs = {f"{target}.{a.name}" for a in node.names} & known
            out.update(subs or {target})
    return {m for m in out if m.split(".")[0] in ROOTS and m != me}


def package_of(module: str) -> str:
    """The layer table's name for ``module``: its longest prefix named in `LAYERS` or
    `ROOMS` (``companion.table.service`` → ``companion.table``)."""
    names = [p for layer in LAYERS for p in layer] + list(ROOMS)
    best = max((p for p in names if module == p or module.startswith(p + ".")), key=len,
               default=None)
    if best is None:
        return module if module.count(".") < 1 else ".".join(module.split(".")[:2])
    return best


def modules(root: Path) -> dict[str, Path]:
    """Every module of the three packages, by name."""
    out: dict[str, Path] = {}
    for top in ROOTS:
        for path in sorted((root / top).rglob("*.py")):
            out[module_name(root, path)] = path
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


class Report:
    """What `report` found: the package graph, wrong-way imports and module cycles."""

    def __init__(self, packages: dict[str, set[str]], wrong: list[tuple[str, str]],
                 loops: list[list[str]]) -> None:
        self.packages = packages
        self.wrong = wrong
        self.loops = loops

    @property
    def clean(self) -> bool:
        return not self.wrong and not self.loops

    def lines(self) -> Iterable[str]:
        yield "Layers, lowest first (a package imports its own layer and those below):"
        for n, layer in enumerate(LAYERS, 1):
            yield f"  {n}. " + ", ".join(layer)
        yield "Beside the product: " + ", ".join(ROOMS)
        yield ""
        for package in sorted(self.packages):
            targets = sorted(self.packages[package])
            yield f"{package} -> {', '.join(targets) if targets else '(nothing)'}"
        yield ""
        for source, target in self.wrong:
            yield f"WRONG WAY: {source} imports {target}"
        for loop in self.loops:
            yield "CYCLE: " + " <-> ".join(loop)
        if self.clean:
            yield "No import runs the wrong way; no import cycle runs."


def _rank(package: str) -> int | None:
    for n, layer in enumerate(LAYERS):
        if package in layer:
            return n
    return None


def _allowed(source: str, target: str) -> bool:
    src, tgt = package_of(source), package_of(target)
    if src == tgt or src in ROOMS:
        return True
    if tgt in ROOMS:
        return (src == "companion.runtime" and tgt == "companion.demo") or src == "companion.cli"
    a, b = _rank(src), _rank(tgt)
    if a is None or b is None:
        return False
    return b <= a


def report(root: Path) -> Report:
    """Read every module under ``root`` and judge its imports (see the module docstring)."""
    found = modules(root)
    known = set(found)
    graph = {name: imports(root, path, known) & known for name, path in found.items()}
    # a package imports its own ``__init__`` chain implicitly: not an edge of its own
    packages: dict[str, set[str]] = defaultdict(set)
    wrong: list[tuple[str, str]] = []
    for source, targets in sorted(graph.items()):
        for target in sorted(targets):
            if package_of(source) != package_of(target):
                packages[package_of(source)].add(package_of(target))
            if not _allowed(source, target):
                wrong.append((source, target))
        packages.setdefault(package_of(source), set())
    return Report(dict(packages), wrong, cycles(graph))


def main(argv: list[str] | None = None) -> int:
    """Print the report; 1 when an import runs the wrong way or a cycle runs."""
    parser = argparse.ArgumentParser(prog="python -m companion.tools.layers",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[2])
    args = parser.parse_args(argv)
    found = report(args.root)
    for line in found.lines():
        print(line)
    return 0 if found.clean else 1


if __name__ == "__main__":
    sys.exit(main())
