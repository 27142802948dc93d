"""MCP server mode builds API URLs from checked, quoted ids, and the API enforces the
person's approval of an MCP change (issue #27, defect 4).

``reindex_site`` with ``siteId="../../proposals/<id>/discard?"`` made the server discard a
person's proposal; ``get_article`` with ``../../v1/...`` made GETs to any route as the
person; and the MCP token itself could propose over REST and apply the confirmation token
(or read a stored proposal's token and apply it), so "a person approves" held only inside
the MCP server. Real API in-process (SQLite), the official SDK client.
"""

from __future__ import annotations

from typing import Any

import pytest

from askdocs.auth.approval import HEADER, mint_approval
from askdocs.auth.jwt import mint
from askdocs.errors import InvalidInput
from askdocs.keys import KeyRing
from askdocs.mcp import routes
from askdocs.mcp.auth import database_opener
from askdocs.mcp.routes import api_path
from askdocs.settings import Settings
from askdocs.users.accounts import Accounts
from tests.assistant.conftest import docs_root
from tests.mcp.test_admin_tools import PAGE, Rig, owner, rig
from tests.signin.conftest import PASSWORD, browser, sign_in

__all__ = ["docs_root", "rig"]
pytestmark = pytest.mark.anyio
WRITE = "/api/v1/admin/proposals/write-page"
APPLY = "/api/v1/admin/apply/write-page"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize(
    ("template", "values"),
    [
        (routes.REINDEX, {"siteId": "../../proposals/0d3f/discard?"}),
        (routes.REINDEX, {"siteId": ".."}),
        (routes.REINDEX, {"siteId": "alpha/../beta"}),
        (routes.REINDEX, {"siteId": "alpha?x=1"}),
        (routes.REINDEX, {"siteId": "%2e%2e"}),
        (routes.APPLY, {"operation": "write-page/../../x"}),
        (routes.ARTICLE, {"slug": "../../v1/admin/providers"}),
        (routes.ARTICLE, {"slug": "guide/../../v1/proposals"}),
        (routes.ARTICLE, {"slug": "guide/%2e%2e/x"}),
    ],
)
def test_mcp_server_mode_refuses_path_arguments_that_are_not_ids(
    template: str, values: dict[str, str]
) -> None:
    with pytest.raises(InvalidInput) as refused:
        api_path(template, **values)
    assert refused.value.code == "invalid_argument"


def test_mcp_server_mode_quotes_every_path_segment() -> None:
    assert api_path(routes.REINDEX, siteId="alpha_1") == "/api/v1/admin/sites/alpha_1/reindex"
    assert api_path(routes.ARTICLE, slug="guide/my page") == "/api/docs/articles/guide/my%20page"
    assert api_path(routes.ARTICLE, slug="guide/a~b") == "/api/docs/articles/guide/a~b"
    with pytest.raises(ValueError, match="needs"):
        api_path(routes.REINDEX)  # a template's ids are all required


async def _stored(rig: Rig, headers: dict[str, str]) -> str:
    stored = await rig.harness.client.post(
        "/api/v1/proposals", json={"operation": "write-page", "arguments": PAGE}, headers=headers
    )
    assert stored.status_code == 201, stored.text
    proposal_id = stored.json()["id"]
    assert isinstance(proposal_id, str)
    return proposal_id


def _bearer(rig: Rig, *, mcp: bool) -> dict[str, str]:
    user_id = rig.people["owner"][0].id
    return {"Authorization": f"Bearer {mint(rig.harness.settings, user_id, mcp=mcp)}"}


async def test_reindex_site_cannot_discard_a_proposal_through_its_site_id(rig: Rig) -> None:
    proposal_id = await _stored(rig, _bearer(rig, mcp=True))
    async with rig.client(owner(rig)) as client:
        result = await client.call_tool(
            "reindex_site", {"siteId": f"../../proposals/{proposal_id}/discard?"}
        )
    assert result.is_error
    assert "[invalid_argument]" in result.content[0].text
    shown = await rig.harness.client.get(
        f"/api/v1/proposals/{proposal_id}", headers=_bearer(rig, mcp=False)
    )
    assert shown.json()["state"] == "pending"  # not discarded


async def test_get_article_cannot_reach_other_routes(rig: Rig) -> None:
    proposal_id = await _stored(rig, _bearer(rig, mcp=True))
    token = rig.people["api"].proposals.get(rig.people["owner"][0].id, proposal_id).token
    async with rig.client(owner(rig)) as client:
        for ref in (f"../../v1/proposals/{proposal_id}", "../../v1/admin/providers"):
            result = await client.call_tool("get_article", {"slug_or_path": ref})
            assert result.is_error
            assert "[page_not_found]" in result.content[0].text
            assert token not in result.content[0].text


async def test_an_mcp_token_alone_cannot_apply_a_change(rig: Rig) -> None:
    """Propose over REST with the MCP token, apply its confirmation token: refused; so is a
    stored proposal's token (which the MCP token does not even read back)."""
    target = rig.sites_dir / "alpha" / "guide" / "mcp.md"
    http, mcp = rig.harness.client, _bearer(rig, mcp=True)
    proposed = await http.post(WRITE, json=PAGE, headers=mcp)
    assert proposed.status_code == 200
    token = proposed.json()["confirmationToken"]
    refused = await http.post(APPLY, json={**PAGE, "confirmationToken": token}, headers=mcp)
    assert (refused.status_code, _code(refused.json())) == (403, "approval_required")
    proposal_id = await _stored(rig, mcp)
    shown = (await http.get(f"/api/v1/proposals/{proposal_id}", headers=mcp)).json()
    assert "token" not in shown
    stored_token = rig.people["api"].proposals.get(rig.people["owner"][0].id, proposal_id).token
    body = {"confirmationToken": stored_token}
    stored = await http.post(f"/api/v1/proposals/{proposal_id}/apply", json=body, headers=mcp)
    assert (stored.status_code, _code(stored.json())) == (403, "approval_required")
    assert not target.exists()


async def test_an_approval_proof_must_be_the_servers_and_for_this_change(rig: Rig) -> None:
    http, mcp = rig.harness.client, _bearer(rig, mcp=True)
    settings, user_id = rig.harness.settings, rig.people["owner"][0].id
    keys = rig.harness.app.keys
    token = (await http.post(WRITE, json=PAGE, headers=mcp)).json()["confirmationToken"]
    other_key = Settings.model_validate(
        {"data_dir": settings.data_dir, "auth": {"jwt_signing_key": "x" * 48}}
    )
    other_ring = KeyRing(other_key, database_opener(other_key))  # configured: never opened
    member_id = rig.people["member"][0].id
    forged = {
        "another key": mint_approval(other_key, other_ring, user_id, token),
        "another change": mint_approval(settings, keys, user_id, token + "x"),
        "another user": mint_approval(settings, keys, member_id, token),
        "a bearer token": mint(settings, user_id, keys=keys),
        "garbage": "a.b.c",
    }
    for name, proof in forged.items():
        sent = await http.post(
            APPLY, json={**PAGE, "confirmationToken": token}, headers={**mcp, HEADER: proof}
        )
        assert (sent.status_code, _code(sent.json())) == (403, "approval_invalid"), name
    assert not (rig.sites_dir / "alpha" / "guide" / "mcp.md").exists()
    good = {**mcp, HEADER: mint_approval(settings, keys, user_id, token)}
    applied = await http.post(APPLY, json={**PAGE, "confirmationToken": token}, headers=good)
    assert applied.status_code == 200, applied.text


async def test_the_person_still_applies_in_the_browser_and_plain_tokens_apply(rig: Rig) -> None:
    """The approval gate is for MCP tokens only: a signed-in browser applies a change an
    MCP client stored, and an ordinary bearer token applies as before."""
    _set_password(rig)
    proposal_id = await _stored(rig, _bearer(rig, mcp=True))
    async with browser(rig.harness) as web:
        csrf = await sign_in(web, "owner@a.io")
        shown = (await web.get(f"/api/v1/proposals/{proposal_id}")).json()
        applied = await web.post(
            f"/api/v1/proposals/{proposal_id}/apply",
            json={"confirmationToken": shown["token"]},
            headers={"X-CSRF-Token": csrf},
        )
    assert applied.status_code == 200, applied.text
    plain = _bearer(rig, mcp=False)
    page = {**PAGE, "path": "guide/plain.md"}
    token = (await rig.harness.client.post(WRITE, json=page, headers=plain)).json()
    sent = {**page, "confirmationToken": token["confirmationToken"]}
    assert (await rig.harness.client.post(APPLY, json=sent, headers=plain)).status_code == 200


def _set_password(rig: Rig) -> None:
    Accounts(rig.harness.settings, rig.harness.runtime.db).set_password(
        rig.people["owner"][0].id, PASSWORD
    )


def _code(body: Any) -> str:
    return str(body["error"]["code"])
