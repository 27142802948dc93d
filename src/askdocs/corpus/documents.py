"""One file's text -> a parsed source document (pure): front matter, locale, structure.

A ``SourceDoc`` is everything about a file that depends only on its own bytes and the
parse settings (its dialect included); it is what the stat cache keeps. Turning it into a
``types.Page`` needs the site context (slug and canonical metadata of the English original,
the root, the navigation).

The page's sections are cut from its indexed text (``dialects.prose``): the source with
admonition, tab and details markers turned into their titles, line for line.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from typing import Literal

from markdown_it import MarkdownIt
from markdown_it.token import Token

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.html import anchors_in
from askdocs.corpus.dialects.includes import Included
from askdocs.corpus.dialects.parser import make_dialect_parser
from askdocs.corpus.dialects.prose import index_lines
from askdocs.corpus.dialects.slugs import DIALECT_SLUGS, SlugStyle
from askdocs.corpus.dialects.source import SOURCE_KEY
from askdocs.corpus.dialects.tokens import Block
from askdocs.corpus.dialects.vitepress import hero_name, home_markdown, page_title
from askdocs.corpus.frontmatter import FrontMatter, SplitDocument, split_front_matter
from askdocs.corpus.locales import locate, slug_from_path
from askdocs.corpus.markdown import build_sections, dialect_headings, first_h1
from askdocs.errors import FrontMatterError
from askdocs.types import Heading, Section

TitleSource = Literal["front matter", "sidebar label", "h1", "file name"]
_NUMBER_PREFIX = re.compile(r"^\d+[-_. ]+(?=\D)")


@dataclass(frozen=True)
class ParseOptions:
    locales: tuple[str, ...]
    default_locale: str
    split_level: int
    dialect: Dialect = "gfm"
    slugs: SlugStyle | None = None  # heading ids; None: the dialect's (``dialects.slugs``)
    src_prefix: str = ""  # VitePress: the root's path inside the folder ``@/`` imports name
    title_suffixes: tuple[str, ...] = ()  # VitePress: the site's title (template) suffixes

    @property
    def slug_style(self) -> SlugStyle:
        return self.slugs or DIALECT_SLUGS[self.dialect]


@dataclass(frozen=True)
class Diagnostics:
    """What one file's dialect parse understood (counts per construct) and did not."""

    counts: tuple[tuple[str, int], ...] = ()
    unknown: tuple[tuple[int, str], ...] = ()  # (1-based file line, construct)


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
    title_source: TitleSource = "h1"
    dialect: Dialect = "gfm"
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    anchors: tuple[str, ...] = ()  # explicit anchors besides headings (``explicit_anchors``)
    # (the dialect's id, the reader's id) of headings whose id is one of the reader's own
    anchor_aliases: tuple[tuple[str, str], ...] = ()

    @property
    def path_slug(self) -> str:
        """The slug from the path; a Docusaurus ``id`` replaces the file name part."""
        slug = slug_from_path(self.base)
        if self.front.doc_id is None:
            return slug
        head, _, last = slug.rpartition("/")
        if last == "index" and not head:
            return slug
        return f"{head}/{self.front.doc_id}" if head else self.front.doc_id


@cache
def _block_parser(dialect: Dialect) -> MarkdownIt:
    disabled = ["inline", "dialect_inline", "github-tasklists", "footnote_tail"]
    return make_dialect_parser(dialect).disable(disabled)


def parse_document(
    text: str, rel: str, options: ParseOptions, included: Included | None = None
) -> SourceDoc:
    """Parse one file's text (its includes already expanded into ``included``, whose
    counts and problems join the diagnostics); invalid front matter raises
    ``FrontMatterError``."""
    known = (*options.locales, options.default_locale)
    located = locate(rel, known)
    split = _with_home(split_front_matter(text, rel, known), options.dialect)
    locale = _locale(located.locale, split.front_matter, rel, options.default_locale)
    env: dict[str, object] = {}
    tokens = _block_parser(options.dialect).parse(split.body, env)
    source = str(env.get(SOURCE_KEY, split.body))
    prose = index_lines(tokens, source)
    headings = dialect_headings(tokens, split.body_line, options.slug_style)
    h1 = first_h1(headings) or _html_h1(tokens)
    title, title_source = _title(split.front_matter, h1, located.base, options)
    offset = split.body_line + 1
    return SourceDoc(
        rel=rel,
        base=located.base,
        locale=locale,
        front=split.front_matter,
        body=split.body,
        title=title,
        headings=tuple(item.heading for item in headings),
        sections=build_sections(prose.lines, headings, options.split_level, prose.code),
        unknown_locale=located.unknown_locale,
        title_source=title_source,
        dialect=options.dialect,
        diagnostics=_diagnostics(prose.counts, prose.unknown, offset, included),
        anchors=explicit_anchors(tokens, source, prose.code),
        anchor_aliases=tuple(
            (item.dialect_id, item.heading.section_id) for item in headings if item.dialect_id
        ),
    )


def explicit_anchors(tokens: list[Token], source: str, code: set[int]) -> tuple[str, ...]:
    """Anchors a link may name besides the headings: HTML ``id``s (and ``<a name>``)
    outside code, MyST ``(label)=`` targets and directives' ``:name:``."""
    found: list[str] = []
    for token in tokens:
        if token.type == "html_anchor":
            found.append(str(token.attrGet("id") or ""))
        elif token.type == "myst_target":
            found.append(token.content.strip())
        elif token.type == "dialect_open" and isinstance(token.meta.get("block"), Block):
            found.append(token.meta["block"].anchor)
    for index, line in enumerate(source.split("\n")):
        if index not in code and "<" in line and ("id=" in line or "name=" in line):
            found.extend(anchors_in(line))
    return tuple(dict.fromkeys(anchor for anchor in found if anchor))


def _diagnostics(
    counts: Counter[str], unknown: list[tuple[int, str]], offset: int, included: Included | None
) -> Diagnostics:
    total = Counter(counts)
    problems = [(line + offset, what) for line, what in unknown]
    if included is not None:
        total.update(included.counts)
        problems.extend((line + 1, what) for line, what in included.problems)
    return Diagnostics(tuple(sorted(total.items())), tuple(sorted(problems)))


def _title(
    front: FrontMatter, h1: str | None, base: str, options: ParseOptions
) -> tuple[str, TitleSource]:
    """Front matter ``title`` -> ``sidebar_label`` -> first H1 (Markdown, then HTML) ->
    the file name made readable. (A navigation label, known only to the site, comes
    between the sidebar label and the H1: ``site``.) VitePress: the title without its
    template suffix, and a home page's hero name before the file name."""
    if front.title and options.dialect == "vitepress":
        return page_title(front.title, options.title_suffixes), "front matter"
    if front.title:
        return front.title, "front matter"
    if front.sidebar_label:
        return front.sidebar_label, "sidebar label"
    if h1:
        return h1, "h1"
    hero = hero_name(front.meta) if options.dialect == "vitepress" else None
    if hero:
        return hero, "front matter"
    return readable_file_title(base), "file name"


def _with_home(split: SplitDocument, dialect: Dialect) -> SplitDocument:
    """A VitePress ``layout: home`` page: its hero and features open the body (the lines
    before the body's first line, so every heading keeps its line number)."""
    if dialect != "vitepress" or split.front_matter.meta.get("layout") != "home":
        return split
    home = home_markdown(split.front_matter.meta)
    if not home:
        return split
    added = home.count("\n") + 2
    return SplitDocument(split.front_matter, f"{home}\n\n{split.body}", split.body_line - added)


def _html_h1(tokens: list[Token]) -> str | None:
    for token in tokens:
        if token.type == "html_text" and token.meta.get("h1"):
            return token.content
    return None


def readable_file_title(base: str) -> str:
    """ "guides/release-notes.md" -> "Release notes"; an index page takes its folder's name
    ("Home" at the top)."""
    folder, name = posixpath.split(posixpath.splitext(base)[0])
    if name.lower() in ("index", "readme", "_index"):
        name = posixpath.basename(folder) or "home"
    words = _NUMBER_PREFIX.sub("", name).replace("-", " ").replace("_", " ").strip()
    return (words[:1].upper() + words[1:]) if words else name


def _locale(from_path: str | None, front: FrontMatter, rel: str, default: str) -> str:
    if from_path is not None and front.locale is not None and front.locale != from_path:
        raise FrontMatterError(
            rel, f"field 'locale': {front.locale!r} contradicts the file name ({from_path!r})"
        )
    return from_path or front.locale or default
