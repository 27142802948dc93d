"""Render rules for the dialect tokens (``corpus.dialects.tokens``): pure, escaped HTML.

* an admonition is ``<aside class="admonition note">`` with a title and an icon (a CSS
  glyph on ``.admonition-icon``); a collapsible one (``???``, ``/// details``) is
  ``<details class="admonition note">`` with the title as its ``<summary>``;
* ``<details><summary>`` stays a details element;
* a tab set is ``<div class="tabset">`` holding one ``<section class="tab-panel">`` per tab,
  each starting with its label (``<p class="tab-label">``): without JavaScript every panel
  shows with its label; ``reader.js`` turns the set into an accessible tab list (roles, roving
  tabindex, arrow keys) without any attribute passing the sanitiser;
* an mkdocstrings stub is a "Reference to ``name``" line, an unknown directive or an MDX
  component renders its title and body, an MDX ``import`` renders nothing;
* a MyST ``(label)=`` target is an empty ``<span id="label">`` anchor;
* HTML from the source never passes through: an HTML block's text is a paragraph, an
  ``<a id>`` an empty ``<span id>`` anchor, inline HTML only as a few bare tags
  (``<br>``, ``<b>``, ``<code>``...) rebuilt from their names, a JSX component by its prose,
  a VitePress ``<Badge>`` as ``<span class="badge badge-TYPE">`` with its text.

Only class values from ``CLASS_PATTERNS`` survive the sanitiser.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markdown_it.utils import OptionsDict

from askdocs.corpus.dialects import html
from askdocs.corpus.dialects.tokens import ADMONITION_TYPES, Block, readable_name

INLINE_TAGS = frozenset({"b", "strong", "i", "em", "code", "kbd", "sub", "sup", "s", "del"})
_MARKS = re.compile(r"\*\*|__|`")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_TYPE = re.compile(r"[a-z][a-z0-9-]{0,31}")
STACK = "dialect_stack"


def add_dialect_rules(md: MarkdownIt) -> None:
    md.add_render_rule("dialect_open", _open)
    md.add_render_rule("dialect_close", _close)
    md.add_render_rule("html_text", _html_text)
    md.add_render_rule("html_anchor", _html_anchor)
    md.add_render_rule("html_inline", _html_inline)
    md.add_render_rule("html_block", _html_text)
    md.add_render_rule("myst_target", _myst_target)
    md.add_render_rule("myst_line_comment", _nothing)


def _nothing(*_: Any) -> str:
    return ""


def _title(text: str) -> str:
    """A block title as HTML: code spans as ``<code>``, emphasis marks dropped, the rest
    escaped."""
    parts: list[str] = []
    position = 0
    text = text.strip()
    for match in _CODE_SPAN.finditer(text):
        parts.append(escapeHtml(_MARKS.sub("", text[position : match.start()])))
        parts.append(f"<code>{escapeHtml(match.group(2).strip())}</code>")
        position = match.end()
    parts.append(escapeHtml(_MARKS.sub("", text[position:])))
    return "".join(parts).strip()


def _type_class(name: str) -> str:
    name = name.lower()
    return name if name in ADMONITION_TYPES else "note" if not _TYPE.fullmatch(name) else name


def _open(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    block = tokens[idx].meta.get("block")
    stack: list[str] = env.setdefault(STACK, [])
    if not isinstance(block, Block):
        stack.append("")
        return ""
    opening, closing = _markup(block)
    stack.append(closing)
    if block.anchor:
        return f'<span id="{escapeHtml(block.anchor)}"></span>\n{opening}'
    return opening


def _close(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    stack: list[str] = env.setdefault(STACK, [])
    return stack.pop() if stack else ""


def _markup(block: Block) -> tuple[str, str]:
    kind = block.kind
    if kind == "admonition":
        return _admonition(block)
    if kind == "details":
        state = " open" if block.collapsible == "open" else ""
        summary = _title(block.title) or "Details"
        return f'<details class="details"{state}><summary>{summary}</summary>\n', "</details>\n"
    if kind == "tabset":
        return '<div class="tabset">\n', "</div>\n"
    if kind == "tab":
        label = _title(block.title) or "Tab"
        return f'<section class="tab-panel"><p class="tab-label">{label}</p>\n', "</section>\n"
    if kind == "reference":
        name = escapeHtml(block.name)
        return f'<p class="doc-reference">Reference to <code>{name}</code></p>\n', ""
    if kind == "abbreviation":
        text = f"<abbr>{escapeHtml(block.name)}</abbr>: {escapeHtml(block.title)}"
        return f"<p>{text}</p>\n", ""
    if kind in ("component", "directive"):
        title = _directive_title(block)
        head = f'<p class="block-title">{title}</p>\n' if title else ""
        return f'<div class="doc-block">{head}', "</div>\n"
    return "", ""  # dropped: MDX imports, toctree-like directives


def _directive_title(block: Block) -> str:
    if block.kind == "directive" and block.name:
        name = escapeHtml(readable_name(block.name))
        return f"{name}: {_title(block.title)}" if block.title else name
    return _title(block.title)


def _admonition(block: Block) -> tuple[str, str]:
    kind = _type_class(block.name or "note")
    title = _title(block.title) or escapeHtml(readable_name(block.name or "note"))
    icon = '<span class="admonition-icon" aria-hidden="true"></span>'
    if block.collapsible:
        state = " open" if block.collapsible == "open" else ""
        head = f'<summary class="admonition-title">{icon}{title}</summary>'
        return f'<details class="admonition {kind}"{state}>{head}\n', "</details>\n"
    head = f'<p class="admonition-title">{icon}{title}</p>'
    return f'<aside class="admonition {kind}">{head}\n', "</aside>\n"


def _myst_target(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    """A MyST ``(label)=`` target: an anchor others may link to, no visible text."""
    label = escapeHtml(tokens[idx].content.strip())
    return f'<span id="{label}"></span>\n' if label else ""


def _html_text(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    token = tokens[idx]
    text = token.content if token.type == "html_text" else html.strip_tags(token.content)
    text = " ".join(text.split())
    return f"<p>{escapeHtml(text)}</p>\n" if text else ""


def _html_anchor(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    ident = escapeHtml(str(tokens[idx].attrGet("id") or ""))
    return f'<span id="{ident}"></span>\n' if ident else ""


def _html_inline(
    self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: dict[str, Any]
) -> str:
    parts: list[str] = []
    for item in html.tags(tokens[idx].content):
        if isinstance(item, str):
            parts.append(escapeHtml(item))
            continue
        parts.append(_inline_tag(item))
    return "".join(parts)


BADGES = frozenset({"Badge", "VPBadge"})
BADGE_TYPES = ("info", "tip", "warning", "danger", "note", "important", "caution")


def _badge(tag: html.Tag) -> str:
    """VitePress's ``<Badge type="danger">advanced</Badge>`` (or ``text="..."``): a small
    badge element holding its text."""
    if tag.closing:
        return "</span>"
    kind = tag.attrs.get("type", "info")
    kind = kind if kind in BADGE_TYPES else "info"
    text = escapeHtml(tag.attrs.get("text", ""))
    end = "</span>" if tag.self_closing else ""
    return f'<span class="badge badge-{kind}">{text}{end}'


def _inline_tag(tag: html.Tag) -> str:
    name = tag.name.lower()
    if name == "br":
        return "<br>"
    if name in INLINE_TAGS:
        return f"</{name}>" if tag.closing else f"<{name}>"
    if name in ("a", "span") and not tag.closing:
        ident = tag.attrs.get("id") or (tag.attrs.get("name") if name == "a" else None)
        return f'<span id="{escapeHtml(ident)}"></span>' if ident else ""
    if tag.name in BADGES:
        return _badge(tag)
    if tag.component and not tag.closing:
        return escapeHtml(tag.prose)
    if name == "img" and not tag.closing:
        return escapeHtml(tag.attrs.get("alt", ""))
    if name == "input" and tag.attrs.get("type") == "checkbox":  # a task list item
        return "☑" if "checked" in tag.attrs else "☐"
    return ""
