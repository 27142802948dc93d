"""Link targets: known articles by file or slug, stable anchors, http(s)/mailto; nothing else."""

from __future__ import annotations

import pytest

from askdocs.reader.links import (
    ArticleTarget,
    LinkContext,
    contained_path,
    local_image_path,
    resolve_link,
)

TARGETS = {
    "guide/install": ArticleTarget("guide/install", frozenset({"pip", "source"})),
    "guide/configure": ArticleTarget("guide/configure", frozenset({"cache"})),
    "index": ArticleTarget("index", frozenset({"links"})),
}
CONTEXT = LinkContext(
    source_path="guide/install.md",
    source_slug="guide/install",
    files={
        "guide/install.md": TARGETS["guide/install"],
        "guide/install.cs.md": TARGETS["guide/install"],
        "guide/configure.md": TARGETS["guide/configure"],
        "index.md": TARGETS["index"],
    },
    slugs=TARGETS,
)


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("configure.md", "/docs/guide/configure"),
        ("configure.md#cache", "/docs/guide/configure#cache"),
        ("configure.md#unknown", "/docs/guide/configure"),
        ("./configure.md", "/docs/guide/configure"),
        ("../index.md#links", "/docs/index#links"),
        ("install.cs.md#pip", "/docs/guide/install#pip"),
        ("#pip", "#pip"),
        ("/docs/guide/configure", "/docs/guide/configure"),
        ("/guide/configure/", "/docs/guide/configure"),
        ("configure", "/docs/guide/configure"),
        ("https://example.com/a?b=c#d", "https://example.com/a?b=c#d"),
        ("HTTP://example.com", "HTTP://example.com"),
        ("mailto:someone@example.com", "mailto:someone@example.com"),
    ],
)
def test_known_targets_resolve(href: str, expected: str) -> None:
    resolved = resolve_link(href, CONTEXT)
    assert resolved is not None
    assert resolved.href == expected


@pytest.mark.parametrize(
    "href",
    [
        "",
        "missing.md",
        "../../outside.md",
        "../../../etc/passwd",
        "%2e%2e/%2e%2e/etc/passwd",
        "/etc/passwd",
        "#nope",
        "//evil.example/x",
        "javascript:alert(1)",
        "data:text/html,x",
        "file:///etc/passwd",
        "ftp://example.com/x",
        "https:/no-host",
        "..\\..\\windows",
        "configure.md\x00.png",
        "/docs/unknown",
        "mailto://x@example.com",
        "../NOTICE",
        "img/logo.png",
    ],
)
def test_unknown_targets_render_as_text(href: str) -> None:
    assert resolve_link(href, CONTEXT) is None


@pytest.mark.parametrize(
    ("source", "relative", "expected"),
    [
        ("a/b.md", "c.png", "a/c.png"),
        ("a/b.md", "../c.png", "c.png"),
        ("a/b.md", "../../c.png", None),
        ("b.md", "./img/x.png", "img/x.png"),
        ("b.md", "/abs.png", None),
        ("b.md", "..", None),
        ("b.md", ".", None),
        ("b.md", "", None),
        ("b.md", "a\\b.png", None),
    ],
)
def test_contained_path(source: str, relative: str, expected: str | None) -> None:
    assert contained_path(source, relative) == expected


@pytest.mark.parametrize(
    "src",
    [
        "https://example.com/a.png",
        "//example.com/a.png",
        "data:image/png;base64,AAAA",
        "file:///etc/passwd",
        "a.png?x=1",
        "a.png#frag",
        "../../a.png",
        "%2e%2e/%2e%2e/a.png",
    ],
)
def test_image_sources_that_are_never_local(src: str) -> None:
    assert local_image_path(src, "guide/page.md") is None


def test_local_image_path_decodes_once() -> None:
    assert local_image_path("img/my%20logo.png", "guide/page.md") == "guide/img/my logo.png"
    assert local_image_path("img/%252e.png", "page.md") == "img/%2e.png"


SITE = {
    "index": ArticleTarget("index", frozenset({"intro"})),
    "guide/index": ArticleTarget("guide/index", frozenset({"start"})),
    "guide/features": ArticleTarget(
        "guide/features", frozenset({"hmr", "search-1"}), {"search": "search-1"}
    ),
    "reference/objects": ArticleTarget("reference/objects", frozenset({"x"})),
}
SITE_FILES = {
    "index.md": SITE["index"],
    "guide/index.md": SITE["guide/index"],
    "guide/features.md": SITE["guide/features"],
    "reference/genai-objects.md": SITE["reference/objects"],  # a Docusaurus ``id`` renamed it
}


def site_context(source: str, slug: str, *, directory_urls: bool = False) -> LinkContext:
    return LinkContext(source, slug, SITE_FILES, SITE, directory_urls)


@pytest.mark.parametrize(
    ("source", "slug", "href", "expected"),
    [
        # VitePress / Docusaurus URLs: a folder is its index page, .html dropped
        ("blog/post.md", "blog/post", "/", "/docs/index"),
        ("blog/post.md", "blog/post", "/guide/#start", "/docs/guide/index#start"),
        ("index.md", "index", "./guide/", "/docs/guide/index"),
        ("index.md", "index", "./guide/features.html#hmr", "/docs/guide/features#hmr"),
        ("guide/index.md", "guide/index", "./features#hmr", "/docs/guide/features#hmr"),
        # Docusaurus: an absolute .md path is a file from the docs root
        ("index.md", "index", "/reference/genai-objects.md#x", "/docs/reference/objects#x"),
        # the reader keeps "search" for its own element: the heading answers as search-1
        ("index.md", "index", "guide/features.md#search", "/docs/guide/features#search-1"),
        ("guide/features.md", "guide/features", "#search", "#search-1"),
        # MkDocs Material's search links open the page itself
        ("guide/features.md", "guide/features", "?q=hmr", "/docs/guide/features"),
    ],
)
def test_links_resolve_where_the_dialect_build_sends_them(
    source: str, slug: str, href: str, expected: str
) -> None:
    resolved = resolve_link(href, site_context(source, slug))
    assert resolved is not None
    assert resolved.href == expected


def test_mkdocs_directory_urls_make_a_page_a_folder() -> None:
    mkdocs = site_context("guide/features.md", "guide/features", directory_urls=True)
    found = resolve_link("index.md", mkdocs)
    assert found is not None
    assert found.href == "/docs/guide/index"  # .md links stay file-relative
    page = resolve_link("../../#intro", mkdocs)
    assert page is not None
    assert page.href == "/docs/index#intro"
    assert resolve_link("../../#intro", site_context("guide/features.md", "guide/features")) is None


def test_myst_labels_resolve_from_any_page() -> None:
    """Sphinx resolves a MyST target, ``(label)=`` or a directive's ``:name:``, wherever it is."""
    labelled = ArticleTarget("syntax/optional", frozenset({"syntax/colon_fence"}))
    context = LinkContext(
        "index.md", "index", {}, {"index": SITE["index"], "syntax/optional": labelled},
        labels={"syntax/colon_fence": labelled},
    )  # fmt: skip
    by_anchor = resolve_link("#syntax/colon_fence", context)
    by_name = resolve_link("syntax/colon_fence", context)
    assert by_anchor is not None
    assert by_name is not None
    assert by_anchor.href == by_name.href == "/docs/syntax/optional#syntax%2Fcolon_fence"
    assert resolve_link("#nowhere", context) is None
