"""The agent-facing text views of a site (pure): ``/llms.txt``, ``/llms-full.txt`` and one
page as Markdown (``/docs/{slug}.md``).

``llms.txt`` follows llmstxt.org: an H1 with the site's name, a one-line summary, then
one H2 per reader category with one line per page, ``- [Title](url): description``, in
reading order. ``llms-full.txt`` is every page's Markdown in the same order. Only what the
reader shows is included: the caller passes the reader's pages (user pages of a public,
live site).
"""

from __future__ import annotations

from collections.abc import Sequence

from askdocs.reader.catalog import categorise
from askdocs.types import Page

MARKDOWN_SUFFIX = ".md"


def markdown_url(slug: str, base: str = "") -> str:
    """Where a page's Markdown is served: ``/docs/{slug}.md`` (absolute with ``base``)."""
    return f"{base.rstrip('/')}/docs/{slug}{MARKDOWN_SUFFIX}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def page_markdown(page: Page, base: str = "") -> str:
    """The page's Markdown, opened by its title unless the body already starts with one."""
    body = page.body.strip()
    title = "" if body.startswith("# ") else f"# {_one_line(page.title)}\n\n"
    source = f"<!-- source: {markdown_url(page.slug, base)} -->\n"
    return f"{source}{title}{body}\n"


def llms_index(name: str, pages: Sequence[Page], locale: str, base: str = "") -> str:
    """The site map: one line per page, grouped by the reader's categories."""
    lines = [
        f"# {_one_line(name)}",
        "",
        f"> Documentation of {_one_line(name)}: {len(pages)} pages. Each link is the page "
        "as Markdown; /llms-full.txt has every page in one file.",
    ]
    by_slug = {page.slug: page for page in pages}
    for category in categorise(pages, locale):
        lines += ["", f"## {_one_line(category.label)}", ""]
        for article in category.articles:
            page = by_slug[article.slug]
            line = f"- [{_one_line(page.title)}]({markdown_url(page.slug, base)})"
            if page.description:
                line += f": {_one_line(page.description)}"
            lines.append(line)
    return "\n".join(lines) + "\n"


def llms_full(name: str, pages: Sequence[Page], locale: str, base: str = "") -> str:
    """Every page's Markdown in reading order, separated by rules."""
    ordered = [
        page
        for category in categorise(pages, locale)
        for article in category.articles
        for page in pages
        if page.slug == article.slug
    ]
    parts = [f"# {_one_line(name)}\n"] + [page_markdown(page, base) for page in ordered]
    return "\n---\n\n".join(parts)
