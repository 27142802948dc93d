"""``/llms.txt``, ``/llms-full.txt`` and ``/docs/{slug}.md`` through the real app: reading
order, Markdown bodies, locales, and neither developer pages nor non-public sites."""

from __future__ import annotations

import httpx
import pytest

from askdocs.server.app import create_app
from askdocs.service import AskDocs
from tests.reader.conftest import Tree
from tests.reader.fixtures import fixture_settings, site_config

pytestmark = pytest.mark.anyio


async def test_llms_txt_lists_every_reader_page_in_reading_order(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/llms.txt")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    assert response.headers["cache-control"] == "no-store"
    text = response.text
    assert text.startswith("# Fixture\n\n> ")
    links = [line for line in text.splitlines() if line.startswith("- [")]
    assert links == [
        "- [Welcome to Fixture](http://127.0.0.1/docs/index.md)",
        "- [Installing](http://127.0.0.1/docs/guide/install.md)",
        "- [Configuring](http://127.0.0.1/docs/guide/configure.md)",
        "- [Backing up](http://127.0.0.1/docs/admin/backup.md)",
    ]
    assert "## Guide" in text
    assert "Internal API" not in text


async def test_llms_full_txt_holds_every_page_and_no_developer_page(
    client: httpx.AsyncClient,
) -> None:
    text = (await client.get("/llms-full.txt")).text
    assert text.index("# Welcome to Fixture") < text.index("# Installing")
    assert text.index("# Installing") < text.index("# Configuring")
    assert "Run `pip install fixture`." in text
    assert "SECRET-DEV-NOTE" not in text
    assert "title: Installing" not in text  # no front matter


async def test_a_page_as_markdown(client: httpx.AsyncClient) -> None:
    response = await client.get("/docs/guide/configure.md")
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/markdown; charset=utf-8"
    assert response.headers["x-content-type-options"] == "nosniff"
    body = response.text
    assert "# Configuring\n\n## Cache settings" in body
    assert "| cache | `false` |" in body
    czech = await client.get("/docs/guide/install.md", params={"locale": "cs"})
    assert "Spusťte `pip install fixture`." in czech.text


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/docs/api.md", 404, "article-not-found"),  # a developer page
        ("/docs/guide/missing.md", 404, "article-not-found"),
        ("/docs/..%2Fsecret.md", 400, "invalid-slug"),
    ],
)
async def test_pages_the_reader_does_not_show_are_not_served(
    client: httpx.AsyncClient, path: str, status: int, code: str
) -> None:
    response = await client.get(path)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


@pytest.mark.parametrize("flag", ["public", "live"])
async def test_a_private_or_unpublished_site_has_no_text_views(tree: Tree, flag: str) -> None:
    site = site_config(tree.base).model_copy(update={flag: False})
    settings = fixture_settings(tree.base, sites=[site])
    app = create_app(settings, AskDocs(settings))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        for path in ("/llms.txt", "/llms-full.txt", "/docs/guide/install.md"):
            response = await http.get(path)
            assert response.status_code == 404, path
            assert response.json()["error"]["code"] == "site_not_found"
