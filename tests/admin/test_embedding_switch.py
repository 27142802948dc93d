"""Switching the embedding provider at run time, against a real ``askdocs serve`` process:
a platform admin makes a stored embedding provider active through the admin API; search
keeps answering while the new model's collection is built (keyword-only over the old
collection, the model having changed), then answers hybrid from the new collection, its
queries embedded by the new provider. No restart. Both providers are scripted
OpenAI-compatible embedding servers on 127.0.0.1."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.assistant.scripted import embedding_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import serving, toml_config

pytestmark = pytest.mark.slow
EMAIL = "root@example.com"
QUERY = "install fixture with pip"
WAIT_SECONDS = 90.0


def _cli(data_dir: Path, config: Path, *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "--config"]
    done = subprocess.run(
        [*command, str(config), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _search(client: httpx.Client) -> dict[str, Any]:
    response = client.get("/api/search", params={"q": QUERY, "site": "fx"})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _first_index(client: httpx.Client) -> None:
    """Before the first collection exists, search is 503 index_building."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        response = client.get("/api/search", params={"q": QUERY, "site": "fx"})
        if response.status_code == 200:
            return
        assert response.json()["error"]["code"] == "index_building"
        time.sleep(0.2)


def _until(client: httpx.Client, mode: str) -> dict[str, Any]:
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = _search(client)
        if found["mode"] == mode or time.monotonic() > deadline:
            return found
        time.sleep(0.2)


def _apply(client: httpx.Client, headers: dict[str, str], args: dict[str, Any]) -> Any:
    path = "/api/v1/admin/{}/create-inference-provider"
    proposed = client.post(path.format("proposals"), json=args, headers=headers)
    assert proposed.status_code == 200, proposed.text
    token = proposed.json()["confirmationToken"]
    body = {**args, "confirmationToken": token}
    applied = client.post(path.format("apply"), json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    return applied.json()


def test_search_answers_through_an_embedding_provider_switch(tmp_path: Path) -> None:
    build_tree(tmp_path)
    with embedding_server() as old, embedding_server() as new:
        new.dimension = 32  # a different model: a different collection
        extra = f"""
[embedding]
provider = "openai-compatible"
model = "old-embed"
base_url = "{old.url}"
"""
        config = toml_config(tmp_path, extra=extra, index=True)
        data_dir = tmp_path / "data"
        data_dir.mkdir()
        _cli(data_dir, config, "users", "create", "--email", EMAIL, "--platform-admin")
        token = _cli(data_dir, config, "token", "create", "--email", EMAIL, "--ttl", "3600")
        headers = {"Authorization": f"Bearer {token}"}
        with serving(data_dir, config) as server, httpx.Client(base_url=server.url) as client:
            _first_index(client)
            assert _until(client, "hybrid")["mode"] == "hybrid"
            new.hang_documents.set()  # the new collection's build waits here
            created = _apply(
                client,
                headers,
                {
                    "name": "New embeddings",
                    "capability": "embedding",
                    "kind": "openai-compatible",
                    "baseUrl": new.url,
                    "model": "new-embed",
                    "active": True,
                },
            )
            assert created["created"]["active"] is True
            assert new.hung.wait(WAIT_SECONDS)  # the background indexer is building it
            during = [_search(client) for _ in range(5)]
            assert all(found["hits"] for found in during)
            assert {found["mode"] for found in during} == {"keyword"}
            new.release.set()
            after = _until(client, "hybrid")
            assert after["mode"] == "hybrid"
            assert after["hits"]
            assert QUERY in new.inputs  # the query was embedded by the new provider
            listed = client.get("/api/v1/admin/providers", headers=headers).json()
            assert listed["inUse"]["embedding"] == "database"
