"""Unknown keys are errors: in the config file, in ``[[sites]]`` tables and in ``ASKDOCS_*``
variables, each named with where it is written and the closest valid key (pure).

Every problem is one line, ``WHERE: WHAT``: ``askdocs.toml:12: unknown key "publik" in
[[sites]] #1; did you mean "public"?`` or ``ASKDOCS_SERVER__PROT: unknown setting
server.prot; did you mean ASKDOCS_SERVER__PORT?``. Values are never repeated in a message
(a URL may carry a password, a key is a secret).
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from askdocs.config.shape import Shape, field_shapes
from askdocs.config.toml_lines import Path, line_of

PREFIX = "ASKDOCS_"

# ASKDOCS_* variables that are not settings, and what reads them.
OTHER_VARIABLES: dict[str, str] = {
    "ASKDOCS_PORT": "the port scripts/run serves on",
    "ASKDOCS_MCP_TOKEN": "the bearer token `askdocs mcp` sends in server mode",
    "ASKDOCS_API_URL": "the askdocs HTTP API `askdocs mcp` calls in server mode",
    "ASKDOCS_JWT_SIGNING_KEY": "the bearer-token signing key (as auth.jwt_signing_key)",
}


@dataclass(frozen=True)
class Problem:
    """One configuration error: where it is written, and what is wrong there."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


@dataclass(frozen=True)
class Unknown:
    """A key no setting has: its table's path, the key, and the closest valid key."""

    table: Path
    key: str
    is_table: bool
    suggestion: str | None


def unknown_keys(
    values: Mapping[str, Any], model: type[BaseModel], table: Path = ()
) -> Iterator[Unknown]:
    """Every key of ``values`` (and of its nested tables) that ``model`` does not have."""
    shapes = field_shapes(model)
    for key, value in values.items():
        shape = shapes.get(key)
        if shape is None:
            yield Unknown(table, key, isinstance(value, dict), closest(key, shapes))
        else:
            yield from _nested(value, shape, (*table, key))


def _nested(value: Any, shape: Shape, path: Path) -> Iterator[Unknown]:
    if shape.model is None:
        return
    if shape.kind == "section" and isinstance(value, dict):
        yield from unknown_keys(value, shape.model, path)
    elif shape.kind == "sections" and isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict):
                yield from unknown_keys(item, shape.model, (*path, index))


def closest(key: str, names: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(key.lower(), list(names), n=1, cutoff=0.6)
    return found[0] if found else None


# -- the config file ------------------------------------------------------------------------


def file_problems(
    values: Mapping[str, Any], model: type[BaseModel], file: str, lines: dict[Path, int]
) -> list[Problem]:
    """The unknown keys of a config file's ``values``, each at its line of ``file``."""
    problems = []
    for unknown in unknown_keys(values, model):
        line = line_of(lines, (*unknown.table, unknown.key))
        where = f"{file}:{line}" if line is not None else file
        problems.append(Problem(where, _file_message(unknown)))
    return problems


def _file_message(unknown: Unknown) -> str:
    top = not unknown.table
    if top and unknown.is_table:
        text = f"unknown section [{unknown.key}]"
        hint = f"[{unknown.suggestion}]" if unknown.suggestion else None
    else:
        text = f'unknown key "{unknown.key}" in {table_label(unknown.table)}'
        hint = f'"{unknown.suggestion}"' if unknown.suggestion else None
    return f"{text}; did you mean {hint}?" if hint else text


def table_label(table: Path) -> str:
    """``[server]``, ``[[sites]] #1``, ``[[sites.roots]] #1.2`` or ``the top level``."""
    if not table:
        return "the top level"
    names = ".".join(str(part) for part in table if isinstance(part, str))
    numbers = ".".join(str(part + 1) for part in table if isinstance(part, int))
    if isinstance(table[-1], int):
        return f"[[{names}]] #{numbers}"
    return f"[{names}]" + (f" (#{numbers})" if numbers else "")


# -- the environment ------------------------------------------------------------------------


def env_path(name: str) -> tuple[str, ...] | None:
    """``ASKDOCS_SERVER__PORT`` -> ``("server", "port")``; None for another prefix."""
    if not name.upper().startswith(PREFIX) or name.upper() in OTHER_VARIABLES:
        return None
    return tuple(part.lower() for part in name[len(PREFIX) :].split("__"))


def env_problems(env: Mapping[str, str], model: type[BaseModel]) -> list[Problem]:
    """Every ``ASKDOCS_*`` variable that names no setting (or holds unknown JSON keys)."""
    problems = []
    for name in sorted(env):
        path = env_path(name)
        if path is not None:
            problems.extend(_variable_problems(name, path, env[name], model))
    return problems


def _variable_problems(
    name: str, path: tuple[str, ...], value: str, top: type[BaseModel]
) -> list[Problem]:
    model = top
    for depth, part in enumerate(path):
        shapes = field_shapes(model)
        shape = shapes.get(part)
        if shape is None:
            suggestion = closest(part, shapes)
            if suggestion is None:
                return [Problem(name, _anywhere(path, top))]
            return [Problem(name, _unknown_variable(path, depth, suggestion))]
        last = depth == len(path) - 1
        if last:
            return _json_problems(name, value, shape, path)
        if shape.kind == "map":
            return []
        if shape.kind != "section" or shape.model is None:
            return [Problem(name, f"{'.'.join(path[: depth + 1])} has no sub-settings")]
        model = shape.model
    return []


def _unknown_variable(path: tuple[str, ...], depth: int, suggestion: str | None) -> str:
    text = f"unknown setting {'.'.join(path)}"
    if suggestion is None:
        return text
    better = [*path[:depth], suggestion, *path[depth + 1 :]]
    return f"{text}; did you mean {PREFIX}{'__'.join(better).upper()}?"


def _anywhere(path: tuple[str, ...], top: type[BaseModel]) -> str:
    """No near name at its level: the closest of every variable askdocs reads, if any."""
    text = f"unknown setting {'.'.join(path)}"
    wanted = PREFIX + "__".join(path).upper()
    found = difflib.get_close_matches(wanted, [*env_names(top), *OTHER_VARIABLES], n=1, cutoff=0.8)
    return f"{text}; did you mean {found[0]}?" if found else text


def env_names(model: type[BaseModel], prefix: str = PREFIX) -> Iterator[str]:
    """Every settings variable of ``model``: one per leaf, sections nested with ``__``."""
    for name, shape in field_shapes(model).items():
        variable = prefix + name.upper()
        if shape.kind == "section" and shape.model is not None:
            yield from env_names(shape.model, variable + "__")
        else:
            yield variable


def _json_problems(name: str, value: str, shape: Shape, path: tuple[str, ...]) -> list[Problem]:
    """A section or list of sections given as JSON: its keys are checked too."""
    try:
        parsed = json.loads(value)
    except ValueError:
        return []
    return [Problem(name, _file_message(unknown)) for unknown in _nested(parsed, shape, path)]
