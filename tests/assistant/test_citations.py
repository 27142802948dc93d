"""Citations a reader can open: every link a five-turn assistant conversation cites (from the
injected documentation and from ``search_docs`` results) opens a reader page for that user.

The scripted model cites exactly the URLs it was given, as a model following the prompt
does; the docs site has a user root and a developer root (the default site's shape), so
developer pages are cited under ``/docs/developer/...`` and must be served to the member.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio
import pytest

from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import Call, EmbeddingServer, ModelServer, Script, embedding_server

CHAT = "/api/v1/assistant/chat"
URL_LINE = re.compile(r"^URL: (\S+)$", re.MULTILINE)
LINK = re.compile(r"\]\((/docs/[^)\s]+)\)")
DEVELOPER_DOCS = {
    "internals.md": (
        "---\ntitle: Internals\n---\n# Internals\n\n## Index layout\n\n"
        "Collections are versioned by the embedding model; install pip packages first.\n"
    ),
    "configuration.md": (
        "---\ntitle: Configuration reference\n---\n# Configuration reference\n\n"
        "## Server port\n\nThe serve command listens on port 8000; search settings live here.\n"
    ),
}
QUESTIONS = (
    "how do I install askdocs with pip",
    "which port does the server listen on",
    "how does hybrid search fuse keyword and vectors",
    "where is the configuration file read from",
    "how are index collections laid out",
)


@pytest.fixture
def embeddings() -> Iterator[EmbeddingServer]:
    with embedding_server() as server:
        yield server


def _given_urls(body: dict[str, Any]) -> list[str]:
    """The URLs this request showed the model: injected sections and this turn's tools."""
    messages = body["messages"]
    urls = URL_LINE.findall(str(messages[0]["content"]))
    last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
    for message in messages[last_user + 1 :]:
        if message["role"] == "tool":
            data = str(message["content"]).partition("\n")[2]  # after the DATA preamble
            results = json.loads(data).get("results", [])
            urls.extend(str(result["url"]) for result in results)
    return list(dict.fromkeys(urls))


def cite(body: dict[str, Any]) -> Script:
    """Even turns search first; every reply links each URL it was given."""
    messages = body["messages"]
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    searched = any(m["role"] == "tool" for m in messages[users[-1] + 1 :])
    if len(users) % 2 == 0 and not searched:
        return Script(calls=[Call("search_docs", {"query": messages[users[-1]]["content"]})])
    links = " ".join(f"[source {n}]({url})" for n, url in enumerate(_given_urls(body), 1))
    return Script([f"Here is what the documentation says. {links}"])


@pytest.fixture
async def reading(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> AsyncIterator[Harness]:
    for name, text in DEVELOPER_DOCS.items():
        (docs_root / name).write_text(text, encoding="utf-8")
    roots = [
        {"path": str(docs_root / "user-guide")},
        {"path": str(docs_root), "audience": "developer", "include": ["*.md"]},
    ]
    overrides: dict[str, object] = {
        "sites": [{"id": "docs", "name": "Docs", "roots": roots}],
        "embedding": {
            "provider": "openai-compatible",
            "model": "scripted-embed",
            "base_url": embeddings.url,
        },
        "assistant": {"inject_min_score": 0.0, "search_timeout_seconds": 5.0},
    }
    models.responder = cite
    async with open_harness(tmp_path / "data", database_url, docs_root, models, **overrides) as h:
        report = await anyio.to_thread.run_sync(h.runtime.service.index, "docs")
        assert report.chunks > 0
        yield h


async def _converse(harness: Harness, headers: dict[str, str]) -> list[str]:
    created = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    thread = created.json()["id"]
    for question in QUESTIONS:
        body = {"threadId": thread, "message": question}
        response = await harness.client.post(CHAT, json=body, headers=headers)
        assert response.status_code == 200
        await harness.wait_idle(thread)
    detail = await harness.client.get(f"/api/v1/assistant/threads/{thread}", headers=headers)
    replies = [m["content"] for m in detail.json()["messages"] if m["role"] == "assistant"]
    assert len(replies) == len(QUESTIONS)
    return [link for reply in replies for link in LINK.findall(reply)]


async def _opens(harness: Harness, url: str, headers: dict[str, str]) -> bool:
    """The reader page answers 200, its article answers 200, and the anchor is on it."""
    parts = urlsplit(url)
    page = await harness.client.get(parts.path, headers=headers)
    slug = unquote(parts.path.removeprefix("/docs/"))
    article = await harness.client.get(f"/api/docs/articles/{slug}?locale=en", headers=headers)
    if page.status_code != 200 or article.status_code != 200:
        return False
    anchors = {entry["id"] for entry in article.json()["toc"]}
    anchors.add(article.json()["title_anchor"])
    return not parts.fragment or unquote(parts.fragment) in anchors


@pytest.mark.anyio
async def test_every_citation_of_a_five_turn_conversation_opens(reading: Harness) -> None:
    _, headers = reading.user("reader@x.io")
    links = await _converse(reading, headers)
    assert len(links) >= len(QUESTIONS)
    assert any(link.startswith("/docs/developer/") for link in links)
    assert any(not link.startswith("/docs/developer/") for link in links)
    closed = [link for link in links if not await _opens(reading, link, headers)]
    assert closed == []


@pytest.mark.anyio
async def test_developer_pages_are_for_signed_in_members_only(reading: Harness) -> None:
    _, headers = reading.user("member@x.io")
    path = "/api/docs/articles/developer/internals?locale=en"
    member = await reading.client.get(path, headers=headers)
    assert member.status_code == 200
    assert member.json()["slug"] == "developer/internals"
    assert member.json()["url"] == "/docs/developer/internals"
    visitor = await reading.client.get(path)
    assert visitor.status_code == 404
    assert visitor.json()["error"]["code"] == "article-not-found"
    catalog = await reading.client.get("/api/docs/catalog?locale=en", headers=headers)
    slugs = [a["slug"] for c in catalog.json()["categories"] for a in c["articles"]]
    assert "internals" not in slugs
    assert "developer/internals" not in slugs
