"""Content-tab ids as ``pymdownx.tabbed`` makes them when ``mkdocs.yml`` sets its
``slugify`` (pure).

Without ``slugify`` a tab's id is a counter (``__tabbed_1_2``) no author links to, and
tabs get none here. With it (Material for MkDocs: ``slugify: pymdownx.slugs.slugify``,
``kwds: {case: lower}``), a tab's id is its label slugged (icon shortcodes removed), after
``combine_header_slug`` the id of the heading the tab set sits under and the separator
before it (``### Logo`` + ``=== ":octicons-image-16: Image"`` -> ``logo-image``), made
unique among the page's ids as Python-Markdown's ``toc.unique`` does (``_1``, ``_2``).
Only ``=== "Label"`` tabs are counted; ``/// tab`` blocks and code tabs are not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from markdown_it.token import Token

from askdocs.corpus.dialects.slugs import SlugStyle, dedupe, slug
from askdocs.corpus.dialects.tokens import Block

_ICON = re.compile(r":(?:material|fontawesome|octicons|simple)-[\w-]+:(?:\{[^}]*\})?")


@dataclass(frozen=True)
class TabSlugs:
    style: SlugStyle
    separator: str = "-"
    combine_header_slug: bool = False


def content_tabs(tokens: Sequence[Token]) -> list[Block]:
    """The ``=== "Label"`` tabs of a parse, in document order."""
    return [block for token in tokens if (block := _tab(token)) is not None]


def _tab(token: Token) -> Block | None:
    block = token.meta.get("block") if token.type == "dialect_open" else None
    if isinstance(block, Block) and block.kind == "tab" and block.indented:
        return block
    return None


def tab_ids(
    tokens: Sequence[Token],
    heading_ids: Mapping[int, str],
    used: Iterable[str],
    config: TabSlugs,
    reserved: Iterable[str] = (),
) -> tuple[str, ...]:
    """The id of each ``content_tabs`` tab; ``heading_ids`` maps a heading's token index
    to the build's id of it, ``used`` are the page's other ids; ``reserved`` ids (the
    reader's own elements) are never given, as headings never get them."""
    taken = set(used) | set(heading_ids.values()) | set(reserved)
    under: dict[int, str] = {}  # nesting level -> the last heading's id at that level
    found: list[str] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            _truncate(under, token.level)
            under[token.level] = heading_ids.get(index, "")
        elif token.nesting == -1:
            _truncate(under, token.level)
        block = _tab(token)
        if block is None:
            continue
        text = " ".join(_ICON.sub("", block.title).split())
        made = slug(text, config.style) if text else ""
        parent = _parent(under, token.level) if config.combine_header_slug else ""
        made = f"{parent}{config.separator}{made}" if parent else made
        found.append(dedupe(made, taken, SlugStyle("python-markdown")))
    return tuple(found)


def _truncate(under: dict[int, str], level: int) -> None:
    for deeper in [key for key in under if key > level]:
        del under[deeper]


def _parent(under: dict[int, str], level: int) -> str:
    levels = [key for key in under if key <= level]
    return under[max(levels)] if levels else ""
