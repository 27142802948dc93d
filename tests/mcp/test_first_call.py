"""The first search on a cold data dir answers from BM25 at once; hybrid once vectors exist.

The dense build is held back by the indexer's own interactive-priority hook: while an
interactive turn is marked in flight, it waits before each embedding batch.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Any

import anyio
import pytest

from askdocs.mcp.app import McpRun, assemble
from askdocs.mcp.local import LocalBackend, StartPhases
from mcp import Client
from tests.mcp.conftest import FIXTURE_DOCS
from tests.mcp.test_tools import local_settings


async def _search(client: object, query: str) -> dict[str, object]:
    result = await client.call_tool("search_docs", {"query": query})  # type: ignore[attr-defined]
    assert not result.is_error, result.content
    found: dict[str, object] = result.structured_content
    return found


@pytest.mark.slow
def test_cold_first_search_is_keyword_with_progress_then_hybrid(tmp_path: Path) -> None:
    settings = local_settings(tmp_path, index={"interactive_yield_seconds": 60})

    async def run() -> tuple[dict[str, object], dict[str, object]]:
        server, backend = assemble(settings, McpRun("stdio", FIXTURE_DOCS, None), env={})
        assert isinstance(backend, LocalBackend)
        index = next(iter(backend.indexes.values()))
        with ExitStack() as held:
            held.enter_context(backend.service.monitor.interactive())  # vectors wait, BM25 not
            await backend.start()
            try:
                async with Client(server) as client:
                    first = await _search(client, "CORSMiddleware allow_credentials")
                    with anyio.fail_after(120):  # a hang bound, not a latency figure
                        while index.total == 0:  # the dense run reached its first batch
                            await anyio.sleep(0.05)
                    assert index.building
                    held.close()  # the turn ends: embedding goes on
                    with anyio.fail_after(120):
                        while index.building:
                            await anyio.sleep(0.1)
                    return first, await _search(client, "CORSMiddleware allow_credentials")
            finally:
                await backend.aclose()

    first, later = anyio.run(run)
    assert first["mode"] == "keyword"
    assert "while the vectors are built" in str(first["note"])
    assert first["hits"]
    assert later["mode"] == "hybrid"
    assert later["note"] is None


@pytest.mark.slow
def test_nothing_loads_the_model_before_the_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cold store: the keyword-phase search runs without the embedder, and the full run
    (model load, embedding) starts only after that first answer."""
    settings = local_settings(tmp_path)
    server, backend = assemble(settings, McpRun("stdio", FIXTURE_DOCS, None), env={})
    assert isinstance(backend, LocalBackend)
    backend.phases = StartPhases(grace_seconds=600)  # only an answer releases the full run
    service = backend.service
    runs: list[tuple[bool, bool]] = []  # (keyword_only, a search had answered)
    searches: list[bool] = []  # keyword_only of each search
    index, search = service.index, service.search

    def recording_index(*args: Any, keyword_only: bool = False, **kwargs: Any) -> Any:
        runs.append((keyword_only, backend.phases.answered.is_set()))
        return index(*args, keyword_only=keyword_only, **kwargs)

    def recording_search(*args: Any, keyword_only: bool = False, **kwargs: Any) -> Any:
        searches.append(keyword_only)
        return search(*args, keyword_only=keyword_only, **kwargs)

    monkeypatch.setattr(service, "index", recording_index)
    monkeypatch.setattr(service, "search", recording_search)
    progress = next(iter(backend.indexes.values()))

    async def run() -> tuple[dict[str, object], dict[str, object]]:
        await backend.start()
        try:
            async with Client(server) as client:
                first = await _search(client, "CORSMiddleware allow_credentials")
                with anyio.fail_after(300):  # a hang bound, not a latency figure
                    while progress.runs == 0:
                        await anyio.sleep(0.1)
                return first, await _search(client, "CORSMiddleware allow_credentials")
        finally:
            await backend.aclose()

    first, later = anyio.run(run)
    assert progress.phase == "done"
    assert runs == [(True, False), (False, True)]
    assert searches == [True, False]
    assert (first["mode"], later["mode"]) == ("keyword", "hybrid")
    assert "while the vectors are built" in str(first["note"])
    assert first["hits"]
