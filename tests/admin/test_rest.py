"""``/api/v1/admin`` over HTTP (in-process ASGI): the same gates, grants and tokens as the
tools, status codes and error codes, and the propose -> apply round trip time."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from askdocs.assistant.tools import ToolContext, call_tool
from askdocs.auth.jwt import mint
from askdocs.llm.types import ToolCall
from tests.admin.test_assistant import _people
from tests.admin.world import PROVIDER_KEY, db_state, tree_state
from tests.assistant.conftest import Harness, open_harness
from tests.assistant.scripted import model_server

ADMIN = "/api/v1/admin"


@pytest.fixture
async def rest(tmp_path: Path, docs_root: Path) -> AsyncIterator[tuple[Harness, dict[str, Any]]]:
    with model_server() as model:
        url = f"sqlite:///{tmp_path / 'r.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, model) as harness:
            people = _people(harness)
            yield harness, people
            await people["api"].runs.wait()


def _org_headers(harness: Harness, user_id: str, org: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint(harness.settings, user_id, org=org)}"}


@pytest.mark.anyio
async def test_propose_then_apply_over_rest(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    body = {"siteId": "alpha", "path": "guide/rest.md", "content": "# REST\n"}
    proposed = await harness.client.post(
        f"{ADMIN}/proposals/write-page", json=body, headers=headers
    )
    assert proposed.status_code == 200, proposed.text
    data = proposed.json()
    assert data["proposal"]["operation"] == "WritePage"
    assert "+# REST" in data["proposal"]["diff"]
    assert not (people["api"].env.sites_dir / "alpha" / "guide" / "rest.md").exists()
    token = data["confirmationToken"]
    applied = await harness.client.post(
        f"{ADMIN}/apply/write-page", json={**body, "confirmationToken": token}, headers=headers
    )
    assert applied.status_code == 200, applied.text
    assert applied.json()["written"]["path"] == "guide/rest.md"
    again = await harness.client.post(
        f"{ADMIN}/apply/write-page", json={**body, "confirmationToken": token}, headers=headers
    )
    assert again.status_code == 403
    assert again.json()["error"]["code"] == "confirmation_invalid"
    page = await harness.client.get(f"{ADMIN}/sites/alpha/pages/guide/rest.md", headers=headers)
    assert page.json()["content"] == "# REST\n"


@pytest.mark.anyio
async def test_a_token_minted_by_the_assistant_applies_over_rest(rest: Any) -> None:
    harness, people = rest
    owner, headers = people["owner"]
    args = {"siteId": "alpha", "name": "Alpha renamed"}
    outcome = await call_tool(
        harness.runtime.tools,
        ToolCall("c", "propose_update_site", args),
        ToolContext(owner.id, None),
        lambda caption: None,
    )
    assert outcome.proposal is not None
    token = outcome.proposal["token"]
    assert token not in json.dumps(outcome.data)  # the model reads no token (AU-17)
    apply_args = outcome.proposal["arguments"]
    assert {k: apply_args[k] for k in args} == args
    response = await harness.client.post(
        f"{ADMIN}/apply/update-site",
        json={**apply_args, "confirmationToken": token},
        headers=headers,
    )
    assert response.status_code == 200, response.text
    assert response.json()["updated"]["name"] == "Alpha renamed"


@pytest.mark.anyio
async def test_refusals_have_stable_codes_and_write_nothing(rest: Any) -> None:
    harness, people = rest
    api = people["api"]
    (_, member), (_, owner), (_, root) = people["member"], people["owner"], people["root"]
    before_db, before_files = db_state(harness.runtime.db), tree_state(api.env.sites_dir)
    cases: list[tuple[str, str, dict[str, Any] | None, dict[str, str], int, str]] = [
        (
            "post",
            "/apply/delete-site",
            {"siteId": "alpha", "confirmationToken": "0" * 64},
            member,
            403,
            "admin_required",
        ),
        ("post", "/proposals/delete-site", {"siteId": "alpha"}, root, 403, "admin_required"),
        ("get", "/providers", None, owner, 403, "admin_required"),
        (
            "post",
            "/proposals/create-inference-provider",
            {"name": "x", "capability": "chat", "kind": "gemini", "model": "m"},
            owner,
            403,
            "admin_required",
        ),
        (
            "post",
            "/proposals/create-inference-provider",
            {"name": "x"},
            owner,
            400,
            "invalid_argument",
        ),  # the body's shape is checked first; it reveals no data
        (
            "post",
            "/apply/delete-site",
            {"siteId": "alpha", "confirmationToken": "0" * 64},
            owner,
            403,
            "confirmation_invalid",
        ),
        ("post", "/proposals/drop-database", {}, owner, 404, "unknown_operation"),
        ("post", "/proposals/DeleteSite", {}, owner, 404, "unknown_operation"),
        ("get", "/sites/nosuch", None, owner, 404, "site_not_found"),
        ("get", "/sites/alpha/pages/missing.md", None, owner, 404, "page_not_found"),
        (
            "post",
            "/proposals/write-page",
            {"siteId": "alpha", "path": "../x.md", "content": ""},
            owner,
            400,
            "invalid_path",
        ),
        (
            "post",
            "/proposals/create-site",
            {"id": "alpha", "name": "Again"},
            owner,
            400,
            "site_exists",
        ),
        ("post", "/providers/nope/test", None, root, 404, "provider_not_found"),
        ("get", "/sites", None, {}, 401, "missing_token"),
    ]
    for method, path, body, headers, status, code in cases:
        kwargs: dict[str, Any] = {"headers": headers}
        if body is not None:
            kwargs["json"] = body
        response = await getattr(harness.client, method)(ADMIN + path, **kwargs)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), path
    assert db_state(harness.runtime.db) == before_db
    assert tree_state(api.env.sites_dir) == before_files


@pytest.mark.anyio
async def test_the_tokens_organisation_is_the_active_one(rest: Any) -> None:
    harness, people = rest
    owner, _ = people["owner"]
    from askdocs.users.service import UserService

    other = UserService(harness.runtime.db).create_organisation("Org C", owner.id).id
    plain = _org_headers(harness, owner.id, None)
    ambiguous = await harness.client.get(f"{ADMIN}/sites", headers=plain)
    assert ambiguous.status_code == 400
    assert ambiguous.json()["error"]["code"] == "organisation_required"
    in_c = await harness.client.get(
        f"{ADMIN}/sites", headers=_org_headers(harness, owner.id, other)
    )
    assert in_c.json()["sites"] == []
    chosen = await harness.client.get(
        f"{ADMIN}/sites", params={"organisationId": other}, headers=plain
    )
    assert chosen.json()["sites"] == []


@pytest.mark.anyio
async def test_provider_reads_over_rest_never_carry_the_key(rest: Any) -> None:
    harness, people = rest
    _, root = people["root"]
    listed = await harness.client.get(f"{ADMIN}/providers", headers=root)
    assert listed.status_code == 200
    (provider,) = listed.json()["providers"]
    assert provider["hasApiKey"] is True
    assert PROVIDER_KEY not in listed.text
    tested = await harness.client.post(f"{ADMIN}/providers/{provider['id']}/test", headers=root)
    assert tested.status_code == 400  # its endpoint is 127.0.0.1: the SSRF guard refuses it
    assert tested.json()["error"]["code"] == "endpoint_not_allowed"
    assert PROVIDER_KEY not in tested.text


@pytest.mark.anyio
async def test_propose_apply_round_trip_latency(rest: Any) -> None:
    harness, people = rest
    _, headers = people["owner"]
    timings = []
    for index in range(20):
        body = {"siteId": "alpha", "path": f"bench/p{index}.md", "content": f"# Page {index}\n"}
        began = time.perf_counter()
        proposed = await harness.client.post(
            f"{ADMIN}/proposals/write-page", json=body, headers=headers
        )
        token = proposed.json()["confirmationToken"]
        applied = await harness.client.post(
            f"{ADMIN}/apply/write-page", json={**body, "confirmationToken": token}, headers=headers
        )
        timings.append(time.perf_counter() - began)
        assert applied.status_code == 200
    timings.sort()
    p50, p95 = statistics.median(timings), timings[int(len(timings) * 0.95) - 1]
    print(f"REST propose->apply round trip: p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms")
    assert p50 < 2.0
