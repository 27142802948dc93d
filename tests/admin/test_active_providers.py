"""Providers at run time: a stored provider made active is what the assistant's next turn
talks to and what the engine embeds with, without a restart; the admin read says which
provider is in use; the connection test refuses private, loopback and link-local endpoints
unless ``admin.provider_test_allow_private`` allows them (SSRF guard)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from askdocs.db.admin_models import ProviderRow
from askdocs.errors import InvalidInput
from tests.admin.world import World, build_world
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import Script, model_server

CHAT = "/api/v1/assistant/chat"


def _propose_apply(world_api: Any, user: str, operation: str, args: dict[str, Any]) -> Any:
    token = world_api.propose(operation, user, args)["confirmationToken"]
    return world_api.apply(operation, user, {**args, "confirmationToken": token})


def _chat_provider(url: str, name: str, *, active: bool) -> dict[str, Any]:
    return {
        "name": name,
        "capability": "chat",
        "kind": "openai-compatible",
        "baseUrl": url,
        "model": f"model-{name}",
        "apiKey": "sk-" + "x" * 20,
        "active": active,
    }


async def _ask(harness: Harness, headers: dict[str, str], message: str) -> None:
    thread = await harness.client.post("/api/v1/assistant/threads", json={}, headers=headers)
    ident = thread.json()["id"]
    body = {"threadId": ident, "message": message}
    response = await harness.client.post(CHAT, json=body, headers=headers)
    assert response.status_code == 200
    await harness.wait_idle(ident)


@pytest.mark.anyio
async def test_the_active_chat_provider_answers_the_next_turn(
    tmp_path: Path, docs_root: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'a.db'}"
    with model_server() as models, model_server() as stored:
        stored.title = None
        async with open_harness(tmp_path / "data", url, docs_root, models) as harness:
            root, headers = harness.user("root@x.io", admin=True)
            models.script(Script(["From the configured model."]))
            await _ask(harness, headers, "first question")
            assert len(models.requests) == 1
            api = harness.admin
            made = _propose_apply(
                api,
                root.id,
                "CreateInferenceProvider",
                _chat_provider(stored.url, "one", active=True),
            )
            assert made["created"]["active"] is True
            stored.script(Script(["From the stored provider."]))
            await _ask(harness, headers, "second question")
            assert len(stored.requests) == 1  # no restart: the next turn used the stored row
            assert stored.requests[0]["model"] == "model-one"
            assert len(models.requests) == 1
            listed = await harness.client.get("/api/v1/admin/providers", headers=headers)
            assert listed.json()["inUse"] == {"chat": "database", "embedding": "settings"}
            ident = made["created"]["id"]
            args = {"providerId": ident, "active": False}
            _propose_apply(api, root.id, "UpdateInferenceProvider", args)
            models.script(Script(["The configured model again."]))
            await _ask(harness, headers, "third question")
            assert len(models.requests) == 2
            assert len(stored.requests) == 1


def test_one_provider_per_capability_is_active(world: World) -> None:
    admin = world.platform_admin.id
    first = _propose_apply(
        world.api,
        admin,
        "CreateInferenceProvider",
        _chat_provider("https://a.example", "a", active=True),
    )["created"]["id"]
    second = _propose_apply(
        world.api,
        admin,
        "CreateInferenceProvider",
        _chat_provider("https://b.example", "b", active=True),
    )["created"]["id"]
    with world.db.session() as session:
        active = {row.id: row.active for row in session.scalars(select(ProviderRow))}
    assert active[second] is True
    assert active[first] is False
    assert world.api.active.chat().provider_id == second
    with pytest.raises(InvalidInput) as bad:
        world.api.propose("UpdateInferenceProvider", admin, {"providerId": first, "active": "yes"})
    assert bad.value.code == "invalid_argument"


def test_an_active_embedding_provider_switches_the_engine(world: World) -> None:
    triggered: list[bool] = []
    world.api.embedding_changed = lambda: triggered.append(True)
    args = {
        "name": "embed",
        "capability": "embedding",
        "kind": "openai-compatible",
        "baseUrl": "https://embed.example",
        "model": "embed-small",
        "active": True,
    }
    assert world.api.service.embedding_settings.provider == "none"
    _propose_apply(world.api, world.platform_admin.id, "CreateInferenceProvider", args)
    now = world.api.service.embedding_settings
    assert (now.provider, now.model, now.base_url) == (
        "openai-compatible",
        "embed-small",
        "https://embed.example",
    )
    assert triggered == [True]
    world.api.sync_providers()  # unchanged: no second switch
    assert triggered == [True]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "endpoint",
    [
        "http://127.0.0.1:9/v1",
        "http://localhost:9",
        "http://10.1.2.3",
        "http://192.168.0.10",
        "http://169.254.169.254/latest",
        "http://[::1]:9",
        "http://[::ffff:127.0.0.1]:9",
        "http://0.0.0.0:9",
    ],
)
async def test_the_connection_test_refuses_private_endpoints(tmp_path: Path, endpoint: str) -> None:
    world = build_world(tmp_path, f"sqlite:///{tmp_path / 'ssrf.db'}", admin={})
    try:
        with world.db.session(write=True) as session:
            row = session.scalars(select(ProviderRow)).one()
            row.base_url = endpoint
            ident = row.id
        with pytest.raises(InvalidInput) as refused:
            await world.api.act(
                "test_inference_provider", world.platform_admin.id, {"providerId": ident}
            )
        assert refused.value.code == "endpoint_not_allowed"
        with world.db.session() as session:
            stored = session.get(ProviderRow, ident)
            assert stored is not None
            assert stored.last_test_at is None  # refused before any request: nothing recorded
    finally:
        world.db.close()
