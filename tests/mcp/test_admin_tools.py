"""Admin tools over MCP in server mode: the official SDK client with and without
elicitation, against the real API in-process (SQLite, real gates, grants and tokens).

A propose tool asks the person (the client's elicitation callback) and applies only on
acceptance; the confirmation token never appears in anything the model reads.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp.client.session import ClientRequestContext
from mcp_types import ElicitRequestParams, ElicitResult
from sqlalchemy import select

from askdocs.auth.approval import mint_approval
from askdocs.auth.jwt import mint
from askdocs.db.admin_models import ToolGrantRow
from askdocs.db.models import MembershipRow
from askdocs.mcp.auth import AuthContext
from askdocs.mcp.operations import docs_operations
from askdocs.mcp.remote import RemoteBackend
from askdocs.mcp.server import ServerOptions, build_server
from askdocs.users.service import UserService
from mcp import Client
from tests.admin.test_assistant import _people
from tests.assistant.conftest import Harness, docs_root, open_harness
from tests.assistant.scripted import model_server
from tests.mcp.conftest import BOUND

__all__ = ["docs_root"]
ADMIN_TOOLS = {
    "propose_write_page",
    "propose_delete_page",
    "propose_create_site",
    "propose_update_site",
    "reindex_site",
    "list_index_runs",
}
PAGE = {"siteId": "alpha", "path": "guide/mcp.md", "content": "# MCP\n\nWritten over MCP.\n"}
pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@dataclass
class Rig:
    harness: Harness
    people: dict[str, Any]
    transport: httpx.AsyncBaseTransport

    @property
    def sites_dir(self) -> Path:
        path: Path = self.people["api"].env.sites_dir
        return path

    def caller(self, user_id: str, org: str | None) -> AuthContext:
        token = mint(self.harness.settings, user_id, org=org, mcp=True)  # what a host holds
        return AuthContext(user_id, org, None, False, token)

    def client(
        self, auth: AuthContext, answers: list[ElicitResult] | None = None, mode: str = "auto"
    ) -> Client:
        approve = partial(mint_approval, self.harness.settings, self.harness.app.keys)
        backend = RemoteBackend(
            "http://askdocs.test", timeout_seconds=15, transport=self.transport, approve=approve
        )
        docs = docs_operations(self.harness.settings)
        options = ServerOptions(
            operations=docs, timeout_seconds=BOUND, ask_enabled=False, fixed_auth=auth
        )
        server = build_server(backend, options)
        if answers is None:
            return Client(server, mode=mode)  # type: ignore[arg-type]
        self.asked: list[ElicitRequestParams] = []

        async def person(context: ClientRequestContext, params: ElicitRequestParams) -> Any:
            self.asked.append(params)
            return answers.pop(0)

        return Client(server, elicitation_callback=person, mode=mode)  # type: ignore[arg-type]


@pytest.fixture
async def rig(tmp_path: Path, docs_root: Path) -> AsyncIterator[Rig]:
    with model_server() as model:
        url = f"sqlite:///{tmp_path / 'mcp-admin.db'}"
        async with open_harness(tmp_path / "data", url, docs_root, model) as harness:
            people = _people(harness)
            transport = harness.client._transport  # the same in-process app
            yield Rig(harness, people, transport)
            await people["api"].runs.wait()


def owner(rig: Rig) -> AuthContext:
    return rig.caller(rig.people["owner"][0].id, None)  # one organisation: no org needed


@pytest.mark.parametrize("mode", ["auto", "legacy"])  # 2026-07-28 input_required; mid-call
async def test_propose_and_apply_after_the_person_accepts(rig: Rig, mode: str) -> None:
    target = rig.sites_dir / "alpha" / "guide" / "mcp.md"
    accept = ElicitResult(action="accept", content={"apply": True})
    async with rig.client(owner(rig), [accept], mode) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        result = await client.call_tool("propose_write_page", PAGE)
    assert names >= ADMIN_TOOLS
    assert not result.is_error, result.content
    out = result.structured_content
    assert out["status"] == "applied"
    assert target.read_text() == PAGE["content"]
    assert len(rig.asked) == 1
    assert "+# MCP" in rig.asked[0].message  # the person saw the diff
    seen = json.dumps([c.model_dump() for c in result.content]) + json.dumps(out)
    assert "confirmationToken" not in seen
    assert "token" not in json.dumps(out).lower()


async def test_declining_writes_nothing(rig: Rig) -> None:
    target = rig.sites_dir / "alpha" / "guide" / "mcp.md"
    for answer, mode in (
        (ElicitResult(action="decline"), "auto"),
        (ElicitResult(action="cancel"), "auto"),
        (ElicitResult(action="accept", content={"apply": False}), "auto"),
        (ElicitResult(action="decline"), "legacy"),
    ):
        async with rig.client(owner(rig), [answer], mode) as client:
            result = await client.call_tool("propose_write_page", PAGE)
        assert result.structured_content["status"] == "declined"
        assert not target.exists()


async def test_the_apply_link_is_on_the_public_url(rig: Rig) -> None:
    """Behind a proxy the API's own address is internal: people get ``server.public_url``."""
    backend = RemoteBackend(
        "http://askdocs.test",
        timeout_seconds=15,
        transport=rig.transport,
        public_url="https://docs.example",
    )
    docs = docs_operations(rig.harness.settings)
    auth = owner(rig)
    options = ServerOptions(
        operations=docs, timeout_seconds=BOUND, ask_enabled=False, fixed_auth=auth
    )
    async with Client(build_server(backend, options)) as client:  # type: ignore[arg-type]
        result = await client.call_tool("propose_write_page", PAGE)
    out = result.structured_content
    assert out["applyUrl"] == f"https://docs.example/proposals/{out['proposalId']}"


async def test_a_client_without_elicitation_gets_a_link_to_apply_it(rig: Rig) -> None:
    target = rig.sites_dir / "alpha" / "guide" / "mcp.md"
    async with rig.client(owner(rig)) as client:
        result = await client.call_tool("propose_write_page", PAGE)
    out = result.structured_content
    assert out["status"] == "needs_approval"
    assert out["applyUrl"] == f"http://askdocs.test/proposals/{out['proposalId']}"
    assert "elicitation" in out["next"]
    assert "applyUrl" in out["next"]
    assert "confirmationToken" not in json.dumps(out)
    assert not target.exists()
    # the person follows the link, signed in: the web page reads the stored proposal
    page = await rig.harness.client.get(out["applyUrl"])
    assert page.status_code == 200
    headers = rig.people["owner"][1]
    api = f"/api/v1/proposals/{out['proposalId']}"
    shown = (await rig.harness.client.get(api, headers=headers)).json()
    assert shown["state"] == "pending"
    assert shown["source"] == "api"
    body = {"confirmationToken": shown["token"]}
    applied = await rig.harness.client.post(f"{api}/apply", json=body, headers=headers)
    assert applied.status_code == 200, applied.text
    assert target.read_text() == PAGE["content"]
    again = await rig.harness.client.post(f"{api}/apply", json=body, headers=headers)
    assert again.json()["error"]["code"] == "proposal_settled"
    member = rig.people["member"][1]
    assert (await rig.harness.client.get(api, headers=member)).status_code == 404


async def test_a_user_without_grants_is_not_offered_the_tools(rig: Rig) -> None:
    db = rig.harness.runtime.db
    user, _ = rig.harness.user("nogrants@a.io")
    with db.session() as session:
        org = session.scalars(
            select(MembershipRow.organisation_id).where(
                MembershipRow.user_id == rig.people["owner"][0].id
            )
        ).one()
    UserService(db).add_member(org, user.id, "admin")
    with db.session() as session:
        assert session.get(ToolGrantRow, (user.id, "propose_write_page")) is None
    async with rig.client(rig.caller(user.id, None)) as client:
        names = {tool.name for tool in (await client.list_tools()).tools}
        forced = await client.call_tool("propose_write_page", PAGE)
    # the read tools only (list_operation_schemas is a read, listed to every caller)
    assert names == {"search_docs", "get_article", "list_catalog", "list_operation_schemas"}
    assert forced.is_error
    assert "[tool_not_granted]" in forced.content[0].text
    assert not (rig.sites_dir / "alpha" / "guide" / "mcp.md").exists()


async def test_authority_is_checked_again_at_apply(rig: Rig) -> None:
    """The grant is withdrawn while the person decides: the apply is refused."""
    db = rig.harness.runtime.db
    user_id = rig.people["owner"][0].id

    class Revoking(list[ElicitResult]):
        def pop(self, index: int = -1) -> ElicitResult:
            with db.session(write=True) as session:
                row = session.get(ToolGrantRow, (user_id, "apply_write_page"))
                assert row is not None
                session.delete(row)
            return ElicitResult(action="accept", content={"apply": True})

    async with rig.client(owner(rig), Revoking([ElicitResult(action="accept")])) as client:
        result = await client.call_tool("propose_write_page", PAGE)
    assert result.is_error
    assert "[tool_not_granted]" in result.content[0].text
    assert not (rig.sites_dir / "alpha" / "guide" / "mcp.md").exists()
