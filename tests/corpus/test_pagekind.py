"""Page kinds (changelogs) and queries about versions."""

from __future__ import annotations

from askdocs.corpus.pagekind import (
    asks_about_versions,
    is_version_heading,
    kind_from_front_matter,
    kind_from_headings,
    kind_from_name,
    page_kind,
)
from askdocs.types import Heading


def headings(*texts: str) -> tuple[Heading, ...]:
    return tuple(Heading(2, text, text.lower(), n) for n, text in enumerate(texts))


def test_changelog_file_names() -> None:
    for path in ("release-notes.md", "docs/CHANGELOG.md", "whats_new.md", "about/Changes.mdx"):
        assert kind_from_name(path) == "changelog", path
    for path in ("tutorial/release.md", "history-design-future.md", "usage/history.md"):
        assert kind_from_name(path) is None, path


def test_front_matter_kind() -> None:
    assert kind_from_front_matter({"kind": "Release notes"}) == "changelog"
    assert kind_from_front_matter({"type": "changelog"}) == "changelog"
    assert kind_from_front_matter({"kind": "guide"}) == "guide"
    assert kind_from_front_matter({"type": 3, "kind": "tutorial"}) is None


def test_version_headings() -> None:
    for text in ("0.115.0", "v2.1.3 (2024-05-01)", "[1.2.0] - 2024-01-01", "Version 3.0"):
        assert is_version_heading(text), text
    for text in ("Configuration", "HTTP/2 support", "Python 3.8 and later", "Step 1"):
        assert not is_version_heading(text), text


def test_page_of_mostly_version_headings_is_a_changelog() -> None:
    assert kind_from_headings(headings("Latest", "1.2.0", "1.1.0", "1.0.1", "1.0.0")) == (
        "changelog"
    )
    assert kind_from_headings(headings("1.0", "2.0", "Install", "Use", "Configure")) is None
    assert kind_from_headings(headings("1.0", "2.0")) is None  # too few to tell


def test_configured_kind_comes_first() -> None:
    assert page_kind("CHANGELOG.md", {}, (), "guide") == "guide"
    assert page_kind("guide.md", {}, (), "changelog") == "changelog"
    assert page_kind("guide.md", {"kind": "changelog"}, ()) == "changelog"
    assert page_kind("guide.md", {}, headings("Install")) == "guide"


def test_queries_about_versions() -> None:
    for query in (
        "what changed in 0.100?",
        "how do I upgrade from v2 to v3",
        "which version added lifespan events",
        "release notes for the last release",
        "is this deprecated",
    ):
        assert asks_about_versions(query), query
    for query in ("how do I change the port", "add a header to every response"):
        assert not asks_about_versions(query), query
