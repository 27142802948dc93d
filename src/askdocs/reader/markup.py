"""Markdown to placeholder HTML: the part of rendering that may be slow, run in a worker.

Pure and context-free: it knows nothing of other pages, files or URLs. Links and images
come out as placeholders (``<askdocs-link n="3">``, ``<askdocs-link-end n="3">``,
``<askdocs-img n="4">``) with their targets listed beside the HTML, so the caller decides
what each one becomes (``reader.finish``). Source HTML never passes through (see
``reader.dialect_html``), so any ``<`` from the source is escaped or rebuilt from an
allowlist, and a placeholder can only come from here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from askdocs.corpus.dialects import Dialect
from askdocs.corpus.dialects.parser import make_dialect_parser
from askdocs.reader.dialect_html import add_dialect_rules

MARKUP_VERSION = "4"
# The corpus's heading attribute block ("{#id}", "{ #id }", "{: #id .class }"), removed
# from the visible heading text exactly as the corpus removes it from ``Heading.text``.
_ATTRIBUTE_ID = re.compile(
    r"\s*\{:?\s*(?:#[\w][\w.:-]*(?:\s+[^}]*)?"
    r"|(?:[^{}]*?\s)?id=([\"']?)[\w][\w.:-]*\1[^{}]*?)\s*\}\s*$"
)
_ALIGN = re.compile(r"text-align:(left|right|center)")


@dataclass(frozen=True)
class MarkupJob:
    body: str
    heading_ids: tuple[str, ...]
    omit_title: bool = True
    dialect: Dialect = "gfm"


@dataclass(frozen=True)
class ImageRef:
    n: int
    src: str
    alt: str
    title: str | None
    line: int | None
    alt_html: str = ""  # the alt text as inline HTML (code spans kept), shown when refused


@dataclass(frozen=True)
class LinkRef:
    n: int
    href: str
    title: str | None


@dataclass(frozen=True)
class Markup:
    html: str
    images: tuple[ImageRef, ...]
    links: tuple[LinkRef, ...]
    title_omitted: bool

    @property
    def weight(self) -> int:
        """Characters the finished HTML can hold at most before sanitising: the markup plus
        every link and image target and text that a placeholder may expand into."""
        links = sum(len(ref.href) + len(ref.title or "") + 64 for ref in self.links)
        images = sum(
            len(ref.src) + 2 * len(ref.alt) + len(ref.title or "") + 96 for ref in self.images
        )
        return len(self.html) + links + images


def make_renderer(dialect: Dialect = "gfm") -> MarkdownIt:
    """The corpus's parser for ``dialect`` (``corpus.dialects.parser``: the very headings
    the corpus found, in the same order), plus the placeholder rules and the dialect
    rules (``reader.dialect_html``). Source HTML is tokenised but never passed through."""
    md = make_dialect_parser(dialect)
    add_dialect_rules(md)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    md.add_render_rule("image", _image)
    md.add_render_rule("title_anchor", _title_anchor)
    return md


def render_markup(job: MarkupJob, md: MarkdownIt | None = None) -> Markup:
    md = md or make_renderer(job.dialect)
    tokens = md.parse(job.body)
    title_omitted = job.omit_title and _omit_title(tokens)
    _prepare(tokens, job.heading_ids, first_is_title=title_omitted)
    env: dict[str, Any] = {"images": [], "links": [], "open": [], "count": 0}
    html = md.renderer.render(tokens, md.options, env)
    return Markup(html, tuple(env["images"]), tuple(env["links"]), title_omitted)


def _omit_title(tokens: list[Token]) -> bool:
    """The page title's H1 (the first block, after dropped MDX imports) becomes an empty
    anchor span."""
    while len(tokens) >= 2 and _dropped(tokens[0]) and tokens[1].type == "dialect_close":
        del tokens[0:2]
    if len(tokens) < 3 or tokens[0].type != "heading_open" or tokens[0].tag != "h1":
        return False
    anchor = Token("title_anchor", "span", 0)
    tokens[0:3] = [anchor]
    return True


def _dropped(token: Token) -> bool:
    block = token.meta.get("block") if token.type == "dialect_open" else None
    return getattr(block, "kind", "") == "dropped"


def _prepare(tokens: list[Token], ids: Sequence[str], *, first_is_title: bool) -> None:
    position = 0
    if first_is_title:
        tokens[0].attrSet("id", _heading_id(ids, 0))
        position = 1
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            token.attrSet("id", _heading_id(ids, position))
            position += 1
            _strip_attribute_id(tokens[index + 1])
        if token.type in ("heading_open", "heading_close") and token.tag == "h1":
            token.tag = "h2"  # the reader header owns the single H1
        if token.type in ("th_open", "td_open"):
            _align_class(token)
        if token.type == "inline" and token.children:
            line = token.map[0] + 1 if token.map else None
            for child in token.children:
                child.meta["line"] = line


def _heading_id(ids: Sequence[str], position: int) -> str:
    return ids[position] if position < len(ids) else f"section-{position + 1}"


def _strip_attribute_id(inline: Token) -> None:
    children = inline.children or []
    if children and children[-1].type == "text":
        children[-1].content = _ATTRIBUTE_ID.sub("", children[-1].content)


def _align_class(token: Token) -> None:
    style = token.attrGet("style")
    token.attrs.pop("style", None)
    match = _ALIGN.fullmatch(str(style)) if style else None
    if match:
        token.attrSet("class", f"align-{match.group(1)}")


def _next_number(env: dict[str, Any]) -> int:
    env["count"] += 1
    number: int = env["count"]
    return number


def _link_open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    number = _next_number(env)
    title = token.attrGet("title")
    env["links"].append(LinkRef(number, str(token.attrGet("href") or ""), _opt(title)))
    env["open"].append(number)
    return f'<askdocs-link n="{number}">'


def _link_close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    number = env["open"].pop() if env["open"] else 0
    return f'<askdocs-link-end n="{number}">'


def _image(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    number = _next_number(env)
    alt = self.renderInlineAsText(token.children or [], options, env)
    shown = "".join(_alt_html(child) for child in token.children or [])
    src = str(token.attrGet("src") or "")
    line = token.meta.get("line")
    title = _opt(token.attrGet("title"))
    env["images"].append(ImageRef(number, src, alt, title, line, shown))
    return f'<askdocs-img n="{number}">'


def _alt_html(child: Token) -> str:
    """An image's alt text, piece by piece: code spans as ``<code>``, the rest escaped."""
    if child.type == "code_inline":
        return f"<code>{escapeHtml(child.content)}</code>"
    if child.type in ("text", "softbreak", "hardbreak"):
        return escapeHtml(child.content or " ")
    return ""


def _title_anchor(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    ident = escapeHtml(str(tokens[idx].attrGet("id") or ""))
    return f'<span id="{ident}" class="doc-title-anchor"></span>\n'


def _opt(value: str | int | float | None) -> str | None:
    return None if value is None or value == "" else str(value)
