"""YAML front matter: split it off, load it safely, validate the keys askdocs knows.

Known keys: ``title``, ``slug``, ``audience`` (user | developer), ``order`` (integer),
``locale``, ``description``, ``draft`` (boolean), and the Docusaurus ones: ``id`` (the
last part of the page's slug), ``sidebar_label`` (a title before the first H1),
``sidebar_position`` (a number: the order when ``order`` is absent), ``unlisted`` (boolean:
readable and searchable, left out of the reader's catalog). Any other key is kept in ``meta``.
Every error names the file, the line and the field. Pure: text in, values out.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any, cast

import yaml

from askdocs.errors import FrontMatterError
from askdocs.types import AUDIENCES, Audience

_FENCE = re.compile(r"^---[ \t]*$")
_CLOSE = re.compile(r"^(?:---|\.\.\.)[ \t]*$")
_SLUG = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._~-]*(?:/[A-Za-z0-9_][A-Za-z0-9._~-]*)*$")
KNOWN_KEYS = (
    *("title", "slug", "audience", "order", "locale", "description", "draft"),
    *("id", "sidebar_label", "sidebar_position", "unlisted"),
)
_DOC_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._~-]*$")
ROOT_SLUG = "index"  # what a front-matter ``slug: /`` (the docs home) becomes


@dataclass(frozen=True)
class FrontMatter:
    title: str | None = None
    slug: str | None = None
    audience: Audience | None = None
    order: int | None = None
    locale: str | None = None
    description: str | None = None
    draft: bool = False
    doc_id: str | None = None
    sidebar_label: str | None = None
    sidebar_position: float | None = None
    unlisted: bool = False
    meta: dict[str, object] = field(default_factory=dict, compare=False, hash=False)
    slug_from_root: bool = True  # ``slug: /x`` (Docusaurus reads ``slug: x`` from the folder)


@dataclass(frozen=True)
class SplitDocument:
    front_matter: FrontMatter
    body: str
    body_line: int  # 0-based line of the file where ``body`` starts


def split_front_matter(text: str, path: str, locales: Collection[str]) -> SplitDocument:
    """Separate and validate the front matter of one file's text."""
    lines = text.split("\n")
    if not lines or not _FENCE.match(lines[0]):
        return SplitDocument(FrontMatter(), text, 0)
    close = next((i for i in range(1, len(lines)) if _CLOSE.match(lines[i])), None)
    if close is None:
        raise FrontMatterError(path, "line 1: front matter opened with '---' is never closed")
    source = "\n".join(lines[1:close])
    values = _load(source, path)
    front = _validate(values, source, path, locales)
    return SplitDocument(front, "\n".join(lines[close + 1 :]), close + 1)


def _load(source: str, path: str) -> dict[str, Any]:
    try:
        loaded = yaml.safe_load(source)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise FrontMatterError(path, f"line {line}: invalid YAML front matter: {problem}") from exc
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise FrontMatterError(path, "line 2: front matter must be a mapping of keys to values")
    return {str(key): value for key, value in loaded.items()}


def _validate(
    values: dict[str, Any], source: str, path: str, locales: Collection[str]
) -> FrontMatter:
    checker = _Checker(values, source, path)
    return FrontMatter(
        title=checker.text("title"),
        slug=checker.slug(),
        audience=checker.audience(),
        order=checker.integer("order"),
        locale=checker.choice("locale", locales),
        description=checker.text("description"),
        draft=checker.flag("draft"),
        doc_id=checker.doc_id(),
        sidebar_label=checker.text("sidebar_label"),
        sidebar_position=checker.number("sidebar_position"),
        unlisted=checker.flag("unlisted"),
        slug_from_root=str(values.get("slug", "/")).startswith("/"),
        meta={key: value for key, value in values.items() if key not in KNOWN_KEYS},
    )


class _Checker:
    """Reads one known key, raising a FrontMatterError that names its line on bad values."""

    def __init__(self, values: dict[str, Any], source: str, path: str) -> None:
        self.values = values
        self.source = source
        self.path = path

    def fail(self, key: str, problem: str) -> FrontMatterError:
        line = _key_lines(self.source).get(key, 0) + 2
        return FrontMatterError(self.path, f"line {line}, field '{key}': {problem}")

    def text(self, key: str) -> str | None:
        value = self.values.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise self.fail(key, "must be text")
        cleaned = str(value).strip()
        if not cleaned:
            raise self.fail(key, "must not be empty")
        return cleaned

    def slug(self) -> str | None:
        value = self.text("slug")
        if value is None:
            return None
        cleaned = value.strip("/") or ROOT_SLUG
        if not _SLUG.match(cleaned) or ".." in cleaned.split("/"):
            raise self.fail("slug", f"{value!r} is not a valid slug (letters, digits, ._~- and /)")
        return cleaned

    def doc_id(self) -> str | None:
        value = self.text("id")
        if value is None:
            return None
        if not _DOC_ID.match(value):
            raise self.fail("id", f"{value!r} is not a valid id (letters, digits, ._~-)")
        return value

    def number(self, key: str) -> float | None:
        value = self.values.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"must be a number, not {value!r}")
        return float(value)

    def audience(self) -> Audience | None:
        value = self.values.get("audience")
        if value is None:
            return None
        if value not in AUDIENCES:
            raise self.fail("audience", f"must be one of {', '.join(AUDIENCES)}, not {value!r}")
        return cast(Audience, value)

    def integer(self, key: str) -> int | None:
        value = self.values.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer, not {value!r}")
        return value

    def choice(self, key: str, allowed: Collection[str]) -> str | None:
        value = self.values.get(key)
        if value is None:
            return None
        if value not in allowed:
            raise self.fail(key, f"must be one of {', '.join(sorted(allowed))}, not {value!r}")
        return str(value)

    def flag(self, key: str) -> bool:
        value = self.values.get(key)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {value!r}")
        return value


def _key_lines(source: str) -> dict[str, int]:
    """0-based line of each top-level key inside the front matter text."""
    try:
        node = yaml.compose(source, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {str(key.value): key.start_mark.line for key, _ in node.value}
