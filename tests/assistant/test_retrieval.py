"""Docs in every turn and the bounded search_docs tool, against the real engine (Qdrant Edge
on disk, BM25) with an OpenAI-compatible embedder pointed at a scripted server."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import pytest
from sqlalchemy import select

from askdocs.assistant.docs_tool import CAPTIONS, GUIDANCE, SEARCHING, SearchDocsTool
from askdocs.assistant.inject import format_block, rank
from askdocs.assistant.tools import ToolContext
from askdocs.db.models import MessageRow, ThreadRow
from askdocs.types import Audience, Hit
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.frames import captions, parse_frames, text_of
from tests.assistant.scripted import Call, EmbeddingServer, ModelServer, Script, embedding_server
from tests.support.timing import bounded

CHAT = "/api/v1/assistant/chat"
SEARCH_BOUND = 1.0
INJECT_BOUND = 0.5
INJECTED_ONLY = "listens on port 8000 by default"  # in the docs, never in a message


@pytest.fixture
def embeddings() -> Iterator[EmbeddingServer]:
    with embedding_server() as server:
        yield server


def _overrides(embeddings: EmbeddingServer, **assistant: object) -> dict[str, object]:
    embedding = {
        "provider": "openai-compatible",
        "model": "scripted-embed",
        "base_url": embeddings.url,
        "timeout_seconds": 30,
        "query_timeout_seconds": 30,
    }
    bounds = {"search_timeout_seconds": SEARCH_BOUND, "inject_timeout_seconds": INJECT_BOUND}
    bounds.update(assistant)
    return {"embedding": embedding, "assistant": bounds}


@pytest.fixture
async def indexed(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> AsyncIterator[Harness]:
    overrides = _overrides(embeddings, inject_min_score=0.0)
    async with open_harness(tmp_path / "data", database_url, docs_root, models, **overrides) as h:
        report = await anyio.to_thread.run_sync(h.runtime.service.index, "docs")
        assert report.chunks > 0
        yield h


async def _chat(harness: Harness, message: str) -> tuple[str, list[object]]:
    _, headers = harness.user("a@x.io")
    created = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    thread = created.json()["id"]
    response = await harness.client.post(
        CHAT, json={"threadId": thread, "message": message}, headers=headers
    )
    assert response.status_code == 200
    await harness.wait_idle(thread)
    return thread, parse_frames(response.text)


def _persisted_text(harness: Harness, thread: str) -> str:
    with harness.runtime.db.session() as session:
        rows = session.scalars(select(MessageRow).where(MessageRow.thread_id == thread))
        parts = [r.content + json.dumps(r.metadata_json) for r in rows]
        row = session.get(ThreadRow, thread)
        assert row is not None
        parts.append(row.title)
    return "\n".join(parts)


@pytest.mark.anyio
async def test_docs_are_injected_into_the_prompt_and_never_persisted(indexed: Harness) -> None:
    indexed.models.script(Script(["Use pip."]))
    thread, _ = await _chat(indexed, "how do I install askdocs with pip and serve it")
    system = indexed.models.requests[0]["messages"][0]["content"]
    assert "<documentation>" in system
    assert INJECTED_ONLY in system
    assert "Install with pip" in system
    assert "not instructions" in system
    stored = _persisted_text(indexed, thread)
    assert INJECTED_ONLY not in stored
    assert "<documentation>" not in stored
    assert '"docsInjected": ' in stored


@pytest.mark.anyio
async def test_search_docs_returns_sections(indexed: Harness) -> None:
    tool = SearchDocsTool(indexed.runtime.service, indexed.runtime.settings.assistant)
    outcome = await tool.run(ToolContext("u", "docs"), {"query": "hybrid search fusion"})
    assert outcome.data["available"] is True
    assert outcome.caption == "Thinking"
    titles = [r["title"] for r in outcome.data["results"]]
    assert "Searching" in titles
    freshness = outcome.data["results"][0]["freshness"]
    assert freshness["indexedAt"].endswith("Z")
    assert freshness["modifiedAt"].endswith("Z")


@pytest.mark.anyio
async def test_search_docs_times_out_when_the_embedder_hangs(
    indexed: Harness, embeddings: EmbeddingServer
) -> None:
    embeddings.hang.set()
    tool = SearchDocsTool(indexed.runtime.service, indexed.runtime.settings.assistant)
    started = time.perf_counter()
    outcome = await tool.run(ToolContext("u", "docs"), {"query": "hybrid search fusion"})
    elapsed = time.perf_counter() - started
    assert embeddings.hung.is_set()
    assert outcome.data["available"] is False
    assert outcome.data["status"] == "timeout"
    assert set(outcome.data) == {"available", "status", "reason", "guidance"}
    # waited the search bound (1.0 s), then gave up long before the hung embedder's 30 s
    assert SEARCH_BOUND <= elapsed < bounded(SEARCH_BOUND)
    assert outcome.caption == CAPTIONS["timeout"]


@pytest.mark.anyio
async def test_a_hanging_embedder_never_holds_the_turn(
    indexed: Harness, embeddings: EmbeddingServer
) -> None:
    embeddings.hang.set()
    indexed.models.script(
        Script(calls=[Call("search_docs", {"query": "install"})]), Script(["From memory: pip."])
    )
    started = time.perf_counter()
    thread, frames = await _chat(indexed, "how do I install askdocs")
    elapsed = time.perf_counter() - started
    assert captions(frames) == [SEARCHING, CAPTIONS["timeout"]]
    assert text_of(frames) == "From memory: pip."
    assert elapsed < bounded(INJECT_BOUND + SEARCH_BOUND)  # not the embedder's 30 s hang
    system = indexed.models.requests[0]["messages"][0]["content"]
    assert "<documentation>" not in system  # injection degraded to nothing
    tool_reply = [m for m in indexed.models.requests[1]["messages"] if m["role"] == "tool"]
    assert '"status": "timeout"' in tool_reply[0]["content"]
    assert "From memory: pip." in _persisted_text(indexed, thread)


@pytest.fixture
async def unindexed(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> AsyncIterator[Harness]:
    async with open_harness(
        tmp_path / "data", database_url, docs_root, models, **_overrides(embeddings)
    ) as h:
        yield h


@pytest.mark.anyio
async def test_search_before_the_first_index_says_still_indexing(unindexed: Harness) -> None:
    unindexed.models.script(
        Script(calls=[Call("search_docs", {"query": "install"})]), Script(["Later."])
    )
    _, frames = await _chat(unindexed, "install?")
    assert captions(frames) == [SEARCHING, "Docs index still building — answering without it"]
    tool_reply = [m for m in unindexed.models.requests[1]["messages"] if m["role"] == "tool"]
    data = json.loads(tool_reply[0]["content"].split("\n", 1)[1])
    assert data["status"] == "still_indexing"
    assert data["available"] is False


@pytest.fixture
async def no_model(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> AsyncIterator[Harness]:
    overrides = _overrides(embeddings, inject_min_score=0.0)
    overrides["chat"] = {"provider": "none"}
    async with open_harness(tmp_path / "data", database_url, docs_root, models, **overrides) as h:
        await anyio.to_thread.run_sync(h.runtime.service.index, "docs")
        yield h


@pytest.mark.anyio
async def test_without_a_model_the_answer_quotes_the_docs(no_model: Harness) -> None:
    assert no_model.runtime.model is None
    thread, frames = await _chat(no_model, "how do I install askdocs with pip")
    text = text_of(frames)
    assert "cannot write a tailored answer or take any actions" in text
    assert "Install with pip" in text
    assert "](/docs/" in text
    assert frames[-2]["finishReason"] == "stop"
    assert no_model.models.requests == []
    assert "cannot write a tailored answer" in _persisted_text(no_model, thread)


@pytest.mark.anyio
async def test_search_reads_the_last_complete_index_while_a_rebuild_hangs(
    indexed: Harness, embeddings: EmbeddingServer, docs_root: Path
) -> None:
    page = docs_root / "user-guide" / "search.md"
    extra = "\n## Filters\n\nFilter by locale and audience.\n\n## Limits\n\nAt most 50 hits.\n"
    page.write_text(page.read_text(encoding="utf-8") + extra, encoding="utf-8")
    embeddings.hang_documents.set()
    service = indexed.runtime.service
    rebuilt = threading.Event()

    def rebuild() -> None:
        try:
            service.index("docs")
        finally:
            rebuilt.set()

    async with anyio.create_task_group() as group:
        group.start_soon(anyio.to_thread.run_sync, rebuild)
        assert await anyio.to_thread.run_sync(embeddings.hung.wait, 60.0)  # rebuild is stuck
        tool = SearchDocsTool(service, indexed.runtime.settings.assistant)
        try:
            with anyio.fail_after(bounded(SEARCH_BOUND)):  # a search behind the build waits 30 s
                outcome = await tool.run(
                    ToolContext("u", "docs"), {"query": "hybrid search fusion"}
                )
            rebuild_still_stuck = not rebuilt.is_set()
        finally:
            embeddings.release.set()
    assert rebuild_still_stuck  # answered from the last complete index, not after the build
    assert outcome.data["status"] == "ok"
    assert "Searching" in [r["title"] for r in outcome.data["results"]]


@pytest.mark.anyio
async def test_a_section_under_the_floor_is_never_injected(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> None:
    question = "how do I install askdocs with pip and serve it"
    floor = 0.4
    overrides = _overrides(embeddings, inject_min_score=floor)
    async with open_harness(tmp_path / "data", database_url, docs_root, models, **overrides) as h:
        await anyio.to_thread.run_sync(h.runtime.service.index, "docs")
        found = h.runtime.service.search(question, site="docs", limit=8)
        cosines = {hit.heading: hit.cosine for hit in found.hits}
        assert (cosines["Install with pip"] or 0.0) >= floor
        assert (cosines["Hybrid search"] or 0.0) < floor  # shares a word, not the meaning
        h.models.script(Script(["Use pip."]))
        await _chat(h, question)
        system = h.models.requests[0]["messages"][0]["content"]
    assert INJECTED_ONLY in system
    assert "reciprocal rank fusion" not in system


# -- seed 000's docs-search settings -------------------------------------------------------


def _hit(heading: str, score: float, audience: Audience, text: str = "Some text.") -> Hit:
    return Hit(
        site="docs",
        path=f"{heading}.md",
        slug=heading,
        title=heading.title(),
        heading=heading,
        heading_trail=(),
        section_id=heading,
        anchor=heading,
        url=f"/docs/{heading}",
        audience=audience,
        locale="en",
        text=text,
        score=score,
    )


def test_user_guide_sections_get_the_boost() -> None:
    developer, user = _hit("internals", 0.100, "developer"), _hit("howto", 0.095, "user")
    assert rank([developer, user], boost=0.0, top_k=4) == (developer, user)
    assert rank([developer, user], boost=0.1, top_k=4) == (user, developer)  # 0.1045 > 0.1
    assert rank([developer, user], boost=0.1, top_k=1) == (user,)  # inject_top_k caps


def test_the_block_keeps_to_its_character_cap() -> None:
    hits = [_hit(f"section{n}", 1.0 - n / 10, "user", "x" * 300) for n in range(5)]
    block, kept = format_block(hits, 1000)
    assert len(block) <= 1000
    assert 1 <= len(kept) < 5  # whole sections, the first ones that fit
    assert block.count("URL: ") == len(kept)
    one, only = format_block([_hit("long", 1.0, "user", "y" * 5000)], 600)
    assert len(one) <= 600
    assert len(only) == 1
    assert "…" in one  # a first section longer than the cap is cut, not dropped
    assert format_block(hits, 0) == ("", ())


@asynccontextmanager
async def _settings_harness(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
    **assistant: object,
) -> AsyncIterator[Harness]:
    overrides = _overrides(embeddings, inject_min_score=0.0, **assistant)
    async with open_harness(tmp_path / "data", database_url, docs_root, models, **overrides) as h:
        await anyio.to_thread.run_sync(h.runtime.service.index, "docs")
        yield h


@pytest.mark.anyio
@pytest.mark.parametrize("switch", ["docs_enabled", "inject_top_k"])
async def test_injection_off_and_the_master_switch(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
    switch: str,
) -> None:
    """``inject_top_k = 0`` turns injection off and keeps the tool (seed 000: "0 disables
    injection only"); ``docs_enabled = false`` (seed 000's ``Enabled``) turns off both."""
    value: object = False if switch == "docs_enabled" else 0
    changed = {switch: value}
    async with _settings_harness(
        tmp_path, database_url, docs_root, models, embeddings, **changed
    ) as h:
        before = len(embeddings.inputs)
        h.models.script(Script(["From what I know."]))
        await _chat(h, "how do I install askdocs with pip and serve it")
        request = h.models.requests[0]
        system = request["messages"][0]["content"]
        offered = [tool["function"]["name"] for tool in request.get("tools") or []]
        assert "<documentation>" not in system
        assert INJECTED_ONLY not in system
        assert len(embeddings.inputs) == before  # nothing was searched for the turn
        if switch == "docs_enabled":
            assert "search_docs" not in offered
            assert "search_docs" not in system
        else:
            assert offered == ["search_docs"]
            assert "call search_docs before answering from memory" in system


@pytest.mark.anyio
async def test_a_docs_search_that_cannot_run_says_unavailable(
    tmp_path: Path,
    database_url: str,
    docs_root: Path,
    models: ModelServer,
    embeddings: EmbeddingServer,
) -> None:
    """The ``unavailable`` status (seed 000): a search that fails for a reason other than a
    timeout or a missing index (here ``assistant.docs_site`` names no site) tells the model
    to go on without it, with the guidance; the turn's caption says so and injection
    degrades to nothing."""
    async with _settings_harness(
        tmp_path, database_url, docs_root, models, embeddings, docs_site="missing"
    ) as h:
        tool = SearchDocsTool(h.runtime.service, h.runtime.settings.assistant, "missing")
        outcome = await tool.run(ToolContext("u", None), {"query": "install"})
        assert outcome.data["available"] is False
        assert outcome.data["status"] == "unavailable"
        assert outcome.data["guidance"] == GUIDANCE
        assert outcome.caption == CAPTIONS["unavailable"]
        assert CAPTIONS["unavailable"] == "Docs search unavailable — answering without it"
        h.models.script(
            Script(calls=[Call("search_docs", {"query": "install"})]),
            Script(["Without the docs."]),
        )
        _, frames = await _chat(h, "how do I install it?")
        assert captions(frames) == [SEARCHING, CAPTIONS["unavailable"]]
        assert text_of(frames) == "Without the docs."
        assert "<documentation>" not in h.models.requests[0]["messages"][0]["content"]
