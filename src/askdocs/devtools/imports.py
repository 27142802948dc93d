"""The package's import graph: ``python -m askdocs.devtools.imports`` prints, per module,
the askdocs modules it imports (at module level or inside functions, ``TYPE_CHECKING``
blocks aside), then every import cycle between modules and between top-level packages
(``askdocs.corpus`` standing for all of ``corpus/``); exit status 1 when there is one.

A package's ``__init__`` is the node ``askdocs.x``; ``from askdocs.x import y`` depends on
the module ``askdocs.x.y`` when there is one, else on ``askdocs.x``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, here: str, is_package: bool, known: set[str]) -> Iterator[str]:
    """``from pkg import submodule`` depends on the submodule only (a parent package is
    always set up before its submodules); ``from pkg import name`` on ``pkg`` itself."""
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, here, is_package)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in known else base


def _absolute(node: ast.ImportFrom, here: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    parts = here.split(".")
    keep = len(parts) - node.level + (1 if is_package else 0)
    return ".".join(parts[:keep] + ([node.module] if node.module else []))


def graph() -> Graph:
    known = modules()
    edges: Graph = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = _imports(tree, name, path.name == "__init__.py", set(known))
        edges[name] = {t for t in found if t in known and t != name}
    return edges


def packages(edges: Graph) -> Graph:
    """The graph between top-level packages and modules (``askdocs.x.y`` counts as
    ``askdocs.x``); imports inside one package are left out."""
    folded: Graph = {}
    for name, targets in edges.items():
        here = package_of(name)
        found = folded.setdefault(here, set())
        found.update(package_of(target) for target in targets)
        found.discard(here)
    return folded


def package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def cycles(edges: Graph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def main() -> int:
    edges = graph()
    for name in sorted(edges):
        print(f"{name} -> {', '.join(sorted(edges[name])) or '-'}")
    found = cycles(edges) + cycles(packages(edges))
    for component in found:
        print("CYCLE: " + " <-> ".join(component))
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, {len(found)} cycles")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
