"""Background indexing and the docs-gaps counts with two replicas on one database and one
(local-mode) Qdrant server: both replicas run the periodic check, exactly one builds (the
other waits for the install's build lock, then finds the collection current), both search
the same collection, an edit indexed by one is searched by the other at once, and the gaps
report counts the questions both replicas recorded, the same on either."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from qdrant_client import QdrantClient

from askdocs.db import Database
from askdocs.index import KEYWORD_ONLY, IndexStore
from askdocs.index.server import QdrantBackend
from askdocs.replicas.locks import IndexCoordination
from askdocs.service import AskDocs
from askdocs.settings import DatabaseSettings, Settings
from tests.db.postgres import PostgresServer
from tests.replicas.conftest import Replicas, open_replicas

LOADED = DatabaseSettings(timeout_seconds=10)  # a loaded CI machine: tests/conftest.py


pytestmark = [pytest.mark.anyio, pytest.mark.postgres]


class CountingClient(QdrantClient):
    """qdrant-client's local mode, counting the collections created (one per build)."""

    created = 0

    def create_collection(self, *args: Any, **kwargs: Any) -> bool:
        CountingClient.created += 1
        return super().create_collection(*args, **kwargs)


@pytest.fixture
async def shared(
    tmp_path: Path, postgres_server: PostgresServer, docs_root: Path
) -> AsyncIterator[Replicas]:
    name = postgres_server.create_database(postgres_server.migrated_template())
    url = postgres_server.url(name)
    client = CountingClient(path=str(tmp_path / "qdrant"))
    CountingClient.created = 0
    made: list[tuple[AskDocs, Database]] = []

    def engine(settings: Settings) -> AskDocs:
        db = Database.from_url(url, LOADED)
        coordination = IndexCoordination(settings, lambda: db)
        backend = QdrantBackend(client, settings.data_dir / "index", coordination=coordination)
        made.append((AskDocs(settings, coordination=coordination, store=IndexStore(backend)), db))
        return made[-1][0]

    try:
        async with open_replicas(tmp_path, url, docs_root, engine) as opened:
            yield opened
    finally:
        for built, db in made:
            built.close()
            db.close()
        client.close()
        postgres_server.drop_database(name)


def check_both(replicas: Replicas) -> None:
    """Both replicas' periodic checks, at the same moment."""
    done: list[object] = []
    threads = [
        threading.Thread(target=lambda r=r: done.append(r.app.engine.ensure_indexed()))
        for r in (replicas.a, replicas.b)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert len(done) == 2


async def search(replica: Any, words: str) -> list[str]:
    found = await replica.client.get("/api/search", params={"q": words, "site": "docs"})
    assert found.status_code == 200, found.text
    return [hit["title"] for hit in found.json()["hits"]]


async def test_one_replica_builds_and_both_search_what_it_built(
    shared: Replicas, docs_root: Path
) -> None:
    await anyio.to_thread.run_sync(check_both, shared)
    assert CountingClient.created == 1  # one build; the other replica found it current
    stores = [r.app.engine.store for r in (shared.a, shared.b)]
    assert len({store.current(KEYWORD_ONLY).name for store in stores}) == 1  # type: ignore[union-attr]
    assert "Installing askdocs" in await search(shared.a, "pip install")
    assert "Installing askdocs" in await search(shared.b, "pip install")
    page = docs_root / "user-guide" / "upgrade.md"
    page.write_text("---\ntitle: Upgrading\n---\n# Upgrading\n\n## Zebra mode\n\nUpgrade zebras.\n")
    await anyio.to_thread.run_sync(shared.b.app.engine.ensure_indexed)
    assert CountingClient.created == 2
    assert "Upgrading" in await search(shared.a, "zebra")  # A built nothing, and finds it
    await anyio.to_thread.run_sync(check_both, shared)
    assert CountingClient.created == 2  # nothing changed: nobody builds


async def test_the_gaps_report_counts_both_replicas_questions(shared: Replicas) -> None:
    await anyio.to_thread.run_sync(shared.a.app.engine.ensure_indexed)
    _, header = shared.a.user("root@x.io", admin=True)
    for replica, question in (
        (shared.a, "How do I install askdocs?"),
        (shared.b, "Where is the config file?"),
    ):
        for _ in range(2):
            asked = await replica.client.post(
                "http://127.0.0.1/api/ask",
                json={"token": "", "messages": [{"role": "user", "content": question}]},
            )
            assert asked.status_code == 200, asked.text
    reports = []
    for replica in (shared.a, shared.b):
        found = await replica.client.get("/api/v1/admin/ask-report", headers=header)
        assert found.status_code == 200, found.text
        reports.append({k: v for k, v in found.json().items() if k != "since"})  # the clock's
    assert reports[0]["questions"] == 4
    assert reports[0] == reports[1]
