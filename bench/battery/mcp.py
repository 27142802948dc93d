"""Battery category ``mcp`` (issue #27): ``askdocs mcp`` over HTTP in server mode (over the
rig's API) and in local mode (over the rig's docs), driven by the official MCP client.

- Tokens of deleted users: local mode refuses them at the transport (401); server mode
  lists no admin tool to them, an admin tool called anyway fails, and a private site is
  not there (public pages read like a visitor's, as the API documents).
- Path arguments: ``reindex_site`` and ``get_article`` with ids that are paths
  (``../../proposals/<id>/discard?``, ``../../v1/...``) change nothing and read nothing
  else: a stored proposal stays pending, its token never shows.
- Approval bypass: the MCP token (what a model's host holds), used over REST, cannot
  apply a change (propose then apply, or read a stored proposal's token and apply it),
  nor with a forged approval proof; through elicitation, the person's "no" writes nothing
  and their "yes" writes the page (the control: the probes can see an apply).

MCP tokens are made here with PyJWT from the rig's signing key (``aud`` holds the API's
audience and ``<audience>/mcp``), so the category runs against any askdocs version.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import httpx
import httpx2
import jwt as pyjwt
from askdocs.auth.keys import signing_key
from bench.battery.accounts import world
from bench.battery.authz import WRITE, people
from bench.battery.categories import Mode, Result
from bench.battery.rig import Rig
from mcp.client.session import ClientRequestContext
from mcp.client.streamable_http import streamable_http_client
from mcp_types import ElicitRequestParams, ElicitResult
from tests.mcp.conftest import McpProcess, process_env, start_http

from mcp import Client

T = TypeVar("T")
ADMIN_TOOLS = {"propose_write_page", "reindex_site"}
SITE_IDS = [
    "../../proposals/{id}/discard?",
    "..%2F..%2Fproposals%2F{id}%2Fdiscard",
    "..",
    "alpha/../../proposals/{id}/discard",
    "alpha?organisationId=x",
    "alpha#x",
    "%2e%2e",
]
REFS = [
    "../../v1/proposals/{id}",
    "../../v1/admin/providers",
    "..%2F..%2Fv1%2Fproposals%2F{id}",
    "guide/../../../v1/auth/me",
    "/docs/../../api/v1/proposals/{id}",
]
_servers: dict[str, tuple[McpProcess, McpProcess]] = {}


def mcp_token(rig: Rig, user_id: str, ttl: int = 600) -> str:
    settings = world(rig).settings
    now = int(time.time())
    audience = settings.auth.jwt_audience
    claims = {
        "tokenVersion": world(rig).version(user_id),
        "sub": user_id,
        "iat": now,
        "exp": now + ttl,
        "iss": settings.auth.jwt_issuer,
        "aud": [audience, f"{audience}/mcp"],
        "platformAdmin": False,
    }
    return pyjwt.encode(claims, signing_key(settings), algorithm="HS256")


def servers(rig: Rig) -> tuple[McpProcess, McpProcess]:
    """(server mode, local mode), started once per rig and stopped with it."""
    if rig.url not in _servers:
        key = signing_key(world(rig).settings)
        base = {"ASKDOCS_AUTH__JWT_SIGNING_KEY": key}
        remote = start_http(
            ["--api-url", rig.url],
            process_env(rig.data_dir, **base, ASKDOCS_DATA_DIR=str(rig.data_dir)),
        )
        local_env = process_env(
            rig.data_dir.parent / "mcp-local",
            **base,
            ASKDOCS_DATABASE_URL=rig.env["ASKDOCS_DATABASE_URL"],
            ASKDOCS_EMBEDDING__PROVIDER="none",
        )
        local = start_http(["--docs", str(rig.docs)], local_env)
        rig.stack.callback(remote.stop)
        rig.stack.callback(local.stop)
        _servers[rig.url] = (remote, local)
    return _servers[rig.url]


Person = Callable[[ElicitRequestParams], ElicitResult]


def session(url: str, token: str, person: Person | None = None) -> Client:
    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=120)
    if person is None:
        return Client(streamable_http_client(url, http_client=http))

    async def answer(context: ClientRequestContext, params: ElicitRequestParams) -> Any:
        return person(params)

    return Client(streamable_http_client(url, http_client=http), elicitation_callback=answer)


def run(work: Callable[[], Awaitable[T]]) -> T:
    return anyio.run(work)


def mcp(rig: Rig, mode: Mode) -> Result:
    result = Result("mcp")
    remote, local = servers(rig)
    _deleted_users(rig, result, remote, local)
    proposal = _stored_proposal(rig)
    _path_arguments(rig, result, remote, proposal)
    _approval_bypass(rig, result, remote, proposal)
    result.figure = f"site_ids={len(SITE_IDS)} refs={len(REFS)}"
    return result


def _owner(rig: Rig) -> str:
    people(rig)  # the organisation, its site alpha and the owner's grants
    return world(rig).users.by_email("owner@battery.test").id


def _deleted_users(rig: Rig, result: Result, remote: McpProcess, local: McpProcess) -> None:
    users = world(rig).users
    gone = users.create_user(f"gone-{time.monotonic_ns()}@battery.test")
    token = mcp_token(rig, gone.id)
    users.delete(gone.id)
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "battery", "version": "0"},
        },
    }
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "Authorization": f"Bearer {token}",
    }
    answer = httpx.post(local.url, json=initialize, headers=headers, timeout=60)
    result.probes += 1
    if answer.status_code != 401:
        result.fail(f"local mode took a deleted user's token: {answer.status_code}")

    from bench.battery.private import PRIVATE, private_site

    canary = private_site(rig).canary

    async def probe() -> tuple[set[str], list[bool], str]:
        async with session(remote.url, token) as client:
            names = {tool.name for tool in (await client.list_tools()).tools}
            calls = [
                await client.call_tool("propose_write_page", WRITE),
                await client.call_tool("list_catalog", {"site": PRIVATE}),
            ]
            return names, [call.is_error for call in calls], _text(calls[1])

    names, errors, private = run(probe)
    result.probes += 3
    if names & ADMIN_TOOLS:
        result.fail(f"a deleted user is offered {sorted(names & ADMIN_TOOLS)}")
    if not all(errors) or canary in private:
        result.fail("a deleted user's token proposed a change or read a private site")


def _stored_proposal(rig: Rig) -> tuple[str, str]:
    """A person's pending stored proposal (id, its confirmation token): the canary."""
    owner = _owner(rig)
    headers = world(rig).bearer(owner)
    body = {"operation": "write-page", "arguments": WRITE}
    stored = httpx.post(rig.url + "/api/v1/proposals", json=body, headers=headers, timeout=60)
    ident = str(stored.json()["id"])
    shown = httpx.get(f"{rig.url}/api/v1/proposals/{ident}", headers=headers, timeout=60).json()
    return ident, str(shown.get("token", ""))


def _state(rig: Rig, proposal_id: str) -> str:
    headers = world(rig).bearer(_owner(rig))
    answer = httpx.get(f"{rig.url}/api/v1/proposals/{proposal_id}", headers=headers, timeout=60)
    return str(answer.json().get("state"))


def _path_arguments(
    rig: Rig, result: Result, remote: McpProcess, proposal: tuple[str, str]
) -> None:
    ident, token = proposal
    mcp = mcp_token(rig, _owner(rig))

    async def probe() -> list[tuple[str, bool, str]]:
        seen = []
        async with session(remote.url, mcp) as client:
            for site_id in SITE_IDS:
                answer = await client.call_tool(
                    "reindex_site", {"siteId": site_id.format(id=ident)}
                )
                seen.append((f"reindex_site {site_id}", answer.is_error, _text(answer)))
            for ref in REFS:
                answer = await client.call_tool(
                    "get_article", {"slug_or_path": ref.format(id=ident)}
                )
                seen.append((f"get_article {ref}", answer.is_error, _text(answer)))
        return seen

    for name, is_error, text in run(probe):
        result.probes += 1
        if not is_error or (token and token in text):
            result.fail(f"{name}: {'answered' if not is_error else 'leaked the token'}")
    result.probes += 1
    if _state(rig, ident) != "pending":
        result.fail("a path argument reached the stored proposal (no longer pending)")


def _text(answer: Any) -> str:
    return json.dumps([c.model_dump() for c in answer.content]) + json.dumps(
        answer.structured_content or {}
    )


def _approval_bypass(
    rig: Rig, result: Result, remote: McpProcess, proposal: tuple[str, str]
) -> None:
    owner = _owner(rig)
    mcp = {"Authorization": f"Bearer {mcp_token(rig, owner)}"}
    sites = people(rig).sites_dir / "alpha"
    page = {**WRITE, "path": "guide/mcp-bypass.md"}
    with httpx.Client(base_url=rig.url, timeout=60) as http:
        proposed = http.post("/api/v1/admin/proposals/write-page", json=page, headers=mcp)
        token = str(proposed.json().get("confirmationToken", ""))
        attempts = {
            "propose then apply": (
                "/api/v1/admin/apply/write-page",
                {**page, "confirmationToken": token},
                {},
            ),
            "forged proof": (
                "/api/v1/admin/apply/write-page",
                {**page, "confirmationToken": token},
                {"X-Askdocs-Approval": _forged_proof(rig, owner, token)},
            ),
        }
        ident, stored_token = proposal
        shown = http.get(f"/api/v1/proposals/{ident}", headers=mcp).json()
        result.probes += 1
        if "token" in shown:
            result.fail("the MCP token reads a stored proposal's confirmation token")
        stored = (f"/api/v1/proposals/{ident}/apply", {"confirmationToken": stored_token}, {})
        attempts["stored proposal"] = stored
        for name, (path, body, extra) in attempts.items():
            answer = http.post(path, json=body, headers={**mcp, **extra})
            result.probes += 1
            if answer.status_code < 400:
                result.fail(f"{name}: the MCP token applied a change ({answer.status_code})")
    result.probes += 1
    if (sites / "guide" / "mcp-bypass.md").exists() or _state(rig, ident) != "pending":
        result.fail("a change was applied without the person")
    _elicitation(rig, result, remote, owner)


def _forged_proof(rig: Rig, user_id: str, token: str) -> str:
    """A proof as a host holding the MCP token could make one: signed with a key it knows
    (the token itself), for this user and confirmation token."""
    import hashlib

    now = int(time.time())
    settings = world(rig).settings
    claims = {
        "sub": user_id,
        "cth": hashlib.sha256(token.encode()).hexdigest(),
        "iat": now,
        "exp": now + 60,
        "iss": settings.auth.jwt_issuer,
        "aud": f"{settings.auth.jwt_audience}/approval",
    }
    return pyjwt.encode(claims, mcp_token(rig, user_id), algorithm="HS256")


def _elicitation(rig: Rig, result: Result, remote: McpProcess, owner: str) -> None:
    """The person says no (nothing written), then yes (written): the probes see applies."""
    sites = people(rig).sites_dir / "alpha"
    token = mcp_token(rig, owner)
    outcomes = []
    for path, answer in (
        ("guide/mcp-no.md", ElicitResult(action="decline")),
        ("guide/mcp-yes.md", ElicitResult(action="accept", content={"apply": True})),
    ):

        async def probe(path: str = path, answer: ElicitResult = answer) -> Any:
            async with session(remote.url, token, lambda params: answer) as client:
                return await client.call_tool("propose_write_page", {**WRITE, "path": path})

        called = run(probe)
        outcomes.append((path, (called.structured_content or {}).get("status"), called.is_error))
    result.probes += 2
    if (sites / "guide" / "mcp-no.md").exists():
        result.fail("the person declined and the page was written")
    if not (sites / "guide" / "mcp-yes.md").exists():
        result.fail(f"the person accepted and nothing was written: {outcomes} (probes blind)")
