"""Where each effective setting came from (default, ``file:line``, ``ASKDOCS_*``, argument),
and the settings' validation errors as one-line problems at those places (pure)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from pydantic import BaseModel, SecretStr, ValidationError

from askdocs.config.shape import field_shapes
from askdocs.config.strict import Problem, env_path
from askdocs.config.toml_lines import Path, line_of

DEFAULT = "default"


@dataclass(frozen=True)
class Origins:
    """The sources of one settings build, in rising priority: file, environment, arguments."""

    file: str | None = None
    file_values: Mapping[str, Any] = field(default_factory=dict)
    lines: dict[Path, int] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    arguments: frozenset[str] = frozenset()

    def of(self, path: Sequence[str | int]) -> str:
        """``argument``, the variable's name, ``file:line`` or ``default`` for ``path``."""
        if path and path[0] in self.arguments:
            return "argument"
        variable = self._variable(path)
        if variable is not None:
            return variable
        if self.file is not None and _contains(self.file_values, path):
            line = line_of(self.lines, path)
            return f"{self.file}:{line}" if line is not None else self.file
        return DEFAULT

    def _variable(self, path: Sequence[str | int]) -> str | None:
        names = [str(part) for part in path if isinstance(part, str)]
        for name in self.env:
            named = env_path(name)
            if named is not None and list(named) == names[: len(named)]:
                return name
        return None


def _contains(values: Any, path: Sequence[str | int]) -> bool:
    for part in path:
        if not _has(values, part):
            return False
        values = values[part]
    return True


def _has(values: Any, part: str | int) -> bool:
    if isinstance(part, int):
        return isinstance(values, list) and part < len(values)
    return isinstance(values, dict) and part in values


def validation_problems(exc: ValidationError, origins: Origins) -> list[Problem]:
    """Each invalid value as ``WHERE: setting: what is wrong`` (never the value itself)."""
    problems: dict[tuple[Any, ...], Problem] = {}
    for error in exc.errors(include_input=False, include_url=False):
        loc = tuple(part for part in error["loc"] if isinstance(part, (str, int)))
        if loc not in problems:
            where = origins.of(loc)
            problems[loc] = Problem(
                "settings" if where == DEFAULT else where, _what(loc, error["msg"])
            )
    return list(problems.values())


def _what(loc: tuple[str | int, ...], message: str) -> str:
    return f"{_join(loc)}: {message}" if loc else message


# -- the effective settings -----------------------------------------------------------------


@dataclass(frozen=True)
class Row:
    key: str
    value: str
    origin: str


def effective(settings: BaseModel, origins: Origins) -> list[Row]:
    """Every leaf setting with its shown value (secrets masked) and where it came from."""
    return [
        Row(_join(path), shown(value), origins.of(path)) for path, value in _leaves(settings, ())
    ]


def _leaves(model: BaseModel, path: Path) -> Iterator[tuple[Path, Any]]:
    shapes = field_shapes(type(model))
    for name in type(model).model_fields:
        value = getattr(model, name)
        shape = shapes[name]
        if shape.kind == "section" and isinstance(value, BaseModel):
            yield from _leaves(value, (*path, name))
        elif shape.kind == "sections" and isinstance(value, list) and value:
            for index, item in enumerate(value):
                yield from _leaves(item, (*path, name, index))
        else:
            yield (*path, name), value


def _join(path: Path) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def shown(value: Any) -> str:
    """A value as ``config check`` prints it: secrets masked, URL passwords hidden."""
    if isinstance(value, SecretStr):
        return "********" if value.get_secret_value() else ""
    if value is None:
        return "(unset)"
    if isinstance(value, str) and "://" in value:
        return redact_url(value)
    if isinstance(value, (list, dict, tuple)):
        return repr(value)
    return str(value)


def redact_url(url: str) -> str:
    """``postgresql://u:secret@h/db`` -> ``postgresql://u:***@h/db``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))
