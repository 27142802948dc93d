"""Platform inference providers: keys encrypted at rest and never read back, payloads bind
fingerprints, and the connection test changes only the last-test columns."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from askdocs.admin.provider_test import scrub
from askdocs.db.admin_models import ProviderRow
from askdocs.errors import Forbidden, InvalidInput, NotFound
from tests.admin.echo_server import echo_server
from tests.admin.world import PROVIDER_KEY, World, db_state
from tests.assistant.scripted import Script, model_server

NEW_KEY = "sk-live-0123456789abcdef0123456789abcdef"


def rows(world: World) -> list[ProviderRow]:
    with world.db.session() as session:
        return list(session.scalars(select(ProviderRow).order_by(ProviderRow.name)))


def pid(world: World) -> str:
    return rows(world)[0].id


def round_trip(world: World, operation: str, args: dict[str, Any]) -> Any:
    admin = world.platform_admin.id
    proposal = world.api.propose(operation, admin, args)
    applied = world.api.apply(
        operation, admin, {**args, "confirmationToken": proposal["confirmationToken"]}
    )
    return proposal, applied


def test_keys_are_encrypted_at_rest_and_reads_return_only_the_redaction(world: World) -> None:
    args = {
        "name": "Embed",
        "capability": "embedding",
        "kind": "openai-compatible",
        "model": "e5",
        "apiKey": NEW_KEY,
    }
    proposal, applied = round_trip(world, "CreateInferenceProvider", args)
    stored = next(r for r in rows(world) if r.name == "Embed")
    assert stored.api_key_encrypted is not None
    assert NEW_KEY not in stored.api_key_encrypted
    assert world.api.env.secrets.decrypt(stored.api_key_encrypted) == NEW_KEY
    listed = world.api.read("list_inference_providers", world.platform_admin.id, {})
    embed = next(p for p in listed["providers"] if p["name"] == "Embed")
    assert embed["hasApiKey"] is True
    assert embed["apiKeyLastFour"] == NEW_KEY[-4:]
    for shown in (str(proposal), str(applied), str(listed)):
        assert NEW_KEY not in shown
        assert stored.api_key_encrypted not in shown
        assert NEW_KEY[:12] not in shown


def test_the_payload_binds_a_fingerprint_and_null_is_not_empty(world: World) -> None:
    admin = world.platform_admin.id
    base = {"providerId": pid(world), "model": "gpt-test-2"}
    keep = world.api.propose("UpdateInferenceProvider", admin, {**base, "apiKey": None})
    clear = world.api.propose("UpdateInferenceProvider", admin, {**base, "apiKey": ""})
    other = world.api.propose("UpdateInferenceProvider", admin, {**base, "apiKey": NEW_KEY})
    tokens = {keep["confirmationToken"], clear["confirmationToken"], other["confirmationToken"]}
    assert len(tokens) == 3
    assert "keep the stored API key" in keep["proposal"]["summary"]
    assert "remove the stored API key" in clear["proposal"]["summary"]
    # a clear-token cannot be used to keep (or to set) the key
    before = db_state(world.db)
    for key in (None, NEW_KEY):
        with pytest.raises(Forbidden):
            world.api.apply(
                "UpdateInferenceProvider",
                admin,
                {**base, "apiKey": key, "confirmationToken": clear["confirmationToken"]},
            )
    assert db_state(world.db) == before
    # a different submitted key than the one proposed is refused
    with pytest.raises(Forbidden):
        world.api.apply(
            "UpdateInferenceProvider",
            admin,
            {**base, "apiKey": NEW_KEY + "x", "confirmationToken": other["confirmationToken"]},
        )
    world.api.apply(
        "UpdateInferenceProvider",
        admin,
        {**base, "apiKey": "", "confirmationToken": clear["confirmationToken"]},
    )
    row = rows(world)[0]
    assert row.api_key_encrypted is None
    assert row.api_key_last_four is None
    assert row.model == "gpt-test-2"


def test_a_renamed_provider_refuses_the_old_delete_token(world: World) -> None:
    admin = world.platform_admin.id
    token = world.api.propose("DeleteInferenceProvider", admin, {"providerId": pid(world)})[
        "confirmationToken"
    ]
    round_trip(world, "UpdateInferenceProvider", {"providerId": pid(world), "name": "Renamed"})
    with pytest.raises(Forbidden):
        world.api.apply(
            "DeleteInferenceProvider", admin, {"providerId": pid(world), "confirmationToken": token}
        )
    assert [r.name for r in rows(world)] == ["Renamed"]


def test_workspace_rows_are_as_unreachable_as_missing_ones(world: World) -> None:
    with world.db.session(write=True) as session:
        session.add(
            ProviderRow(
                organisation_id=world.org_a,
                name="BYO",
                capability="chat",
                kind="anthropic",
                model="c",
            )
        )
    byo = next(r for r in rows(world) if r.name == "BYO")
    for ident in (byo.id, "no-such-id"):
        with pytest.raises(NotFound) as missing:
            world.api.propose(
                "DeleteInferenceProvider", world.platform_admin.id, {"providerId": ident}
            )
        assert missing.value.message == "inference provider not found"
    listed = world.api.read("list_inference_providers", world.platform_admin.id, {})
    assert [p["name"] for p in listed["providers"]] == ["Main chat"]


def test_provider_arguments_are_validated(world: World) -> None:
    admin = world.platform_admin.id
    base = {"name": "X", "capability": "chat", "kind": "openai-compatible", "model": "m"}
    for change in (
        {"capability": "vision"},
        {"kind": "local"},
        {"baseUrl": "ftp://h"},
        {"baseUrl": "http://u:p@h"},
        {"name": "Main chat"},
    ):
        with pytest.raises(InvalidInput):
            world.api.propose("CreateInferenceProvider", admin, {**base, **change})
    with pytest.raises(InvalidInput):
        world.api.propose(
            "CreateInferenceProvider",
            admin,
            {**base, "capability": "embedding", "kind": "anthropic"},
        )


def _set_endpoint(world: World, url: str) -> None:
    with world.db.session(write=True) as session:
        row = session.scalars(select(ProviderRow)).one()
        row.base_url = url


def _columns(row: ProviderRow) -> dict[str, Any]:
    skip = {"last_test_at", "last_test_ok", "last_test_error"}
    return {c.key: getattr(row, c.key) for c in ProviderRow.__table__.columns if c.key not in skip}


@pytest.mark.anyio
async def test_a_failing_test_records_scrubbed_error_text_and_nothing_else(world: World) -> None:
    with echo_server() as (url, seen):
        _set_endpoint(world, url)
        before = _columns(rows(world)[0])
        result = await world.api.act(
            "test_inference_provider", world.platform_admin.id, {"providerId": pid(world)}
        )
    assert seen == [f"Bearer {PROVIDER_KEY}"]  # the real client sent the decrypted key
    assert result["ok"] is False
    assert "401" in result["error"]
    row = rows(world)[0]
    assert _columns(row) == before  # only the last-test columns changed
    assert row.last_test_ok is False
    assert row.last_test_at is not None
    for text in (result["error"], row.last_test_error or ""):
        assert PROVIDER_KEY not in text
        assert PROVIDER_KEY[:16] not in text


@pytest.mark.anyio
async def test_a_passing_test_against_a_real_protocol_server(world: World) -> None:
    with model_server() as server:
        server.script(Script(["OK"]))
        _set_endpoint(world, server.url)
        result = await world.api.act(
            "test_inference_provider", world.platform_admin.id, {"providerId": pid(world)}
        )
    assert result["ok"] is True
    assert result["error"] is None
    assert rows(world)[0].last_test_ok is True
    assert server.requests[0]["model"] == "gpt-test"


def test_scrub_removes_the_key_and_credential_shapes() -> None:
    text = f"failed: Authorization: Bearer abc.def api_key={PROVIDER_KEY} {PROVIDER_KEY}"
    cleaned = scrub(text, PROVIDER_KEY)
    assert PROVIDER_KEY not in cleaned
    assert "abc.def" not in cleaned
    assert len(scrub("x" * 1000, None)) == 300
