"""Turning one page's placeholder markup into a finished, sanitised article (pure).

The caller supplies the link context (which articles exist) and a function that says
whether an image reference is an asset; everything else is decided here: link targets,
image URLs, the table of contents, the output size bound and the final nh3 pass.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import quote

from askdocs.reader.links import ArticleTarget, LinkContext, ResolvedLink, resolve_link
from askdocs.reader.markup import ImageRef, Markup
from askdocs.reader.pool import RenderFailed
from askdocs.reader.sanitize import ASSET_PREFIX, finish, sanitize_html
from askdocs.reader.schemas import TocEntry
from askdocs.types import Page

ImageCheck = Callable[[ImageRef], str | None]  # image -> its asset id, or None (refused)
TOC_MAX_LEVEL = 3


@dataclass(frozen=True)
class Body:
    html: str
    toc: list[TocEntry]
    title_anchor: str | None
    linked: list[str]  # slugs of the articles this one links to, in order


def asset_url(slug: str, asset_id: str) -> str:
    return f"{ASSET_PREFIX}{quote(slug, safe='/')}/{asset_id}"


def link_context(page: Page, pages: Iterable[Page]) -> LinkContext:
    """Every readable file of ``page``'s root, and every readable slug, with their anchors
    (heading ids, explicit anchors, and the dialect's ids of headings the reader renamed)."""
    anchors: dict[str, set[str]] = {}
    aliases: dict[str, dict[str, str]] = {}
    for other in pages:
        anchors.setdefault(other.slug, set()).update(h.section_id for h in other.headings)
        anchors[other.slug].update(other.anchors)
        aliases.setdefault(other.slug, {}).update(other.anchor_aliases)
    targets = {
        slug: ArticleTarget(slug, frozenset(ids), aliases.get(slug, {}))
        for slug, ids in anchors.items()
    }
    files: dict[str, ArticleTarget] = {}
    labels: dict[str, ArticleTarget] = {}
    for other in pages:
        if other.root == page.root:
            files[other.path] = targets[other.slug]
            if page.dialect == "myst":
                labels.update((label, targets[other.slug]) for label in other.anchors)
    directory = page.dialect == "mkdocs"
    return LinkContext(page.path, page.slug, files, targets, directory, labels)


def render_body(
    page: Page,
    markup: Markup,
    context: LinkContext,
    check_image: ImageCheck,
    max_chars: int,
) -> Body:
    """Resolve links and images, sanitise, and bound the size of the result."""
    if markup.weight > max_chars:
        raise RenderFailed(f"rendered HTML is too large (up to {markup.weight} characters)")
    links = {ref.n: resolve_link(ref.href, context) for ref in markup.links}
    images = {ref.n: _image_url(page.slug, check_image(ref)) for ref in markup.images}
    html = sanitize_html(finish(markup, links, images))
    if len(html) > max_chars:
        raise RenderFailed(f"rendered HTML is too large ({len(html)} characters)")
    title_anchor = page.headings[0].section_id if markup.title_omitted else None
    return Body(html, toc_of(page, markup.title_omitted), title_anchor, _linked(links))


TOC_MAX_ENTRIES = 200
TOC_MAX_TEXT = 200


def toc_of(page: Page, title_omitted: bool) -> list[TocEntry]:
    """Headings of level 2-3 (a further level-1 heading counts as level 2), or the levels
    a VitePress ``outline`` front matter names; title excluded; at most
    ``TOC_MAX_ENTRIES`` of them, each text at most ``TOC_MAX_TEXT`` characters (a page of
    40,000 headings must not answer with a 4 MB table of contents)."""
    headings = page.headings[1:] if title_omitted else page.headings
    low, high = outline_levels(page.meta.get("outline"))
    entries = []
    for heading in headings:
        level = max(heading.level, 2)
        if low <= level <= high:
            text = heading.text[:TOC_MAX_TEXT]
            entries.append(TocEntry(id=heading.section_id, text=text, level=level))
            if len(entries) == TOC_MAX_ENTRIES:
                break
    return entries


def outline_levels(outline: object) -> tuple[int, int]:
    """VitePress's ``outline``: ``false`` none, ``n`` one level, ``[a, b]`` a range,
    ``deep`` levels 2-6; absent or unreadable: levels 2-3."""
    if outline is False:
        return (7, 0)
    if outline == "deep":
        return (2, 6)
    if isinstance(outline, int) and not isinstance(outline, bool) and 1 <= outline <= 6:
        return (max(outline, 2), outline)
    if isinstance(outline, list) and len(outline) == 2 and all(isinstance(v, int) for v in outline):
        return (max(int(outline[0]), 2), int(outline[1]))
    return (2, TOC_MAX_LEVEL)


def output_limit(body: str, max_bytes: int, amplification: int) -> int:
    """Largest HTML accepted for ``body``: ``amplification`` x its size (64 KiB at least),
    never more than ``max_bytes``."""
    return min(max_bytes, max(64 * 1024, amplification * len(body)))


def _image_url(slug: str, asset_id: str | None) -> str | None:
    return asset_url(slug, asset_id) if asset_id else None


def _linked(links: Mapping[int, ResolvedLink | None]) -> list[str]:
    slugs = (link.slug for _, link in sorted(links.items()) if link and link.slug)
    return list(dict.fromkeys(slugs))
