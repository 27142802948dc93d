"""Authored links the reader cannot follow (pure): the diagnostics of ``askdocs corpus``
and the admin page list.

A link is unresolved when it points inside the docs (a relative or absolute path, or an
``#anchor``) and the reader renders it as its label only: no readable page at that path,
or no such anchor on this page. A link to a page whose anchor is not among the target's
heading ids opens the page at its top; it is listed too (``anchor not found``). Links to
the web (``http(s)``, ``mailto``) are never checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from askdocs.corpus.dialects import DIALECTS, Dialect
from askdocs.reader.article import link_context
from askdocs.reader.links import resolve_link
from askdocs.reader.markup import MarkupJob, render_markup
from askdocs.types import Page


@dataclass(frozen=True)
class LinkProblem:
    path: str  # the page's path in its root
    href: str
    reason: str  # "no such page" | "anchor not found"


def unresolved_links(pages: Sequence[Page], readable: Sequence[Page]) -> list[LinkProblem]:
    """The links of ``pages`` that do not open a page of ``readable`` where they point."""
    found: list[LinkProblem] = []
    for page in pages:
        found.extend(_page_links(page, readable))
    return found


def _page_links(page: Page, readable: Sequence[Page]) -> Iterable[LinkProblem]:
    ids = tuple(heading.section_id for heading in page.headings)
    markup = render_markup(MarkupJob(page.body, ids, dialect=_dialect(page.dialect)))
    context = link_context(page, readable)
    for ref in markup.links:
        parts = urlsplit(ref.href)
        if parts.scheme or parts.netloc or not ref.href:
            continue
        resolved = resolve_link(ref.href, context)
        if resolved is None:
            reason = "anchor not found" if not parts.path else "no such page"
            yield LinkProblem(page.path, ref.href, reason)
        elif parts.fragment and "#" not in resolved.href and unquote(parts.fragment):
            yield LinkProblem(page.path, ref.href, "anchor not found")


def _dialect(name: str) -> Dialect:
    return next((known for known in DIALECTS if known == name), "gfm")
