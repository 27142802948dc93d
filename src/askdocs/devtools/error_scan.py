"""Every error code the source can raise, found by reading it (for the registry's test).

Found: ``code="..."`` arguments; ``code=NAME`` where ``NAME`` is a string constant of the
same module; ``code = "..."`` class attributes; string values of ``*_CODES`` dicts; the
positional code of the helpers in ``POSITIONAL`` (``error_body``, ``_invalid``, limit
``Counter``); and ``{"code": "..."}`` literals.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
# helpers whose positional argument is a code: name -> argument index
POSITIONAL = {"error_body": 0, "_invalid": 0, "Counter": 3}


def _constants(tree: ast.Module) -> dict[str, str]:
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                for target in targets:
                    if isinstance(target, ast.Name):
                        found[target.id] = value.value
    return found


def _string(node: ast.AST | None, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _codes_dict(node: ast.AST) -> Iterator[str]:
    targets = node.targets if isinstance(node, ast.Assign) else []
    if isinstance(node, ast.AnnAssign):
        targets = [node.target]
    named = [t.id for t in targets if isinstance(t, ast.Name) and t.id.endswith("_CODES")]
    value = getattr(node, "value", None)
    if named and isinstance(value, ast.Dict):
        for item in value.values:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                yield item.value


def codes_in(tree: ast.Module) -> Iterator[str]:
    constants = _constants(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg == "code":
                    found = _string(keyword.value, constants)
                    if found:
                        yield found
            func = node.func
            name = func.id if isinstance(func, ast.Name) else None
            where = POSITIONAL.get(name or "")
            if where is not None and len(node.args) > where:
                found = _string(node.args[where], constants)
                if found:
                    yield found
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            yield from _codes_dict(node)
            target = node.targets[0] if isinstance(node, ast.Assign) else node.target
            if isinstance(target, ast.Name) and target.id == "code":
                found = _string(node.value, constants)
                if found:
                    yield found
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "code":
                    found = _string(value, constants)
                    if found:
                        yield found


def raised_codes() -> dict[str, set[str]]:
    """code -> the modules (relative paths) it appears in."""
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "devtools" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for code in codes_in(tree):
            found.setdefault(code, set()).add(str(path.relative_to(PACKAGE)))
    return found
