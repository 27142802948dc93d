"""The reader API through the real ASGI app: statuses, codes, headers, locales, audience."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from askdocs.corpus.freshness import iso
from askdocs.server.app import create_app
from askdocs.service import AskDocs
from askdocs.settings import RootConfig, Settings, SiteConfig
from tests.reader.conftest import Tree
from tests.reader.fixtures import CANARY, SITE_ID, fixture_settings
from tests.reader.htmlcheck import elements, problems

pytestmark = pytest.mark.anyio


def code_of(response: httpx.Response) -> str:
    body = response.json()
    return str(body["error"]["code"])


async def test_catalog_lists_categories_and_ordered_user_articles(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/api/docs/catalog", params={"locale": "en"})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["site"] == "fx"
    assert [c["id"] for c in body["categories"]] == ["general", "guide", "admin"]
    guide = body["categories"][1]
    assert guide["label"] == "Guide"
    assert [a["slug"] for a in guide["articles"]] == ["guide/install", "guide/configure"]
    first = guide["articles"][0]
    assert set(first) == {
        "slug",
        "title",
        "description",
        "category",
        "audience",
        "audience_label",
        "order",
        "locale",
        "translated",
        "url",
    }
    assert "body" not in response.text
    assert "pip install" not in response.text


async def test_catalog_never_lists_developer_pages(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/docs/catalog", params={"locale": "en"})
    assert "Internal API" not in response.text
    article = await client.get("/api/docs/articles/api", params={"locale": "en"})
    assert article.status_code == 404
    assert code_of(article) == "article-not-found"
    assert "SECRET-DEV-NOTE" not in article.text


async def test_catalog_is_localised_and_marks_fallbacks(client: httpx.AsyncClient) -> None:
    body = (await client.get("/api/docs/catalog", params={"locale": "cs"})).json()
    labels = {c["id"]: c["label"] for c in body["categories"]}
    assert labels["general"] == "Obecné"
    assert labels["guide"] == "Průvodce"
    articles = {a["slug"]: a for c in body["categories"] for a in c["articles"]}
    assert articles["guide/install"]["title"] == "Instalace"
    assert articles["guide/install"]["locale"] == "cs"
    assert articles["guide/install"]["translated"]
    assert articles["guide/configure"]["locale"] == "en"
    assert articles["guide/configure"]["translated"] is False


async def test_administrator_guides_are_readable_with_their_label(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/api/docs/articles/admin/backup", params={"locale": "sk"})
    assert response.status_code == 200
    body = response.json()
    assert body["audience"] == "administrator"
    assert body["audience_label"] == "Príručka správcu"


@pytest.mark.parametrize("path", ["/api/docs/catalog", "/api/docs/articles/guide/install"])
@pytest.mark.parametrize("locale", [None, "", "de", "EN", "en-US", "../en"])
async def test_locale_is_required_and_checked(
    client: httpx.AsyncClient, path: str, locale: str | None
) -> None:
    params = {} if locale is None else {"locale": locale}
    response = await client.get(path, params=params)
    assert response.status_code == 400
    assert code_of(response) == "invalid-locale"


async def test_article_has_html_toc_neighbours_and_related(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/docs/articles/guide/install", params={"locale": "en"})
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-store"
    body = response.json()
    assert body["title"] == "Installing"
    assert body["locale"] == "en"
    assert body["translated"]
    assert body["toc"] == [
        {"id": "pip", "text": "Install with pip", "level": 2},
        {"id": "install-from-source", "text": "Install from source", "level": 2},
    ]
    assert body["previous"] is None
    assert body["next"]["slug"] == "guide/configure"
    assert [r["slug"] for r in body["related"]] == ["admin/backup"]
    assert '<h2 id="pip">Install with pip</h2>' in body["html"]
    assert (
        '<a href="/docs/guide/configure" rel="noopener noreferrer">configure it</a>' in body["html"]
    )


async def test_title_heading_is_omitted_but_its_anchor_survives(
    client: httpx.AsyncClient,
) -> None:
    body = (await client.get("/api/docs/articles/guide/install", params={"locale": "en"})).json()
    assert "<h1" not in body["html"]
    assert body["html"].startswith('<span id="installing" class="doc-title-anchor"></span>')
    assert body["title_anchor"] == "installing"


async def test_translated_article_and_english_fallback(client: httpx.AsyncClient) -> None:
    czech = (await client.get("/api/docs/articles/guide/install", params={"locale": "cs"})).json()
    assert czech["locale"] == "cs"
    assert czech["translated"] is True
    assert "Spusťte" in czech["html"]
    assert czech["category_label"] == "Průvodce"
    fallback = (
        await client.get("/api/docs/articles/guide/configure", params={"locale": "sk"})
    ).json()
    assert fallback["locale"] == "en"
    assert fallback["requested_locale"] == "sk"
    assert fallback["translated"] is False
    assert "Set <code>cache = true</code>" in fallback["html"]


async def test_table_alignment_becomes_classes(client: httpx.AsyncClient) -> None:
    body = (await client.get("/api/docs/articles/guide/configure", params={"locale": "en"})).json()
    assert '<th class="align-left">key</th>' in body["html"]
    assert '<td class="align-right"><code>false</code></td>' in body["html"]
    assert "style=" not in body["html"]


async def test_links_resolve_only_to_known_targets(client: httpx.AsyncClient) -> None:
    html = (await client.get("/api/docs/articles/index", params={"locale": "en"})).json()["html"]
    assert '<a href="/docs/guide/install" rel="noopener noreferrer">installing</a>' in html
    assert '<a href="/docs/guide/configure#cache-settings"' in html
    assert '<a href="/docs/guide/configure" rel="noopener noreferrer">by slug</a>' in html
    assert '<a href="https://example.com/x" rel="noopener noreferrer">external</a>' in html
    assert '<a href="mailto:a@example.com"' in html
    assert '<a href="#links" rel="noopener noreferrer">anchor here</a>' in html
    for label in ("Unknown page", "a folder", "outside", "developer page", "bad anchor"):
        assert f'<span class="doc-link-unresolved">{label}</span>' in html
    assert problems(html) == []
    hrefs = [e.attrs.get("href", "") for e in elements(html) if e.tag == "a"]
    assert not [h for h in hrefs if h.startswith(("javascript", "data"))]
    assert "missing.md" not in html
    assert "secret.txt" not in html
    assert "api.md" not in html


async def test_unknown_article_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/docs/articles/guide/nope", params={"locale": "en"})
    assert response.status_code == 404
    assert code_of(response) == "article-not-found"
    assert response.headers["cache-control"] == "no-store"


async def test_unknown_site_is_404(client: httpx.AsyncClient) -> None:
    response = await client.get("/api/docs/catalog", params={"locale": "en", "site": "other"})
    assert response.status_code == 404
    assert code_of(response) == "site_not_found"


async def test_valid_empty_catalog_is_200(tree: Tree) -> None:
    empty = tree.base / "empty"
    empty.mkdir()
    settings = Settings.model_validate(
        {
            "data_dir": tree.base / "data",
            "sites": [SiteConfig(id="empty", roots=[RootConfig(path=empty)])],
            "server": {"index_in_background": False},
        }
    )
    async with _client(create_app(settings, AskDocs(settings))) as http:
        response = await http.get("/api/docs/catalog", params={"locale": "en"})
    assert response.status_code == 200
    assert response.json()["categories"] == []


async def test_missing_docs_root_is_503(tree: Tree) -> None:
    settings = fixture_settings(tree.base)
    app = create_app(settings, AskDocs(settings))
    (tree.docs / "index.md").rename(tree.base / "moved.md")
    tree.docs.rename(tree.base / "gone")
    async with _client(app) as http:
        catalog = await http.get("/api/docs/catalog", params={"locale": "en"})
        article = await http.get("/api/docs/articles/guide/install", params={"locale": "en"})
    for response in (catalog, article):
        assert response.status_code == 503
        assert code_of(response) == "docs-unavailable"
        assert str(tree.base) not in response.text


async def test_invalid_front_matter_leaves_out_that_page_only(
    tree: Tree, client: httpx.AsyncClient
) -> None:
    (tree.docs / "guide" / "broken.md").write_text("---\norder: first\n---\n# Broken\n")
    response = await client.get("/api/docs/catalog", params={"locale": "en"})
    assert response.status_code == 200
    slugs = [a["slug"] for c in response.json()["categories"] for a in c["articles"]]
    assert "guide/broken" not in slugs
    assert "guide/install" in slugs


async def test_edits_are_seen_on_the_next_read(tree: Tree, client: httpx.AsyncClient) -> None:
    first = (await client.get("/api/docs/catalog", params={"locale": "en"})).json()
    path = tree.docs / "guide" / "configure.md"
    path.write_text(path.read_text().replace("Set `cache = true`.", "Set `cache = false`."))
    second = (await client.get("/api/docs/catalog", params={"locale": "en"})).json()
    assert first["revision"] != second["revision"]
    html = (await client.get("/api/docs/articles/guide/configure", params={"locale": "en"})).json()
    assert "cache = false" in html["html"]


async def test_article_says_how_fresh_it_is(
    tree: Tree, app: FastAPI, client: httpx.AsyncClient
) -> None:
    """``freshness``: the file's modification time, the docs root's git commit (read from
    ``.git``), and once the site is indexed, when its current index was built."""
    commit = "0123456789abcdef0123456789abcdef01234567"
    (tree.docs / ".git").mkdir()
    (tree.docs / ".git" / "HEAD").write_text(commit + "\n")  # a detached HEAD
    source = tree.docs / "guide" / "install.md"
    url = "/api/docs/articles/guide/install"
    before = (await client.get(url, params={"locale": "en"})).json()["freshness"]
    modified = iso(source.stat().st_mtime)
    assert before == {"indexedAt": None, "modifiedAt": modified, "commit": commit}

    engine = app.state.askdocs.engine
    engine.index(SITE_ID, keyword_only=True)  # BM25 only: no model needed
    built = iso(engine.indexed_at(engine.status(SITE_ID).collection))
    assert built is not None
    after = (await client.get(url, params={"locale": "en"})).json()["freshness"]
    assert after == {"indexedAt": built, "modifiedAt": modified, "commit": commit}


async def test_canary_never_in_any_reader_response(client: httpx.AsyncClient) -> None:
    for path in ("/api/docs/catalog", "/api/docs/articles/index"):
        response = await client.get(path, params={"locale": "en"})
        assert CANARY not in response.text


def _client(app: FastAPI) -> httpx.AsyncClient:
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")
