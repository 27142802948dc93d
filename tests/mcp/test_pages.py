"""Finding pages and cutting sections for get_article / list_catalog (real corpus reads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from askdocs.errors import NotFound
from askdocs.ingest import CorpusSnapshot, read_site
from askdocs.mcp.pages import (
    article_output,
    catalog_pages,
    find_page,
    page_url,
    section_slice,
)
from askdocs.mcp.refs import split_ref
from askdocs.settings import CorpusSettings, SiteConfig
from askdocs.sites import folder_site
from tests.mcp.conftest import FIXTURE_DOCS


@pytest.fixture(scope="module")
def site() -> SiteConfig:
    return folder_site(FIXTURE_DOCS)


@pytest.fixture(scope="module")
def snapshot(site: SiteConfig) -> CorpusSnapshot:
    return read_site(site, CorpusSettings())


@pytest.mark.parametrize(
    ("ref", "expected"),
    [
        ("guides/cors", ("guides/cors", None)),
        ("guides/cors.md", ("guides/cors.md", None)),
        ("/docs/guides/cors#credentials", ("guides/cors", "credentials")),
        (
            "https://docs.example.com/docs/guides/cors#allowed-origins",
            ("guides/cors", "allowed-origins"),
        ),
        ("/docs/developer/internals", ("internals", None)),
    ],
)
def test_split_ref(ref: str, expected: tuple[str, str | None]) -> None:
    assert split_ref(ref) == expected


@pytest.mark.parametrize(
    "ref", ["guides/cors", "guides/cors.md", "/docs/guides/cors#credentials", "guides/cors/"]
)
def test_find_page_by_slug_path_or_url(snapshot: CorpusSnapshot, ref: str) -> None:
    assert find_page(snapshot.pages, ref, "en", "en").path == "guides/cors.md"


def test_find_page_falls_back_to_the_default_locale(snapshot: CorpusSnapshot) -> None:
    page = find_page(snapshot.pages, "guides/cors", "fr", "en")
    assert (page.locale, page.translated) == ("en", False)


def test_unknown_page_says_what_to_do(snapshot: CorpusSnapshot) -> None:
    with pytest.raises(NotFound, match="list_catalog") as caught:
        find_page(snapshot.pages, "guides/nope", "en", "en")
    assert caught.value.code == "page_not_found"


def test_section_by_anchor_or_heading_keeps_its_subsections(snapshot: CorpusSnapshot) -> None:
    page = find_page(snapshot.pages, "guides/cors", "en", "en")
    by_anchor = section_slice(page, "credentials")
    by_heading = section_slice(page, "Credentials")
    assert by_anchor == by_heading
    assert [s.heading.text for s in by_anchor if s.heading] == ["Credentials", "Preflight caching"]


def test_unknown_section_lists_the_sections(snapshot: CorpusSnapshot) -> None:
    page = find_page(snapshot.pages, "guides/cors", "en", "en")
    with pytest.raises(NotFound, match="allowed-origins, credentials") as caught:
        section_slice(page, "nope")
    assert caught.value.code == "section_not_found"


def test_article_of_one_section_cites_it(site: SiteConfig, snapshot: CorpusSnapshot) -> None:
    page = find_page(snapshot.pages, "guides/cors", "en", "en")
    article = article_output(site, page, "credentials")
    assert article.markdown.startswith("## Credentials\n\nTo let browsers send cookies")
    assert "### Preflight caching" in article.markdown
    assert "## Allowed origins" not in article.markdown
    assert article.citation.url == "/docs/guides/cors#credentials"
    assert article.citation.file == str(Path(FIXTURE_DOCS) / "guides" / "cors.md")
    assert [s.anchor for s in article.sections][1:] == [
        "allowed-origins",
        "credentials",
        "preflight-caching",
    ]


def test_whole_article_is_the_page_body(site: SiteConfig, snapshot: CorpusSnapshot) -> None:
    page = find_page(snapshot.pages, "guides/routing.md", "en", "en")
    article = article_output(site, page, None)
    assert article.markdown == page.body.strip() + "\n"
    assert (article.citation.heading, article.citation.anchor) == ("Routing", "")
    assert article.citation.url == "/docs/guides/routing"


def test_catalog_is_in_reading_order(site: SiteConfig, snapshot: CorpusSnapshot) -> None:
    pages = catalog_pages(site, snapshot.pages, "en")
    assert [p.path for p in pages] == [
        "index.md",
        "guides/routing.md",
        "guides/testing.md",
        "guides/cors.md",
    ]
    assert pages[-1].description == "Let browsers on other origins call your API."
    assert catalog_pages(site, snapshot.pages, "fr") == []


def test_page_url_follows_the_site_template(snapshot: CorpusSnapshot) -> None:
    site = folder_site(FIXTURE_DOCS).model_copy(
        update={"user_url_template": "https://docs.example.com/{locale}/{slug}#{anchor}"}
    )
    page = find_page(snapshot.pages, "guides/cors", "en", "en")
    assert (
        page_url(site, page, "credentials") == "https://docs.example.com/en/guides/cors#credentials"
    )
    assert page_url(site, page) == "https://docs.example.com/en/guides/cors"
