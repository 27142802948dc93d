"""Ask AI answers with the active stored chat provider, like the assistant: a platform admin
makes provider P2 active through the admin REST API and the next ``POST /api/ask`` streams
P2's text (its model named in the request P2 received); deactivating P2 sends the next
question back to the configured model. No restart: one app throughout. The configured model
and P2 are scripted servers on 127.0.0.1 speaking the real streaming protocols
(OpenAI-compatible, Anthropic); the last test does the same against a real ``askdocs serve``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from askdocs.app import App
from askdocs.server.app import create_app
from tests.assistant.conftest import Harness, docs_root, make_settings, open_harness
from tests.assistant.scripted import ModelServer, Script, model_server
from tests.db.fixtures import database_url, postgres_server
from tests.reader.fixtures import build_tree
from tests.reader.serve import serving, toml_config

__all__ = ["database_url", "docs_root", "postgres_server"]  # the fixtures
pytestmark = pytest.mark.anyio
ADMIN = "/api/v1/admin"
QUESTION = {"token": "", "messages": [{"role": "user", "content": "How do I install askdocs?"}]}
SERVED_QUESTION = {
    "token": "",
    "messages": [{"role": "user", "content": "install fixture with pip"}],
}


async def _admin(
    client: httpx.AsyncClient, headers: dict[str, str], operation: str, args: dict[str, Any]
) -> dict[str, Any]:
    """Propose then apply ``operation`` over REST, as the admin area does."""
    proposed = await client.post(f"{ADMIN}/proposals/{operation}", json=args, headers=headers)
    assert proposed.status_code == 200, proposed.text
    body = {**args, "confirmationToken": proposed.json()["confirmationToken"]}
    applied = await client.post(f"{ADMIN}/apply/{operation}", json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    result: dict[str, Any] = applied.json()
    return result


async def _ask(harness: Harness) -> str:
    response = await harness.client.post("/api/ask", json=QUESTION)
    assert response.status_code == 200, response.text
    assert response.headers["x-ask-sources"] != "%5B%5D"  # retrieval matched: a model answer
    return response.text


async def _in_use(harness: Harness, headers: dict[str, str]) -> str:
    listed = await harness.client.get(f"{ADMIN}/providers", headers=headers)
    assert listed.status_code == 200, listed.text
    source: str = listed.json()["inUse"]["chat"]
    return source


def _provider(kind: str, server: ModelServer) -> dict[str, Any]:
    return {
        "name": "P2",
        "capability": "chat",
        "kind": kind,
        "baseUrl": server.url,
        "model": "model-p2",
        "apiKey": "sk-" + "p" * 24,
        "active": True,
    }


@pytest.mark.parametrize("kind", ["openai-compatible", "anthropic"])
async def test_ask_ai_streams_the_active_stored_provider(
    tmp_path: Path, docs_root: Path, database_url: str, kind: str
) -> None:
    url = database_url  # SQLite and PostgreSQL
    with model_server() as configured, model_server() as p2:
        overrides = {"bot_check": {"provider": "off"}}
        async with open_harness(tmp_path / "data", url, docs_root, configured, **overrides) as h:
            await h.app.pool.run(h.app.engine.ensure_indexed)
            _, headers = h.user("root@x.io", admin=True)

            configured.script(Script(["From the ", "configured model."]))
            assert await _ask(h) == "From the configured model."
            assert await _in_use(h, headers) == "settings"

            made = await _admin(h.client, headers, "create-inference-provider", _provider(kind, p2))
            assert made["created"]["active"] is True
            p2.script(Script(["From ", "P2."]))
            assert await _ask(h) == "From P2."  # the next question, no restart
            assert [body["model"] for body in p2.requests] == ["model-p2"]
            assert len(configured.requests) == 1
            assert await _in_use(h, headers) == "database"

            args = {"providerId": made["created"]["id"], "active": False}
            await _admin(h.client, headers, "update-inference-provider", args)
            configured.script(Script(["The configured model again."]))
            assert await _ask(h) == "The configured model again."
            assert len(configured.requests) == 2
            assert len(p2.requests) == 1
            assert await _in_use(h, headers) == "settings"


async def test_ask_ai_falls_back_to_the_configured_model_without_the_database(
    tmp_path: Path, docs_root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The database cannot be opened: Ask AI still answers, with the configured model."""
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the database's folder should be", encoding="utf-8")
    with model_server() as configured:
        configured.script(Script(["Configured, no database."]))
        settings = make_settings(
            tmp_path / "data",
            docs_root,
            database_url=f"sqlite:///{blocked / 'ask.db'}",
            chat={"provider": "openai-compatible", "model": "scripted", "base_url": configured.url},
            embedding={"provider": "none"},
            bot_check={"provider": "off"},
        )
        built = App(settings)
        transport = httpx.ASGITransport(app=create_app(app=built))
        try:
            await built.pool.run(built.engine.ensure_indexed)
            async with httpx.AsyncClient(transport=transport, base_url="http://askdocs.test") as c:
                response = await c.post("/api/ask", json=QUESTION)
            assert response.status_code == 200, response.text
            assert response.text == "Configured, no database."
            assert "stored chat provider unavailable" in caplog.text  # it did try
        finally:
            await built.aclose()


def _cli(data_dir: Path, config: Path, *args: str) -> str:
    command = [sys.executable, "-m", "askdocs", "--data-dir", str(data_dir), "--config"]
    done = subprocess.run(
        [*command, str(config), *args], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _served_ask(client: httpx.Client) -> str:
    """The first answer once the background index is searchable (503 index_building before)."""
    deadline = time.monotonic() + 90
    while True:
        response = client.post("/api/ask", json=SERVED_QUESTION, timeout=60)
        building = response.status_code == 503 and "index_building" in response.text
        if not building or time.monotonic() > deadline:
            assert response.status_code == 200, response.text
            return response.text
        time.sleep(0.2)


def _served_admin(
    client: httpx.Client, headers: dict[str, str], operation: str, args: dict[str, Any]
) -> dict[str, Any]:
    proposed = client.post(f"{ADMIN}/proposals/{operation}", json=args, headers=headers)
    assert proposed.status_code == 200, proposed.text
    body = {**args, "confirmationToken": proposed.json()["confirmationToken"]}
    applied = client.post(f"{ADMIN}/apply/{operation}", json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    result: dict[str, Any] = applied.json()
    return result


@pytest.mark.slow
def test_a_served_ask_ai_switches_provider_without_a_restart(tmp_path: Path) -> None:
    """The same switch against a real ``askdocs serve`` process."""
    build_tree(tmp_path)
    with model_server() as configured, model_server() as p2:
        extra = f"""
[chat]
provider = "openai-compatible"
model = "configured"
base_url = "{configured.url}/v1"

[embedding]
provider = "none"

[ask]
limits_timeout_seconds = 5  # a healthy store on a loaded machine must never look down
"""
        config = toml_config(tmp_path, extra=extra, index=True)
        data_dir = tmp_path / "data"
        data_dir.mkdir()
        _cli(data_dir, config, "users", "create", "--email", "root@x.io", "--platform-admin")
        token = _cli(data_dir, config, "token", "create", "--email", "root@x.io", "--ttl", "3600")
        headers = {"Authorization": f"Bearer {token}"}
        configured.responder = lambda body: Script(["From the configured model."])
        with serving(data_dir, config) as server, httpx.Client(base_url=server.url) as client:
            assert _served_ask(client) == "From the configured model."
            made = _served_admin(
                client, headers, "create-inference-provider", _provider("openai-compatible", p2)
            )
            p2.script(Script(["From P2, served."]))
            assert _served_ask(client) == "From P2, served."
            assert [body["model"] for body in p2.requests] == ["model-p2"]
            args = {"providerId": made["created"]["id"], "active": False}
            _served_admin(client, headers, "update-inference-provider", args)
            assert _served_ask(client) == "From the configured model."
            assert len(p2.requests) == 1
