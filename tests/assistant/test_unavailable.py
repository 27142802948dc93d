"""When the database is gone, the assistant answers 503 quickly and writes no frames."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.assistant.conftest import open_harness
from tests.assistant.scripted import ModelServer
from tests.db.postgres import PostgresServer


@pytest.mark.anyio
@pytest.mark.postgres
async def test_a_dropped_database_is_503(
    tmp_path: Path, docs_root: Path, models: ModelServer, postgres_server: PostgresServer
) -> None:
    name = postgres_server.create_database(postgres_server.migrated_template())
    url = postgres_server.url(name)
    async with open_harness(tmp_path / "data", url, docs_root, models) as harness:
        _, headers = harness.user("a@x.io")
        created = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
        thread = created.json()["id"]
        harness.runtime.db.engine.dispose()
        postgres_server.drop_database(name)
        listed = await harness.client.get("/api/v1/assistant/threads", headers=headers)
        assert listed.status_code == 503
        assert listed.json()["error"]["code"] == "database_unavailable"
        chat = await harness.client.post(
            "/api/v1/assistant/chat", json={"threadId": thread, "message": "hi"}, headers=headers
        )
        assert chat.status_code == 503
        assert "data:" not in chat.text
        assert models.requests == []
