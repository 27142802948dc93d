"""Markdown structure with a real parser: headings, stable section ids, links and images.

Pure: text in, typed values out. One markdown-it configuration (the ``js-default`` preset,
raw HTML off) is shared with the reader's renderer through :func:`make_markdown_it`, so
what the corpus calls a heading is exactly what the reader renders as one.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from markdown_it import MarkdownIt
from markdown_it.token import Token

from askdocs.corpus.dialects.html import visible_text
from askdocs.corpus.dialects.slugs import DIALECT_SLUGS, SlugStyle, dedupe, slug
from askdocs.types import Heading, Section

# A trailing attribute block carrying an id: "{#id}", "{ #id }", "{: #id .class }",
# '{ id="9.7.0" }' (attr_list's key form).
_ATTRIBUTE = re.compile(
    r"\s*\{:?\s*(?:#(?P<id>[\w][\w.:-]*)(?:\s+[^}]*)?"
    r"|(?:[^{}]*?\s)?id=(?P<q>[\"']?)(?P<kid>[\w][\w.:-]*)(?P=q)[^{}]*?)\s*\}\s*$"
)
_NOT_SLUG = re.compile(r"[^\w\s-]")
_DASHES = re.compile(r"[-\s]+")


@dataclass(frozen=True)
class Link:
    """An inline or reference link as the parser resolved it."""

    href: str
    text: str
    line: int  # 1-based, in the parsed text plus ``line_offset``


@dataclass(frozen=True)
class Image:
    """An image reference with its plain alt text (empty when none was written)."""

    src: str
    alt: str
    title: str | None
    line: int


@dataclass(frozen=True)
class ParsedHeading:
    """A heading plus where it sits: token index and 0-based line span in the parsed text."""

    heading: Heading
    token_index: int
    start: int
    end: int
    top_level: bool  # False inside a blockquote or list item: never a section boundary
    dialect_id: str = ""  # the id the dialect's build gives it, when the reader's differs


@dataclass(frozen=True)
class ParsedMarkdown:
    tokens: tuple[Token, ...]
    parsed_headings: tuple[ParsedHeading, ...]
    links: tuple[Link, ...]
    images: tuple[Image, ...]

    @property
    def headings(self) -> tuple[Heading, ...]:
        return tuple(item.heading for item in self.parsed_headings)


@cache
def _shared_parser() -> MarkdownIt:
    return make_markdown_it()


@cache
def _block_parser() -> MarkdownIt:
    return make_markdown_it().disable("inline")


@cache
def _html_inline_parser() -> MarkdownIt:
    """Heading text as a dialect build reads it: inline HTML and components are
    ``html_inline`` tokens, which a slug leaves out (the text between them stays)."""
    return MarkdownIt("js-default", {"html": True})


def make_markdown_it() -> MarkdownIt:
    """A fresh markdown-it with askdocs's configuration: ``js-default``, raw HTML off."""
    return MarkdownIt("js-default", {"html": False})


def parse_markdown(text: str, line_offset: int = 0) -> ParsedMarkdown:
    """Parse ``text`` once; line numbers are 1-based and shifted by ``line_offset``."""
    tokens = tuple(_shared_parser().parse(text))
    return ParsedMarkdown(
        tokens=tokens,
        parsed_headings=_headings(tokens, line_offset, _own_children),
        links=tuple(_links(tokens, line_offset)),
        images=tuple(_images(tokens, line_offset)),
    )


def parse_headings(text: str, line_offset: int = 0) -> tuple[ParsedHeading, ...]:
    """Only the headings, several times faster: inline parsing runs for heading text alone."""
    env: dict[str, object] = {}
    tokens = block_tokens(text, env)

    def children(inline: Token) -> Sequence[Token]:
        parsed = _shared_parser().parseInline(inline.content, env)
        return parsed[0].children or () if parsed else ()

    return _headings(tokens, line_offset, children)


def block_tokens(text: str, env: dict[str, object] | None = None) -> list[Token]:
    """Block-level tokens only (fences, code blocks, headings...), inline content unparsed."""
    return _block_parser().parse(text, env if env is not None else {})


def _own_children(inline: Token) -> Sequence[Token]:
    return inline.children or ()


def split_heading_attribute(raw: str) -> tuple[str, str | None]:
    """``"Defaults { #defaults }"`` -> ``("Defaults", "defaults")``; no attribute -> None."""
    flat = " ".join(raw.split("\n")).strip()
    match = _ATTRIBUTE.search(flat)
    if match is None:
        return flat, None
    return flat[: match.start()].rstrip(), match.group("id") or match.group("kid")


def slugify(text: str) -> str:
    """A section id the way MkDocs/GitHub derive one: lowercase, no punctuation, dashes."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    cleaned = _NOT_SLUG.sub("", bare.lower()).strip()
    return _DASHES.sub("-", cleaned).strip("-") or "section"


# Element ids of askdocs's own pages (web/static): a heading never takes one, or its
# anchor would clobber the reader's table of contents, Ask AI root, search box...
# (``tests/corpus/test_reserved_ids.py`` checks this list against the static files).
RESERVED_IDS = frozenset(
    (
        "account-button",
        "account-menu",
        "account-root",
        "account-slot",
        "account-who",
        "admin",
        "admin-org",
        "admin-panel",
        "article",
        "article-title",
        "ask-open",
        "ask-root",
        "askdocs-widget",
        "assistant-close",
        "assistant-drawer",
        "assistant-drawer-title",
        "assistant-history",
        "assistant-open",
        "assistant-root",
        "brand",
        "brand-name",
        "catalog",
        "chat-log",
        "chat-status",
        "composer",
        "composer-input",
        "composer-send",
        "conversation",
        "conversation-title",
        "grant-confirm",
        "grant-editor",
        "grant-review",
        "invite-accept",
        "invite-copy",
        "invite-form",
        "invite-role",
        "invite-sign-in",
        "invite-title",
        "locale-select",
        "nav-scrim",
        "nav-toggle",
        "new-thread",
        "not-found-input",
        "page-section",
        "proposal-root",
        "proposal-sign-in",
        "providers-in-use",
        "report-body",
        "report-since",
        "report-summary",
        "reset-error",
        "reset-submit",
        "reset-title",
        "search",
        "search-input",
        "search-panel",
        "search-results",
        "search-status",
        "sidebar",
        "sign-out",
        "signin-account",
        "signin-error",
        "signin-sso",
        "signin-submit",
        "signin-title",
        "thread-list",
        "thread-search",
        "thread-shelf",
        "threads",
        "threads-toggle",
        "toc",
        "unavailable",
        "users-panel",
        "waiting-hint",
    )
)


def unique_ids(
    candidates: Sequence[tuple[str, bool]],
    style: SlugStyle = DIALECT_SLUGS["gfm"],
    reserved: frozenset[str] = RESERVED_IDS,
) -> list[str]:
    """De-duplicate ids in order, as ``style``'s build numbers repeats; explicit ones
    (flag True) are reserved before derived ones; the reader's own element ids
    (``RESERVED_IDS``) are never given to a heading."""
    used = set(reserved) | {value for value, explicit in candidates if explicit}
    seen_explicit: set[str] = set(reserved)
    result: list[str] = []
    for value, explicit in candidates:
        if explicit and value not in seen_explicit:
            seen_explicit.add(value)
            result.append(value)
            continue
        result.append(dedupe(value, used, style))
    return result


def plain_text(children: Iterable[Token]) -> str:
    """Visible text of inline tokens: text, code spans and image alt, markup dropped."""
    parts: list[str] = []
    for child in children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type == "image":
            parts.append(plain_text(child.children or ()))
    return "".join(parts)


def dialect_headings(
    tokens: Sequence[Token], line_offset: int = 0, style: SlugStyle = DIALECT_SLUGS["gfm"]
) -> tuple[ParsedHeading, ...]:
    """Headings of a dialect parse (block tokens, inline unparsed), with ids as ``style``
    makes them. A heading is a section boundary unless it sits in a blockquote, a list,
    or an indented dialect block (an MkDocs admonition or content tab): fenced and MDX
    blocks are transparent, as they are to the eval labels' heading rule."""
    env: dict[str, object] = {}

    def children(inline: Token) -> Sequence[Token]:
        parsed = _html_inline_parser().parseInline(inline.content, env)
        return parsed[0].children or () if parsed else ()

    return _headings(tokens, line_offset, children, _boundaries(tokens), style)


def _boundaries(tokens: Sequence[Token]) -> set[int]:
    stack: list[Token] = []
    result: set[int] = set()
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and all(_transparent(item) for item in stack):
            result.add(index)
        if token.nesting == 1:
            stack.append(token)
        elif token.nesting == -1 and stack:
            stack.pop()
    return result


def _transparent(token: Token) -> bool:
    block = token.meta.get("block") if token.type == "dialect_open" else None
    return block is not None and not getattr(block, "indented", False)


def _headings(
    tokens: Sequence[Token],
    line_offset: int,
    children: Callable[[Token], Sequence[Token]],
    boundaries: set[int] | None = None,
    style: SlugStyle = DIALECT_SLUGS["gfm"],
) -> tuple[ParsedHeading, ...]:
    found: list[tuple[int, Token, Token, str, str | None]] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            inline = tokens[index + 1]
            text, explicit = split_heading_attribute(inline.content)
            found.append((index, token, inline, visible_text(text, prose=False), explicit))
    candidates = [
        (explicit, True) if explicit else (slug(_slug_source(children(inline)), style), False)
        for _, _, inline, _, explicit in found
    ]
    ids = unique_ids(candidates, style)
    built = unique_ids(candidates, style, frozenset())  # the dialect's own, reserved or not
    result = []
    for (index, token, _, text, _), section_id, own in zip(found, ids, built, strict=True):
        start, end = token.map or (0, 0)
        heading = Heading(int(token.tag[1]), text, section_id, start + 1 + line_offset)
        top = token.level == 0 if boundaries is None else index in boundaries
        alias = own if own != section_id else ""
        result.append(ParsedHeading(heading, index, start, end, top, alias))
    return tuple(result)


def _slug_source(children: Sequence[Token]) -> str:
    """The heading's text without its attribute block, inline HTML and components (their
    tags; the text between them stays), as a dialect build slugs it."""
    return split_heading_attribute(plain_text(children))[0].strip()


def _links(tokens: Sequence[Token], line_offset: int) -> Iterable[Link]:
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        line = (token.map[0] if token.map else 0) + 1 + line_offset
        children = token.children
        for index, child in enumerate(children):
            if child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                yield Link(href, plain_text(_until_close(children, index + 1)), line)


def _until_close(children: Sequence[Token], start: int) -> list[Token]:
    inner: list[Token] = []
    for child in children[start:]:
        if child.type == "link_close":
            break
        inner.append(child)
    return inner


def _images(tokens: Sequence[Token], line_offset: int) -> Iterable[Image]:
    for token in tokens:
        if token.type != "inline" or not token.children:
            continue
        line = (token.map[0] if token.map else 0) + 1 + line_offset
        for child in _walk_images(token.children):
            title = child.attrs.get("title")
            yield Image(
                src=str(child.attrs.get("src", "")),
                alt=plain_text(child.children or ()).strip(),
                title=str(title) if title else None,
                line=line,
            )


def _walk_images(children: Sequence[Token]) -> Iterable[Token]:
    for child in children:
        if child.type == "image":
            yield child
            yield from _walk_images(child.children or ())


def build_sections(
    text: str | Sequence[str],
    headings: Sequence[ParsedHeading],
    split_level: int,
    code: Collection[int] = frozenset(),
) -> tuple[Section, ...]:
    """Cut ``text`` at top-level headings of level <= ``split_level``.

    Text before the first such heading becomes a lead section (``heading=None``) when not
    blank. A section's text excludes its heading line; deeper headings stay inside it.
    ``text`` may be given as its lines (one entry per source line, an entry may hold
    several lines: ``dialects.prose``), which the headings' line spans index; then runs of
    blank lines outside ``code`` (line numbers) shrink to one, as a rewrite leaves some,
    and each section carries its ``code_lines`` (so chunking need not parse it again).
    """
    lines = text.split("\n") if isinstance(text, str) else list(text)
    squeeze = None if isinstance(text, str) else code
    cuts = [h for h in headings if h.top_level and h.heading.level <= split_level]
    sections: list[Section] = []
    first = cuts[0].start if cuts else len(lines)
    lead, lead_code = _section_text(lines, 0, first, squeeze)
    if lead:
        sections.append(Section(heading=None, trail=(), text=lead, code_lines=lead_code))
    stack: list[Heading] = []
    for position, item in enumerate(cuts):
        stop = cuts[position + 1].start if position + 1 < len(cuts) else len(lines)
        stack = [h for h in stack if h.level < item.heading.level] + [item.heading]
        body, body_code = _section_text(lines, item.end, stop, squeeze)
        sections.append(Section(item.heading, tuple(h.text for h in stack), body, body_code))
    return tuple(sections)


def _section_text(
    lines: Sequence[str], start: int, stop: int, squeeze: Collection[int] | None
) -> tuple[str, frozenset[int] | None]:
    """A section's text, blank lines trimmed (``trim_blank_lines``), and, with ``squeeze``,
    which of its lines are code."""
    if squeeze is None:
        return trim_blank_lines("\n".join(lines[start:stop])), None
    kept, code = _joined(lines, start, stop, squeeze)
    text, leading = _trimmed("\n".join(kept))
    return text, frozenset(line - leading for line in code if line >= leading)


def _joined(
    lines: Sequence[str], start: int, stop: int, squeeze: Collection[int]
) -> tuple[list[str], list[int]]:
    """Lines ``start:stop``, leaving out a blank line right after another blank line
    outside code (``squeeze``: code line numbers); and the numbers, in the joined text, of
    the code lines (an entry's last line is its source line: a label goes before it)."""
    kept: list[str] = []
    code: list[int] = []
    row = 0
    blank_before = False
    for index in range(start, min(stop, len(lines))):
        line = lines[index]
        blank = not line.strip()
        if not (blank and blank_before and index not in squeeze):
            kept.append(line)
            row += line.count("\n") + 1
            if index in squeeze:
                code.append(row - 1)
        blank_before = blank
    return kept, code


def trim_blank_lines(text: str) -> str:
    """Drop leading blank lines and trailing whitespace, keeping the first line's indent."""
    return _trimmed(text)[0]


def _trimmed(text: str) -> tuple[str, int]:
    """``trim_blank_lines(text)`` and the number of leading lines it dropped."""
    lines = text.split("\n")
    leading = 0
    while leading < len(lines) and not lines[leading].strip():
        leading += 1
    return "\n".join(lines[leading:]).rstrip(), leading


def first_h1(headings: Sequence[ParsedHeading]) -> str | None:
    """Text of the first top-level level-1 heading, if any (a title fallback)."""
    for item in headings:
        if item.top_level and item.heading.level == 1:
            return item.heading.text
    return None
