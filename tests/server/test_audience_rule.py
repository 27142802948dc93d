"""One audience rule for every surface: a caller finds in search, Ask AI's sources, the
assistant's citations, MCP, ``/llms.txt`` and ``/docs/<slug>.md`` exactly the pages the reader
shows that caller, and every link a surface gives opens in the reader for that caller.

The site has the default site's shape (a user root and a developer root) plus the cases the
reader refuses or hides: a user-root page with ``audience: developer``, a draft, an unlisted
page and a file whose slug the reader cannot serve. Callers: a visitor and a signed-in member
(``SiteCaller``, overridden through the app's dependency); MCP local mode is the operator.
The property (hypothesis, over queries from the pages' words): every hit of every search
surface opens for its caller; and each page the reader shows is found by its own title word.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from askdocs.answer.flow import Question, retrieve
from askdocs.assistant.docs_tool import SearchDocsTool
from askdocs.assistant.tools import ToolContext
from askdocs.blocking import BlockingPool
from askdocs.llm.types import ChatMessage
from askdocs.mcp.pages import search_output
from askdocs.server.app import create_app
from askdocs.server.signin import get_site_caller
from askdocs.service import AskDocs
from askdocs.settings import AssistantSettings, RootConfig, Settings, SiteConfig
from askdocs.sites import OPERATOR, VISITOR, SiteCaller

# title word -> (root, path, text); each title word is unique to its page
USER_PAGES = {
    "zebra": ("user", "install.md", "# Zebra install\n\nRun the zebra installer.\n"),
    "quokka": ("user", "guide/quokka.md", "# Quokka guide\n\n## Quokka setup\n\nQuokka words.\n"),
    "walrus": ("user", "hidden.md", "---\nunlisted: true\n---\n# Walrus notes\n\nWalrus words.\n"),
}
DEVELOPER_PAGES = {
    "ibis": ("developer", "internals.md", "# Ibis internals\n\nIbis layout of the index.\n"),
    "okapi": (
        "user",
        "okapi.md",
        "---\naudience: developer\n---\n# Okapi internals\n\nOkapi words for developers.\n",
    ),
}
NEVER_SHOWN = {
    "yak": ("user", "yak-draft.md", "---\ndraft: true\n---\n# Yak draft\n\nYak words.\n"),
    "lemur": ("user", "what's-lemur.md", "# Lemur page\n\nLemur words.\n"),  # bad slug
}
PAGES = {**USER_PAGES, **DEVELOPER_PAGES, **NEVER_SHOWN}
WORDS = sorted(PAGES)
SLUG_WORD = {
    "install": "zebra",
    "guide/quokka": "quokka",
    "hidden": "walrus",
    "developer/internals": "ibis",
    "developer/okapi": "okapi",
}
MEMBER = SiteCaller.member([])
CALLERS = {"visitor": VISITOR, "member": MEMBER}


@dataclass
class Site:
    settings: Settings
    service: AskDocs
    config: SiteConfig
    apps: dict[str, FastAPI]  # per caller name, the app with that caller


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    base = tmp_path_factory.mktemp("audience")
    for root, path, text in PAGES.values():
        file = base / root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8")
    config = SiteConfig(
        id="shop",
        roots=[
            RootConfig(path=base / "user", audience="user"),
            RootConfig(path=base / "developer", audience="developer"),
        ],
    )
    settings = Settings.model_validate(
        {
            "data_dir": base / "data",
            "sites": [config],
            "server": {"index_in_background": False},
            "embedding": {"provider": "none"},
        }
    )
    service = AskDocs(settings)
    service.ensure_indexed()
    apps = {}
    for name, caller in {**CALLERS, "operator": OPERATOR}.items():
        apps[name] = create_app(settings, service)
        apps[name].dependency_overrides[get_site_caller] = _fixed(caller)
    yield Site(settings, service, config, apps)
    service.close()


def _fixed(caller: SiteCaller) -> Callable[[], SiteCaller]:
    return lambda: caller


def slug_of(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    assert parts.path.startswith("/docs/"), url
    return unquote(parts.path.removeprefix("/docs/")), unquote(parts.fragment)


def word_of(url: str) -> str:
    """The page a reader URL opens, by its unique title word."""
    return SLUG_WORD[slug_of(url)[0]]


class Surfaces:
    """Every surface, as one caller reaches it, over one in-process app."""

    def __init__(self, site: Site, who: str) -> None:
        self.site = site
        self.caller = {**CALLERS, "operator": OPERATOR}[who]
        transport = httpx.ASGITransport(app=site.apps[who])
        self.http = httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1")

    async def opens(self, url: str) -> bool:
        slug, anchor = slug_of(url)
        answer = await self.http.get(f"/api/docs/articles/{slug}", params={"locale": "en"})
        if answer.status_code != 200:
            return False
        article = answer.json()
        ids = {entry["id"] for entry in article["toc"]} | {article["title_anchor"]}
        return not anchor or anchor in ids or f'id="{anchor}"' in article["html"]

    async def search(self, query: str) -> list[str]:
        found = await self.http.get("/api/search", params={"q": query, "limit": 20})
        assert found.status_code == 200, found.text
        return [hit["url"] for hit in found.json()["hits"]]

    async def ask_sources(self, query: str) -> list[str]:
        question = Question(self.site.config, (ChatMessage(role="user", content=query),))
        hits = await retrieve(self.site.service, self.site.settings, question, BlockingPool(1))
        return [hit.url for hit in hits]

    async def assistant(self, query: str) -> list[str]:
        tool = SearchDocsTool(self.site.service, AssistantSettings(), "shop")
        outcome = await tool.run(ToolContext("u1", "shop"), {"query": query, "limit": 10})
        return [result["url"] for result in outcome.data.get("results", [])]

    async def mcp_local(self, query: str) -> list[str]:
        result = self.site.service.search(query, site="shop", limit=20)
        return [hit.citation.url for hit in search_output(query, "shop", result).hits]

    async def llms(self) -> tuple[list[str], list[str]]:
        index = (await self.http.get("/llms.txt")).text
        full = (await self.http.get("/llms-full.txt")).text
        links = re.findall(r"\]\((?:https?://[^/)]+)?(/docs/[^)]+)\.md\)", index)
        sources = re.findall(r"<!-- source: (?:https?://[^/ ]+)?(/docs/\S+)\.md -->", full)
        return links, sources

    async def markdown(self, slug: str) -> int:
        return (await self.http.get(f"/docs/{slug}.md")).status_code


def shown_to(caller: SiteCaller) -> set[str]:
    """What the reader shows ``caller`` (by title word)."""
    return set(USER_PAGES) | (set(DEVELOPER_PAGES) if caller.reads_developer_pages else set())


async def search_surfaces(surfaces: Surfaces, query: str) -> dict[str, list[str]]:
    found = {
        "search": await surfaces.search(query),
        "ask": await surfaces.ask_sources(query),
    }
    if surfaces.caller.reads_developer_pages:
        found["assistant"] = await surfaces.assistant(query)  # signed-in members only
    return found


@pytest.mark.anyio
@pytest.mark.parametrize("who", sorted(CALLERS))
async def test_each_surface_shows_exactly_the_readers_pages(site: Site, who: str) -> None:
    caller = CALLERS[who]
    surfaces = Surfaces(site, who)
    found: dict[str, set[str]] = {}
    for word in WORDS:
        for surface, urls in (await search_surfaces(surfaces, word)).items():
            for url in urls:
                assert await surfaces.opens(url), (who, surface, url)
                found.setdefault(surface, set()).add(word_of(url))
    assert found["search"] == shown_to(caller)
    assert found["ask"] == set(USER_PAGES)  # Ask AI is public: user pages, for everyone
    if caller.reads_developer_pages:
        assert found["assistant"] == shown_to(caller)
    links, sources = await surfaces.llms()
    listed = shown_to(caller) - {"walrus"}  # unlisted: readable, not in the catalog
    assert {word_of(link) for link in links} == listed
    assert {word_of(source) for source in sources} == listed
    for link in links:
        assert await surfaces.markdown(slug_of(link)[0]) == 200
        assert await surfaces.opens(link)
    await surfaces.http.aclose()


@pytest.mark.anyio
async def test_mcp_local_mode_is_the_operator_and_its_citations_open(site: Site) -> None:
    operator = Surfaces(site, "operator")
    for word in WORDS:
        for url in await operator.mcp_local(word):
            assert await operator.opens(url), url
    await operator.http.aclose()


@pytest.mark.anyio
async def test_a_visitor_asking_for_developer_pages_finds_none(site: Site) -> None:
    visitor = Surfaces(site, "visitor")
    found = await visitor.http.get("/api/search", params={"q": "ibis", "audience": "developer"})
    assert (found.status_code, found.json()["hits"]) == (200, [])
    await visitor.http.aclose()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    who=st.sampled_from(sorted(CALLERS)),
    words=st.lists(st.sampled_from([*WORDS, "words", "install", "internals"]), min_size=1),
)
def test_property_every_link_any_search_surface_gives_opens(
    site: Site, who: str, words: list[str]
) -> None:
    async def check() -> None:
        surfaces = Surfaces(site, who)
        for surface, urls in (await search_surfaces(surfaces, " ".join(words))).items():
            for url in urls:
                assert await surfaces.opens(url), (who, surface, url)
                assert word_of(url) in shown_to(CALLERS[who]), (who, surface, url)
        await surfaces.http.aclose()

    asyncio.run(check())


@pytest.mark.anyio
async def test_the_issue_repro_on_askdocs_own_docs(tmp_path: Path) -> None:
    """Issue 28's repro: a visitor's search of askdocs's own docs (a user root and a
    developer root) lists only pages the reader shows that visitor."""
    settings = Settings.model_validate(
        {
            "data_dir": tmp_path / "data",
            "server": {"index_in_background": False},
            "embedding": {"provider": "none"},
        }
    )
    service = AskDocs(settings)
    service.ensure_indexed()
    transport = httpx.ASGITransport(app=create_app(settings, service))
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
        query = {"q": "how do I keep the index on a different disk", "limit": 10}
        hits = (await http.get("/api/search", params=query)).json()["hits"]
        assert hits
        for hit in hits:
            slug, _ = slug_of(hit["url"])
            opened = await http.get(f"/api/docs/articles/{slug}", params={"locale": "en"})
            assert (hit["audience"], opened.status_code) == ("user", 200), hit["url"]
    service.close()
