"""Building ``Page`` values from Markdown text the way the corpus does (pure helpers)."""

from __future__ import annotations

from askdocs.corpus.documents import ParseOptions, parse_document
from askdocs.reader.article import Body, link_context, output_limit, render_body
from askdocs.reader.markup import MarkupJob, render_markup
from askdocs.types import Page

OPTIONS = ParseOptions(("en", "cs", "sk"), "en", 3)


def page_from(text: str, path: str = "page.md", slug: str | None = None, root: str = "/r") -> Page:
    doc = parse_document(text, path, OPTIONS)
    return Page(
        site="t",
        root=root,
        path=path,
        slug=slug or doc.path_slug,
        title=doc.title,
        locale=doc.locale,
        audience="user",
        order=None,
        description=None,
        body=doc.body,
        headings=doc.headings,
        sections=doc.sections,
        meta=dict(doc.front.meta),
    )


def render(page: Page, others: tuple[Page, ...] = (), images: dict[str, str] | None = None) -> Body:
    """Render in-process (no worker): images named in ``images`` (src -> asset id) pass."""
    markup = render_markup(MarkupJob(page.body, tuple(h.section_id for h in page.headings)))
    context = link_context(page, (page, *others))
    allowed = images or {}
    limit = output_limit(page.body, 2 * 1024 * 1024, 10)
    return render_body(page, markup, context, lambda ref: allowed.get(ref.src), limit)
