"""How the source uses error codes, found by reading it (for the registry's tests).

Every code is raised through the registry: ``code=ErrorCode.NAME`` (``askdocs.error_codes``).
This module finds what breaks that rule or the registered status:

- ``literal_codes``: a code written as a string (``code="..."``, ``code = "..."``,
  ``{"code": "..."}``, ``x.code == "..."``, or a string passed where a function of the
  package takes its ``code`` parameter);
- ``unknown_members``: an ``ErrorCode.NAME`` that is not registered;
- ``status_mismatches``: an error built with a code whose registered status differs from
  its class's status (``NotFound(..., code=ErrorCode.X)`` with X registered as 400), also
  through a helper that takes ``code`` and returns an error class (``def bad(code) ->
  InvalidInput``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from askdocs import errors
from askdocs.error_codes import ErrorCode

PACKAGE = Path(__file__).resolve().parent.parent
REGISTRY = "ErrorCode"


@dataclass(frozen=True)
class Finding:
    where: str  # path:line, relative to the package
    detail: str

    def __str__(self) -> str:
        return f"{self.where}: {self.detail}"


@dataclass(frozen=True)
class Source:
    rel: str
    tree: ast.Module

    def at(self, node: ast.AST) -> str:
        return f"{self.rel}:{getattr(node, 'lineno', 0)}"


def sources() -> list[Source]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "devtools" in path.parts or path.name == "error_codes.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found.append(Source(str(path.relative_to(PACKAGE)), tree))
    return found


def member(node: ast.AST | None) -> str | None:
    """``NAME`` of an ``ErrorCode.NAME`` expression."""
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == REGISTRY
    ):
        return node.attr
    return None


def _strings(node: ast.AST | None) -> Iterator[str]:
    """String constants an expression evaluates to (both branches of ``a if c else b``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _strings(node.body)
        yield from _strings(node.orelse)


def _members(node: ast.AST | None) -> Iterator[str]:
    if isinstance(node, ast.IfExp):
        yield from _members(node.body)
        yield from _members(node.orelse)
    elif (name := member(node)) is not None:
        yield name


def _callee(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


# -- functions that take a ``code`` parameter -------------------------------------------------


@dataclass(frozen=True)
class CodeParam:
    index: int | None  # positional index (None: keyword-only)
    returns: str | None  # the error class it returns, when annotated with one


def _is_code_arg(arg: ast.arg) -> bool:
    """A parameter ``code`` annotated with ``ErrorCode`` (an OAuth ``code: str`` is not)."""
    return arg.arg == "code" and REGISTRY in ast.unparse(arg.annotation or ast.Constant(""))


def _code_param(node: ast.FunctionDef | ast.AsyncFunctionDef) -> CodeParam | None:
    positional = [*node.args.posonlyargs, *node.args.args]
    if [arg.arg for arg in positional[:1]] in (["self"], ["cls"]):
        positional = positional[1:]
    returns = node.returns.id if isinstance(node.returns, ast.Name) else None
    for index, arg in enumerate(positional):
        if _is_code_arg(arg):
            return CodeParam(index, returns)
    if any(_is_code_arg(arg) for arg in node.args.kwonlyargs):
        return CodeParam(None, returns)
    return None


def code_params(found: list[Source]) -> dict[str, CodeParam]:
    """Function name -> its ``code`` parameter, over the whole package."""
    params: dict[str, CodeParam] = {}
    for source in found:
        for node in ast.walk(source.tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                param = _code_param(node)
                if param is not None and node.name != "__init__":
                    params[node.name] = param
    return params


def _code_argument(call: ast.Call, param: CodeParam | None) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    if param is not None and param.index is not None and len(call.args) > param.index:
        return call.args[param.index]
    return None


# -- the error classes and their statuses -----------------------------------------------------


def error_statuses(found: list[Source]) -> dict[str, int]:
    """Error class name -> status: ``askdocs.errors`` and every subclass in the package."""
    statuses = {
        name: value.status
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.AskDocsError)
    }
    classes = [n for s in found for n in ast.walk(s.tree) if isinstance(n, ast.ClassDef)]
    grown = True
    while grown:
        grown = False
        for node in classes:
            bases = [b.id for b in node.bases if isinstance(b, ast.Name) and b.id in statuses]
            if bases and node.name not in statuses:
                statuses[node.name] = _own_status(node) or statuses[bases[0]]
                grown = True
    return statuses


def _own_status(node: ast.ClassDef) -> int | None:
    for item in node.body:
        if not isinstance(item, ast.Assign) or not isinstance(item.value, ast.Constant):
            continue
        if any(isinstance(t, ast.Name) and t.id == "status" for t in item.targets):
            value = item.value.value
            return value if isinstance(value, int) else None
    return None


# -- the checks -------------------------------------------------------------------------------


def _literal_sites(source: Source, params: dict[str, CodeParam]) -> Iterator[Finding]:
    for node in ast.walk(source.tree):
        if isinstance(node, ast.Call):
            argument = _code_argument(node, params.get(_callee(node) or ""))
            values: list[str] = list(_strings(argument))
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            named = any(isinstance(t, ast.Name | ast.Attribute) and _is_code(t) for t in targets)
            values = list(_strings(node.value)) if named else []
        elif isinstance(node, ast.Dict):
            pairs = zip(node.keys, node.values, strict=True)
            values = [s for k, v in pairs if _is_code_key(k) for s in _strings(v)]
        elif isinstance(node, ast.Compare) and _is_code(node.left):
            values = [s for right in node.comparators for s in _strings(right)]
        else:
            continue
        for value in values:
            yield Finding(source.at(node), f"the code {value!r} is a string")


def _is_code(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id == "code"
    return isinstance(node, ast.Attribute) and node.attr == "code"


def _is_code_key(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value == "code"


def literal_codes(found: list[Source] | None = None) -> list[Finding]:
    found = sources() if found is None else found
    params = code_params(found)
    return [finding for source in found for finding in _literal_sites(source, params)]


def unknown_members(found: list[Source] | None = None) -> list[Finding]:
    known = set(ErrorCode.__members__)
    return [
        Finding(source.at(node), f"ErrorCode.{name} is not registered")
        for source in (sources() if found is None else found)
        for node in ast.walk(source.tree)
        if (name := member(node)) is not None and name not in known
    ]


def _raised_class(call: ast.Call, statuses: dict[str, int], params: dict[str, CodeParam]) -> str:
    callee = _callee(call) or ""
    if callee in statuses:
        return callee
    param = params.get(callee)
    return param.returns if param is not None and param.returns in statuses else ""


def status_mismatches(found: list[Source] | None = None) -> list[Finding]:
    found = sources() if found is None else found
    statuses, params = error_statuses(found), code_params(found)
    mismatches = []
    for source in found:
        for node in ast.walk(source.tree):
            if not isinstance(node, ast.Call):
                continue
            kind = _raised_class(node, statuses, params)
            argument = _code_argument(node, params.get(_callee(node) or ""))
            for name in _members(argument) if kind else ():
                code = ErrorCode.__members__.get(name)
                if code is not None and code.status != statuses[kind]:
                    detail = (
                        f"{kind} answers {statuses[kind]} but ErrorCode.{name} is registered "
                        f"as {code.status}"
                    )
                    mismatches.append(Finding(source.at(node), detail))
    return mismatches


def referenced_codes(paths: list[Path]) -> set[ErrorCode]:
    """The codes ``paths`` (files or folders) name as ``ErrorCode.NAME``."""
    files = [f for p in paths for f in ([p] if p.is_file() else sorted(p.rglob("*.py")))]
    names = {
        name
        for path in files
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if (name := member(node)) is not None
    }
    return {ErrorCode.__members__[name] for name in names if name in ErrorCode.__members__}
