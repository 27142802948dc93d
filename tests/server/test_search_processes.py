"""``server.search_processes``: the server's search route answers through worker processes,
``/readyz`` waits for them, and shutting the app down stops them (issue #20)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

import pytest

from askdocs.server.app import create_app
from askdocs.settings import Settings
from askdocs.types import SearchResult
from tests.server.conftest import client, indexed_service

pytestmark = pytest.mark.anyio
READY_POLLS = 1200  # x 0.1 s: a bound for a loaded machine, not a verdict


async def test_the_route_searches_in_worker_processes(tmp_path: Path) -> None:
    service = indexed_service(tmp_path)
    server = service.settings.server.model_copy(
        update={"index_in_background": False, "search_processes": 2}
    )
    settings: Settings = service.settings.model_copy(update={"server": server})
    http = create_app(settings, service)
    app = http.state.askdocs
    try:
        async with http.router.lifespan_context(http), client(http) as caller:
            for _ in range(READY_POLLS):
                if (await caller.get("/readyz")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
            workers = app.core.search_processes
            assert workers is not None
            pids = workers.idle_worker_pids()
            assert len(pids) == 2  # both started and warmed before ready
            answered: list[bool] = []
            real = workers.search

            def recording(*job: Any) -> SearchResult | None:
                result = real(*job)
                answered.append(result is not None)
                return result

            workers.search = recording  # type: ignore[method-assign]
            found = await caller.get("/api/search", params={"q": "install from source"})
            assert found.status_code == 200
            assert found.json()["hits"]
            assert found.json()["mode"] == "hybrid"
            assert answered == [True]  # a worker answered the route's search
            assert workers.workers_started == 2
            missing = await caller.get("/api/search", params={"q": "x", "site": "nope"})
            assert missing.status_code == 404
        for pid in pids:  # closed with the app
            with pytest.raises(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
    finally:
        service.close()
