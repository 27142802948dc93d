"""Where a link in an article may point: known articles, their anchors, or the open web.

Pure. A link resolves to a reader URL (``/docs/<slug>#<anchor>``) when it names a known
article (by slug, or by a Markdown file relative to the source), to itself when it is an
``http(s)``/``mailto`` URL, and to nothing otherwise: an unknown target is rendered as its
label, never guessed into a public URL. Image sources are only ever local files inside the
page's docs root; their relative path is computed here, the bytes are checked elsewhere.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import quote, unquote, urlsplit

_EXTERNAL_SCHEMES = frozenset({"http", "https"})
_MARKDOWN_SUFFIXES = (".md", ".mdx")


@dataclass(frozen=True)
class ArticleTarget:
    slug: str
    anchors: frozenset[str]
    aliases: Mapping[str, str] = field(default_factory=dict)  # a dialect's id -> the reader's

    def anchor(self, fragment: str | None) -> str | None:
        """The reader's id of the anchor ``fragment`` names on this article, if any."""
        if fragment is None or fragment in self.anchors:
            return fragment
        return self.aliases.get(fragment)


@dataclass(frozen=True)
class LinkContext:
    """What one article's links can reach.

    ``files`` maps a file path relative to the source's docs root (every locale variant)
    to its article; ``slugs`` maps every readable slug to its article.
    """

    source_path: str
    source_slug: str
    files: Mapping[str, ArticleTarget]
    slugs: Mapping[str, ArticleTarget]
    directory_urls: bool = False  # MkDocs: a page is served as a folder, /guide/page/
    labels: Mapping[str, ArticleTarget] = field(default_factory=dict)  # MyST: site-wide


@dataclass(frozen=True)
class ResolvedLink:
    href: str
    external: bool
    slug: str | None = None


def article_href(slug: str, anchor: str | None = None) -> str:
    path = "/docs/" + quote(slug, safe="/")
    return f"{path}#{quote(anchor, safe='')}" if anchor else path


def resolve_link(href: str, context: LinkContext) -> ResolvedLink | None:
    """The URL a Markdown link becomes, or None to render only its label."""
    if not href or any(ch in href for ch in "\\\x00\r\n\t"):
        return None
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return _external(href, parts.scheme, parts.netloc)
    fragment = unquote(parts.fragment) or None
    if not parts.path:
        return _anchor_only(fragment, parts.query, context)
    target = _internal_target(unquote(parts.path), context)
    if target is None:
        return _label(unquote(parts.path), context) if not fragment else None
    anchor = target.anchor(fragment)
    return ResolvedLink(article_href(target.slug, anchor), external=False, slug=target.slug)


def _external(href: str, scheme: str, netloc: str) -> ResolvedLink | None:
    scheme = scheme.lower()
    if scheme in _EXTERNAL_SCHEMES and netloc:
        return ResolvedLink(href, external=True)
    if scheme == "mailto" and not netloc:
        return ResolvedLink(href, external=True)
    return None


def _anchor_only(fragment: str | None, query: str, context: LinkContext) -> ResolvedLink | None:
    """``#anchor`` on this page; a bare ``?query`` (MkDocs Material's search links) opens
    the page itself."""
    own = context.slugs.get(context.source_slug)
    if own is None:
        return None
    if fragment is None:
        return ResolvedLink(article_href(own.slug), external=False) if query else None
    anchor = own.anchor(fragment)
    if anchor:
        return ResolvedLink("#" + quote(anchor, safe=""), external=False)
    return _label(fragment, context)


def _label(label: str, context: LinkContext) -> ResolvedLink | None:
    """A MyST target, ``(label)=`` or a directive's ``:name:``: Sphinx resolves one from any
    page of the project."""
    target = context.labels.get(label)
    if target is None:
        return None
    href = article_href(target.slug, label)
    return ResolvedLink(href, external=False, slug=target.slug)


def _internal_target(path: str, context: LinkContext) -> ArticleTarget | None:
    if path.startswith("/"):
        return _absolute_target(path, context)
    if path.endswith(_MARKDOWN_SUFFIXES):
        joined = contained_path(context.source_path, path)
        return context.files.get(joined) if joined else None
    base = posixpath.dirname(_url_base(context))
    relative = posixpath.normpath(posixpath.join(base, path.rstrip("/") or "."))
    if relative == ".." or relative.startswith(("../", "/")):
        return None
    return _slug_target(relative, context)


def _url_base(context: LinkContext) -> str:
    """What a URL-relative link is relative to: the page's slug as a file (``./b`` from
    ``guide/a`` is ``guide/b``), or with MkDocs' directory URLs as a folder (``../b/``
    from ``guide/a/`` is ``guide/b``); an index page is its folder either way."""
    slug = context.source_slug
    if context.directory_urls and not _is_index(slug):
        return f"{slug}/index"
    return slug


def _is_index(slug: str) -> bool:
    return slug == "index" or slug.endswith("/index")


def _absolute_target(path: str, context: LinkContext) -> ArticleTarget | None:
    """``/docs/tutorial/cors``, ``/tutorial/cors/`` or ``/guide/`` name a slug directly;
    ``/guide/setup.md`` a file from the docs root (Docusaurus)."""
    slug = path.strip("/")
    if slug.endswith(_MARKDOWN_SUFFIXES) and slug in context.files:
        return context.files[slug]
    if slug.startswith("docs/") and slug not in context.slugs:
        slug = slug.removeprefix("docs/")
    return _slug_target(slug, context)


def _slug_target(slug: str, context: LinkContext) -> ArticleTarget | None:
    """The article of ``slug`` as a built site addresses it: its suffix (``.md``,
    ``.html``) dropped, a folder meaning its index page."""
    for suffix in (*_MARKDOWN_SUFFIXES, ".html"):
        slug = slug.removesuffix(suffix)
    if slug in ("", "."):
        slug = "index"
    return context.slugs.get(slug) or context.slugs.get(f"{slug}/index")


def contained_path(source_path: str, relative: str) -> str | None:
    """``relative`` resolved against the folder of ``source_path``, or None if it leaves
    the root (``..`` above it), is absolute, or is empty."""
    if not relative or relative.startswith("/") or "\\" in relative or "\x00" in relative:
        return None
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(source_path), relative))
    if joined in (".", "..") or joined.startswith(("../", "/")):
        return None
    return joined


def local_image_path(src: str, source_path: str) -> str | None:
    """The docs-root-relative path of a local image reference, or None (remote, data:,
    absolute, escaping the root). Query strings and fragments refuse the image."""
    if not src or any(ch in src for ch in "\\\x00\r\n\t"):
        return None
    parts = urlsplit(src)
    if parts.scheme or parts.netloc or parts.query or parts.fragment:
        return None
    return contained_path(source_path, unquote(parts.path))
