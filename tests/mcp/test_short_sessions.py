"""Short MCP sessions keep their embedding work: three short local-mode sessions in a row
over one data dir, and each starts where the one before stopped. A session ends once its
build has embedded two more batches (an order of events, not a wall-clock length, so a
loaded machine only makes it slower).

Each session is the real server (official SDK client, real model, Qdrant Edge on disk)
that ends when the host disconnects, as a host that starts one server per task does. The
embedding is slowed by the indexer's own interactive-priority hook (a turn marked in
flight makes it wait ``interactive_yield_seconds`` before each batch), so no session can
finish the index and the hand-over is what is measured.
"""

from __future__ import annotations

import sqlite3
from contextlib import ExitStack
from pathlib import Path

import anyio
import pytest

from askdocs.mcp.local import LocalBackend
from askdocs.settings import load_settings
from mcp import Client
from tests.conftest import FASTAPI_DOCS

HANG_BOUND = 120.0  # a session that never gets going fails instead of stalling
PER_SESSION = 8  # chunks (two batches of 4) each session embeds before its host leaves


def kept_vectors(data_dir: Path) -> int:
    """How many vectors the unfinished build left in the model's resume file."""
    files = list((data_dir / "index").glob("resume-*.sqlite"))
    if not files:
        return 0
    with sqlite3.connect(files[0]) as db:
        count: int = db.execute("SELECT count(*) FROM vectors").fetchone()[0]
    return count


async def session(data_dir: Path) -> tuple[int, int, bool]:
    with ExitStack() as held:
        return await _session(data_dir, held)


async def _session(data_dir: Path, held: ExitStack) -> tuple[int, int, bool]:
    """One session: returns (done at the first progress report, total, finished)."""
    from askdocs.mcp.app import McpRun, assemble

    settings = load_settings(
        data_dir=data_dir,
        embedding={"threads": 1, "batch_size": 4},
        index={"interactive_yield_seconds": 1.0},
    )
    server, backend = assemble(settings, McpRun("stdio", FASTAPI_DOCS, None), env={})
    assert isinstance(backend, LocalBackend)
    index = next(iter(backend.indexes.values()))
    held.enter_context(backend.service.monitor.interactive())  # each batch waits 1 s
    await backend.start()
    try:
        async with Client(server) as client:
            with anyio.fail_after(HANG_BOUND):
                while index.total == 0 and index.building:
                    await anyio.sleep(0.02)
            first = (index.done, index.total)
            found = await client.call_tool("search_docs", {"query": "dependencies"})
            assert not found.is_error, found.content
            with anyio.fail_after(HANG_BOUND):
                while index.building and index.done < first[0] + PER_SESSION:
                    await anyio.sleep(0.05)
        return first[0], first[1], not index.building
    finally:
        await backend.aclose()


@pytest.mark.slow
def test_three_short_sessions_each_start_where_the_last_stopped(tmp_path: Path) -> None:
    seen: list[tuple[int, int, bool, int]] = []
    for _ in range(3):
        done, total, finished = anyio.run(session, tmp_path)
        seen.append((done, total, finished, kept_vectors(tmp_path)))
    print("sessions (start, total, finished, kept):", seen)
    (start1, total, _, kept1), (start2, _, _, kept2), (start3, total3, _, kept3) = seen
    assert not any(finished for _, _, finished, _ in seen), seen
    assert start1 == 0
    assert 0 < kept1 < kept2 < kept3 < total, seen
    assert start2 >= kept1, seen  # resumed, not restarted
    assert start3 >= kept2, seen  # the third starts where the second stopped
    assert total3 == total
