"""One file's text -> a parsed source document (pure): front matter, locale, structure.

A ``SourceDoc`` is everything about a file that depends only on its own bytes and the
parse settings; it is what the stat cache keeps. Turning it into a ``types.Page`` needs
the site context (slug and canonical metadata of the English original, the root).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from askdocs.corpus.frontmatter import FrontMatter, split_front_matter
from askdocs.corpus.locales import locate, slug_from_path
from askdocs.corpus.markdown import build_sections, first_h1, parse_headings
from askdocs.errors import FrontMatterError
from askdocs.types import Heading, Section


@dataclass(frozen=True)
class ParseOptions:
    locales: tuple[str, ...]
    default_locale: str
    split_level: int


@dataclass(frozen=True)
class SourceDoc:
    rel: str
    base: str  # the original's path: locale markers removed
    locale: str
    front: FrontMatter
    body: str
    title: str
    headings: tuple[Heading, ...]
    sections: tuple[Section, ...]
    unknown_locale: str | None = None

    @property
    def path_slug(self) -> str:
        return slug_from_path(self.base)


def parse_document(text: str, rel: str, options: ParseOptions) -> SourceDoc:
    """Parse one file's text; invalid front matter raises ``FrontMatterError``."""
    known = (*options.locales, options.default_locale)
    located = locate(rel, known)
    split = split_front_matter(text, rel, known)
    locale = _locale(located.locale, split.front_matter, rel, options.default_locale)
    headings = parse_headings(split.body, line_offset=split.body_line)
    title = split.front_matter.title or first_h1(headings) or _file_title(located.base)
    return SourceDoc(
        rel=rel,
        base=located.base,
        locale=locale,
        front=split.front_matter,
        body=split.body,
        title=title,
        headings=tuple(item.heading for item in headings),
        sections=build_sections(split.body, headings, options.split_level),
        unknown_locale=located.unknown_locale,
    )


def _locale(from_path: str | None, front: FrontMatter, rel: str, default: str) -> str:
    if from_path is not None and front.locale is not None and front.locale != from_path:
        raise FrontMatterError(
            rel, f"field 'locale': {front.locale!r} contradicts the file name ({from_path!r})"
        )
    return from_path or front.locale or default


def _file_title(base: str) -> str:
    return posixpath.splitext(posixpath.basename(base))[0]
