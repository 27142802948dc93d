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
