"""Finds references from a test module to paths outside the repository (pure AST checks).

Three rules, each independent of what exists on the machine running the tests:

* a ``Path(__file__)`` chain (``.parent`` repeated, ``.parents[n]``) must stay inside the
  repository, given where the module lives;
* a name bound to the repository root (``REPO = Path(__file__)...``) never takes ``.parent``;
* no string names the out-of-tree corpora (``../shared``, ``shared/corpora``, ``shared/eval``)
  or an absolute path under the folder that holds the repository.

Absolute system paths (``/etc/passwd`` as a traversal payload, ``/usr/bin``) and relative
traversal payloads (``../x``) are data, not reads, and are allowed.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

SHARED = re.compile(r"(^|[/\\])\.\.[/\\]shared\b|\bshared[/\\](corpora|eval)\b")


@dataclass(frozen=True)
class Finding:
    line: int
    what: str


def outside_references(source: str, depth: int, parent_dir: str | None = None) -> list[Finding]:
    """Findings for a module at ``depth`` folders below the repository root.

    ``parent_dir`` is the folder holding the repository (absolute strings under it are
    flagged); None skips that rule.
    """
    tree = ast.parse(source)
    roots = _repo_root_names(tree, depth)
    docstrings = {id(s.value) for s in ast.walk(tree) if _is_docstring(s)}
    findings: list[Finding] = []
    for node in ast.walk(tree):
        if id(node) in docstrings:
            continue
        findings.extend(_check_node(node, depth, roots, parent_dir))
    return sorted(set(findings), key=lambda f: (f.line, f.what))


def _check_node(
    node: ast.AST, depth: int, roots: set[str], parent_dir: str | None
) -> list[Finding]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _check_string(node, parent_dir)
    if isinstance(node, ast.Attribute | ast.Subscript):
        climbed = _file_climb(node)
        if climbed is not None and climbed > depth:
            return [Finding(node.lineno, f"Path(__file__) climbs {climbed} folders (max {depth})")]
        if _climbs_root(node, roots):
            return [Finding(node.lineno, "the repository root's parent")]
    return []


def _check_string(node: ast.Constant, parent_dir: str | None) -> list[Finding]:
    text = str(node.value)
    if SHARED.search(text):
        return [Finding(node.lineno, f"out-of-tree corpus path {text[:60]!r}")]
    if parent_dir and text.startswith(parent_dir.rstrip("/") + "/"):
        return [Finding(node.lineno, f"absolute path outside the repository {text[:60]!r}")]
    return []


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _file_climb(node: ast.AST) -> int | None:
    """How many folders above ``__file__`` a ``Path(__file__)...`` chain points at, or None.

    ``Path(__file__).parent`` is the module's own folder (0 climbs above it).
    """
    parents = 0
    current = node
    while True:
        if isinstance(current, ast.Attribute) and current.attr == "parent":
            parents += 1
            current = current.value
        elif isinstance(current, ast.Subscript) and _is_parents(current.value):
            index = current.slice
            if not (isinstance(index, ast.Constant) and isinstance(index.value, int)):
                return None
            parents += index.value + 1
            current = current.value.value  # type: ignore[attr-defined]
        elif isinstance(current, ast.Call) and _is_resolve(current):
            current = current.func.value  # type: ignore[attr-defined]
        elif _is_path_of_file(current):
            return parents - 1 if parents else None
        else:
            return None


def _is_parents(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "parents"


def _is_resolve(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and node.func.attr in {"resolve", "absolute"}


def _is_path_of_file(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Path"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "__file__"
    )


def _repo_root_names(tree: ast.Module, depth: int) -> set[str]:
    """Module-level names bound to the repository root, plus the conventional ``REPO``."""
    names = {"REPO"}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and _file_climb(statement.value) == depth:
            names |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
    return names


def _climbs_root(node: ast.AST, roots: set[str]) -> bool:
    target = node.value if isinstance(node, ast.Subscript) else node
    return (
        isinstance(target, ast.Attribute)
        and target.attr in {"parent", "parents"}
        and isinstance(target.value, ast.Name)
        and target.value.id in roots
    )


def module_depth(path: Path, repo: Path) -> int:
    """Folders between the repository root and the module (tests/x.py -> 1)."""
    return len(path.relative_to(repo).parts) - 1
