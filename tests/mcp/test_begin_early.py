"""``askdocs mcp`` begins the local start-up run before it imports the MCP SDK and builds
the server: on a cold store the docs are read while ``begin()`` waits, then the parse
worker parses them and computes their BM25 vectors meanwhile (on the other core), and the
keyword build waits until the server serves."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import anyio
import pytest

from askdocs.corpus.documents import parse_document
from askdocs.corpus.parse_pool import IN_PROCESS_MAX_CHARS
from askdocs.mcp.app import McpRun, assemble
from askdocs.mcp.local import LocalBackend
from askdocs.search.lexical import document_terms
from mcp import Client
from tests.mcp.test_first_call import _search
from tests.mcp.test_tools import local_settings


def docs_tree(root: Path) -> Path:
    docs = root / "docs"
    (docs / "guides").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n\nWelcome to the docs.\n")
    (docs / "guides" / "cors.md").write_text(
        "# CORS\n\n## Credentials\n\nUse `CORSMiddleware` with `allow_credentials=True` "
        "to allow cookies in cross-origin requests.\n"
    )
    parts = "".join(
        f"## Topic {i}\n\nText about topic {i} and its options.\n\n" for i in range(300)
    )
    (docs / "guides" / "long.md").write_text(f"# Long guide\n\n{parts}")
    assert len((docs / "guides" / "long.md").read_text()) > IN_PROCESS_MAX_CHARS
    return docs


def test_the_local_backend_loads_without_the_mcp_sdk() -> None:
    code = (
        "import sys, askdocs.cli.mcp, askdocs.mcp.app, askdocs.mcp.local, askdocs.core\n"
        "sdk = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types'))\n"
        "assert not sdk, sdk\n"
    )
    env = {**os.environ, "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)


def test_assemble_begins_only_when_asked(tmp_path: Path) -> None:
    docs = docs_tree(tmp_path)
    for early, phases in ((False, {"idle"}), (True, {"queued", "running"})):
        settings = local_settings(tmp_path / f"data-{early}")
        _, backend = assemble(settings, McpRun("stdio", docs, None), env={}, begin_early=early)
        assert isinstance(backend, LocalBackend)
        assert {progress.phase for progress in backend.indexes.values()} <= phases
        anyio.run(backend.aclose)


@pytest.mark.slow
def test_begin_parses_in_the_worker_and_the_keyword_build_waits_for_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = local_settings(tmp_path / "data")
    server, backend = assemble(settings, McpRun("stdio", docs_tree(tmp_path), None), env={})
    assert isinstance(backend, LocalBackend)
    service = backend.service
    events: list[str] = []
    parsed_here: list[str] = []  # pages parsed in this process
    encoded_here: list[str] = []  # chunks whose BM25 vector this process computed
    read = threading.Event()
    read_ahead, index = service.read_ahead, service.index

    def recording_parse(text: str, rel: str, *args: Any) -> Any:
        parsed_here.append(rel)
        return parse_document(text, rel, *args)

    def recording_terms(chunk: Any, *args: Any) -> Any:
        encoded_here.append(chunk.id)  # document_vector's first step, in this process
        return document_terms(chunk, *args)

    def recording_read_ahead(*args: Any, **kwargs: Any) -> None:
        read_ahead(*args, **kwargs)
        events.append("read")
        read.set()

    def recording_index(*args: Any, keyword_only: bool = False, **kwargs: Any) -> Any:
        events.append(f"index keyword_only={keyword_only}")
        return index(*args, keyword_only=keyword_only, **kwargs)

    monkeypatch.setattr("askdocs.corpus.parse_pool.parse_document", recording_parse)
    monkeypatch.setattr("askdocs.search.lexical.document_terms", recording_terms)
    monkeypatch.setattr(service, "read_ahead", recording_read_ahead)
    monkeypatch.setattr(service, "index", recording_index)
    backend.begin()
    assert backend.phases.read.wait(120)  # begin() waits for it; hang bounds, not figures
    assert read.wait(120)
    assert events == ["read"]  # the keyword build waits for start()
    assert service.store.backend.pointers() == {}
    assert parsed_here == []  # the worker took every page, the short ones too
    assert encoded_here == []  # and every chunk's BM25 vector
    assert service.corpus_cache.corpus.parser is not None
    assert service.corpus_cache.corpus.parser.workers_started == 1

    async def run() -> dict[str, object]:
        await backend.start()
        try:
            async with Client(server) as client:
                return await _search(client, "CORSMiddleware allow_credentials")
        finally:
            await backend.aclose()

    first = anyio.run(run)
    assert events[:2] == ["read", "index keyword_only=True"]
    assert first["mode"] == "keyword"
    assert first["hits"]
    assert parsed_here == []  # the build found every page parsed
    assert encoded_here == []  # and every vector made
