"""Protocol hygiene through the SDK's in-memory client (local mode, real engine):
serverInfo.version, page resources, prompts, short argument errors, list_changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import MCPError
from mcp.shared.subscriptions import ResourcesListChanged

from askdocs import __version__
from askdocs.corpus.freshness import git_dir, head_commit, iso
from tests.mcp.conftest import FIXTURE_DOCS
from tests.mcp.test_tools import indexed_data, local_client, local_settings

__all__ = ["indexed_data"]  # the module-scoped fixture, shared with test_tools


def run(data: Path, body: Any) -> Any:
    async def main() -> Any:
        async with local_client(local_settings(data)) as (client, _):
            return await body(client)

    return anyio.run(main)


def test_server_info_names_the_package_version(indexed_data: Path) -> None:
    async def body(client: Any) -> Any:
        return client.server_info, client.server_capabilities

    info, capabilities = run(indexed_data, body)
    assert info.name == "askdocs"
    assert info.version == __version__
    assert capabilities.resources is not None
    assert capabilities.prompts is not None


def test_every_catalog_page_is_a_markdown_resource(indexed_data: Path) -> None:
    async def body(client: Any) -> Any:
        catalog = await client.call_tool("list_catalog", {})
        resources = (await client.list_resources()).resources
        templates = (await client.list_resource_templates()).resource_templates
        article = await client.call_tool("get_article", {"slug_or_path": "guides/cors"})
        read = await client.read_resource("askdocs://docs/guides/cors")
        return catalog.structured_content, resources, templates, article, read

    catalog, resources, templates, article, read = run(indexed_data, body)
    slugs = [page["slug"] for page in catalog["pages"]]
    assert [r.uri for r in resources] == [f"askdocs://docs/{slug}" for slug in slugs]
    assert {r.mime_type for r in resources} == {"text/markdown"}
    assert templates[0].uri_template == "askdocs://{site}/{slug}"
    assert read.contents[0].mime_type == "text/markdown"
    assert read.contents[0].text == article.structured_content["markdown"]


@pytest.mark.parametrize("uri", ["askdocs://docs/guides/nope", "askdocs://docs/", "other://x/y"])
def test_an_unknown_page_resource_is_page_not_found(indexed_data: Path, uri: str) -> None:
    async def body(client: Any) -> Any:
        with pytest.raises(MCPError) as caught:
            await client.read_resource(uri)
        return caught.value

    error = run(indexed_data, body)
    assert "[page_not_found]" in str(error)


def test_two_prompts_a_person_can_pick(indexed_data: Path) -> None:
    async def body(client: Any) -> Any:
        prompts = (await client.list_prompts()).prompts
        explained = await client.get_prompt("explain_page", {"page": "guides/cors"})
        error = await client.get_prompt("find_docs_for_error", {"error": "CORS blocked"})
        return prompts, explained, error

    prompts, explained, error = run(indexed_data, body)
    assert [p.name for p in prompts] == ["explain_page", "find_docs_for_error"]
    assert all(p.title and p.description and p.arguments for p in prompts)
    assert "get_article" in explained.messages[0].content.text
    assert "guides/cors" in explained.messages[0].content.text
    assert "CORS blocked" in error.messages[0].content.text


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({}, "`query` is required"),
        ({"query": "x", "limit": 0}, "`limit`"),
        ({"query": ""}, "`query`"),
    ],
)
def test_argument_errors_are_one_short_line_naming_the_field(
    indexed_data: Path, arguments: dict[str, Any], field: str
) -> None:
    async def body(client: Any) -> Any:
        return await client.call_tool("search_docs", arguments)

    result = run(indexed_data, body)
    text = result.content[0].text
    assert result.is_error
    assert text.startswith("search_docs: invalid argument: ")
    assert field in text
    assert text.endswith("[invalid_argument]")
    assert "pydantic" not in text
    assert "\n" not in text


def test_listeners_hear_list_changed_when_the_index_becomes_searchable(tmp_path: Path) -> None:
    async def main() -> Any:
        async with (
            local_client(local_settings(tmp_path)) as (client, _),
            client.listen(resources_list_changed=True) as events,
        ):
            with anyio.fail_after(60):
                async for event in events:
                    return event
        return None

    assert isinstance(anyio.run(main), ResourcesListChanged)


def test_hits_and_articles_say_how_fresh_they_are(indexed_data: Path) -> None:
    async def body(client: Any) -> Any:
        found = await client.call_tool("search_docs", {"query": "allow_credentials"})
        article = await client.call_tool("get_article", {"slug_or_path": "guides/cors"})
        return found.structured_content, article.structured_content

    found, article = run(indexed_data, body)
    source = FIXTURE_DOCS / "guides" / "cors.md"
    modified = iso(source.stat().st_mtime)
    commit = head_commit(git_dir(FIXTURE_DOCS))  # type: ignore[arg-type]
    top = found["hits"][0]
    assert top["citation"]["path"] == "guides/cors.md"
    for freshness in (top["freshness"], article["freshness"]):
        assert freshness["modifiedAt"] == modified
        assert freshness["commit"] == commit
        assert freshness["indexedAt"] is not None
        assert freshness["indexedAt"] >= "2026"
