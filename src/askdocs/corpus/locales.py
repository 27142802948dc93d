"""Locale variants of a page: ``page.cs.md`` siblings and ``i18n/<locale>/...`` mirrors.

Pure path arithmetic. Every variant maps to a *base path* (the English original's path);
variants sharing a base path are one page in several languages.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

MARKDOWN_SUFFIXES = (".md", ".mdx")
I18N_DIR = "i18n"


@dataclass(frozen=True)
class LocatedPath:
    base: str  # the original's path, e.g. "guide/setup.md"
    locale: str | None  # None: no locale marker, the site's default locale
    unknown_locale: str | None = None  # an i18n/<x>/ folder naming a locale not configured


def locate(path: str, locales: Collection[str]) -> LocatedPath:
    """Where ``path`` (relative, ``/`` separators) sits among locale variants."""
    parts = path.split("/")
    if len(parts) > 2 and parts[0] == I18N_DIR:
        locale = parts[1]
        rest = "/".join(parts[2:])
        if locale in locales:
            return LocatedPath(rest, locale)
        return LocatedPath(rest, None, unknown_locale=locale)
    return _sibling(path, locales)


def _sibling(path: str, locales: Collection[str]) -> LocatedPath:
    for suffix in MARKDOWN_SUFFIXES:
        if not path.endswith(suffix):
            continue
        stem = path[: -len(suffix)]
        head, dot, tag = stem.rpartition(".")
        if dot and head and not head.endswith("/") and tag in locales:
            return LocatedPath(head + suffix, tag)
    return LocatedPath(path, None)


def slug_from_path(base: str) -> str:
    """``guide/setup.md`` -> ``guide/setup``."""
    for suffix in MARKDOWN_SUFFIXES:
        if base.endswith(suffix):
            return base[: -len(suffix)]
    return base
